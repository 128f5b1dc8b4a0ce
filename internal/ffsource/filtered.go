package ffsource

import (
	"errors"
	"fmt"
	"io"

	"github.com/asticode/go-astiav"

	"github.com/vmafsink/vmafsink/internal/framesize"
)

// transferFilters are filters that can change a picture's transfer
// function (tone-mapping, colour conversion): after one of them the
// stream's HDR flag no longer says what the pictures are.
var transferFilters = map[string]bool{
	"zscale": true, "tonemap": true, "tonemap_opencl": true, "tonemap_vaapi": true,
	"colorspace": true, "libplacebo": true, "lut3d": true, "haldclut": true,
}

// FilterError is an error in Options.Filter: a filter FFmpeg does not
// have, bad arguments, or a graph that cannot take or give the input's
// pictures.
type FilterError struct{ Err error }

func (e *FilterError) Error() string { return e.Err.Error() }
func (e *FilterError) Unwrap() error { return e.Err }

// openFilter puts the filter graph desc between the decoder and the
// pictures Next delivers; Info then describes the graph's output.
func (s *Source) openFilter(desc string) error {
	if err := s.buildFilter(desc); err != nil {
		return &FilterError{err}
	}
	return nil
}

func (s *Source) buildFilter(desc string) error {
	rate := s.fc.GuessFrameRate(s.stream, nil)
	args := sourceArgs{
		width: s.cc.Width(), height: s.cc.Height(), pixFmt: s.cc.PixelFormat(),
		timeBase: s.stream.TimeBase(), aspect: s.cc.SampleAspectRatio(), rate: rate,
	}
	g, err := newFilterGraph(desc, args)
	if err != nil {
		return err
	}
	s.graph = g
	s.unfiltered = astiav.AllocFrame()
	w, h, pf := g.output()
	if err := framesize.Check(w, h); err != nil {
		return fmt.Errorf("filter %q: output %w", desc, err)
	}
	depth, chroma, err := planarFor(pf)
	if err == nil && pf != pixelFormatOf(depth, chroma) && !convertible(pf) {
		err = fmt.Errorf("unsupported pixel format %s (swscale cannot convert it)", pf.Name())
	}
	if err != nil {
		return fmt.Errorf("filter %q: output: %w", desc, err)
	}
	s.info.Format = Format{Width: w, Height: h, BitDepth: depth, Chroma: chroma}
	s.info.PixelFormat = pf.Name()
	if r := g.rate; r.Num() > 0 && (r.Num() != rate.Num() || r.Den() != rate.Den()) {
		// The graph changes the rate (fps, field-rate deinterlacing):
		// the announced count scales with it.
		if s.info.FrameRate > 0 {
			s.info.Frames = int(float64(s.info.Frames)*r.Float64()/s.info.FrameRate + 0.5)
		}
		s.info.FrameRate, s.info.FrameRateQ = r.Float64(), r
	}
	for _, name := range g.filters() {
		if transferFilters[name] {
			s.info.HDR = ""
		}
	}
	return nil
}

// Filters names the filters of the input's filter graph (those FFmpeg
// inserted to convert formats included); nil without one.
func (s *Source) Filters() []string {
	if s.graph == nil {
		return nil
	}
	return s.graph.filters()
}

// receiveFiltered passes every frame the decoder has ready through the
// filter graph and delivers what comes out; at the decoder's end it
// flushes the graph. It returns io.EOF once both are drained.
func (s *Source) receiveFiltered() error {
	for {
		err := s.cc.ReceiveFrame(s.unfiltered)
		switch {
		case errors.Is(err, astiav.ErrEagain):
			return nil
		case errors.Is(err, astiav.ErrEof):
			if err := s.graph.push(nil); err != nil {
				return fmt.Errorf("%s: filter %q: at the end: %w", s.name, s.opts.Filter, err)
			}
			if err := s.pullFiltered(); err != nil {
				return err
			}
			return io.EOF
		case err != nil:
			return fmt.Errorf("%s: decoding frame %d: %w", s.name, s.decoded, err)
		}
		err = s.graph.push(s.unfiltered)
		s.unfiltered.Unref()
		if err != nil {
			return fmt.Errorf("%s: filter %q: at frame %d: %w", s.name, s.opts.Filter, s.decoded, err)
		}
		if err := s.pullFiltered(); err != nil {
			return err
		}
	}
}

// pullFiltered delivers the frames the graph has ready.
func (s *Source) pullFiltered() error {
	for {
		sl, err := s.freeSlot()
		if err != nil {
			return err
		}
		err = s.graph.pull(sl.in)
		if errors.Is(err, astiav.ErrEagain) || errors.Is(err, astiav.ErrEof) {
			s.spare = sl
			return nil
		}
		if err != nil {
			s.spare = sl
			return fmt.Errorf("%s: filter %q: at frame %d: %w", s.name, s.opts.Filter, s.decoded, err)
		}
		s.produced.Add(1)
		sl.pts, sl.dur = s.graph.timing(sl.in)
		if err := s.deliver(sl); err != nil {
			return err
		}
	}
}
