package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/vmafsink/vmafsink/internal/y4m"
	"github.com/vmafsink/vmafsink/vmaf"
)

// picFormat is the geometry and sample format of an input's pictures.
type picFormat struct {
	Width, Height int
	BitDepth      int
	Chroma        vmaf.Chroma
}

func (f picFormat) String() string {
	return fmt.Sprintf("%dx%d %s %d-bit", f.Width, f.Height, f.Chroma, f.BitDepth)
}

// noPTS marks a frame whose input gives no timestamps.
const noPTS = time.Duration(math.MinInt64)

// frame is one picture from an input, with the function that gives its
// memory back once the engine is done with it.
type frame struct {
	pic      *vmaf.Picture
	pts, dur time.Duration // noPTS and 0 when unknown
	release  func()
}

// source delivers an input's pictures in order.
type source interface {
	// next returns the next frame, io.EOF after the last one.
	next() (frame, error)
	format() picFormat
	// total is the number of frames the input announces; 0 when unknown.
	total() int
	close()
}

// inputKind says how an input is read.
type inputKind int

const (
	readY4M    inputKind = iota // YUV4MPEG2, read natively
	readRaw                     // headerless planar YUV, read natively
	readFFmpeg                  // anything FFmpeg opens
)

// kindOf picks the reader for path: libvmaf's rules for .y4m and raw
// input (any of -w/-h/-p/-b makes both inputs raw), FFmpeg for the rest.
func (s *settings) kindOf(path string, isDist bool) inputKind {
	ext := strings.ToLower(filepath.Ext(path))
	switch {
	case s.useFFmpeg, isDist && s.scaleDist != "", s.scale != "", s.filterFor(isDist) != "":
		return readFFmpeg
	case s.raw:
		return readRaw
	case ext == ".y4m":
		return readY4M
	}
	return readFFmpeg
}

// openInput opens one input; buffers is how many of its frames may be out
// at once (decoded ahead or held by the engine).
func (s *settings) openInput(path string, isDist bool, buffers int) (source, error) {
	switch s.kindOf(path, isDist) {
	case readY4M:
		f, err := openFile(path)
		if err != nil {
			return nil, err
		}
		r, err := y4m.NewReader(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return newY4MSource(path, f, r, buffers, len("FRAME\n"))
	case readRaw:
		f, err := openFile(path)
		if err != nil {
			return nil, err
		}
		rf := y4m.Format{Width: s.width, Height: s.height, BitDepth: s.bitDepth, Chroma: s.pixFmt}
		layout := rawLayout(f, rf)
		if err := checkRawSize(path, f, rf, layout); err != nil {
			f.Close()
			return nil, err
		}
		r, err := y4m.NewRawReaderLayout(f, rf, layout)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		src, err := newY4MSource(path, f, r, buffers, 0)
		if err == nil {
			src.geometry = rawSwapWarning(path, f, rf)
		}
		return src, err
	}
	return s.openFFmpeg(path, isDist, buffers)
}

// rawLayout picks how a raw file stores the chroma planes of an odd-sized
// picture. libvmaf's tool reads them rounded down (W>>1 samples a row), so
// that is the rule; a regular file whose size fits whole frames only with
// the planes rounded up, as FFmpeg writes them, is read that way instead.
func rawLayout(f *os.File, rf y4m.Format) y4m.Layout {
	padded := int64(rf.StoredFrameSize(y4m.Padded))
	truncated := int64(rf.StoredFrameSize(y4m.Truncated))
	if padded == truncated {
		return y4m.Padded
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return y4m.Truncated
	}
	if n := st.Size(); n > 0 && n%padded == 0 && n%truncated != 0 {
		return y4m.Padded
	}
	return y4m.Truncated
}

func openFile(path string) (*os.File, error) {
	if path == "-" {
		return os.Stdin, nil
	}
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: cannot open: %w", path, err)
	}
	return f, nil
}

// y4mSource reads a y4m or raw file into a fixed set of buffers, which
// come back through their release functions, so that reading allocates
// nothing per frame.
type y4mSource struct {
	name   string
	file   *os.File
	r      *y4m.Reader
	fmt    picFormat
	frames int
	dur    time.Duration
	rate   frameRate // the header's; zero for raw input
	// geometry says the raw input's pictures look like another geometry
	// than the one given ("" when they do not).
	geometry string
	free     chan *y4mBuffer
	index    int
}

func (s *y4mSource) geometryWarning() string { return s.geometry }

type y4mBuffer struct {
	fr      *y4m.Frame
	pic     vmaf.Picture
	release func()
}

// newY4MSource reads from r; perFrame is the bytes each frame takes
// besides its samples, for estimating the frame count from the file size.
func newY4MSource(name string, file *os.File, r *y4m.Reader, buffers, perFrame int) (*y4mSource, error) {
	f := r.Format()
	chroma, err := vmaf.ParseChroma(f.Chroma)
	if err != nil {
		file.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	s := &y4mSource{
		name: name, file: file, r: r,
		fmt:  picFormat{Width: f.Width, Height: f.Height, BitDepth: f.BitDepth, Chroma: chroma},
		free: make(chan *y4mBuffer, buffers),
	}
	if f.FrameRateNum > 0 && f.FrameRateDen > 0 {
		s.dur = time.Duration(int64(time.Second) * int64(f.FrameRateDen) / int64(f.FrameRateNum))
		s.rate = frameRate{int64(f.FrameRateNum), int64(f.FrameRateDen)}
	}
	if st, err := file.Stat(); err == nil && st.Mode().IsRegular() {
		// Frame parameters after a y4m FRAME marker are rare enough to
		// leave out of an estimate.
		s.frames = int(st.Size() / int64(r.FrameBytes()+perFrame))
	}
	for i := 0; i < buffers; i++ {
		b := &y4mBuffer{fr: y4m.NewFrame(f)}
		b.pic = vmaf.Picture{Width: f.Width, Height: f.Height, BitDepth: f.BitDepth, Chroma: chroma,
			Planes: b.fr.Planes, Strides: b.fr.Strides}
		b.release = func() { s.free <- b }
		s.free <- b
	}
	return s, nil
}

func (s *y4mSource) next() (frame, error) {
	b := <-s.free
	if err := s.r.ReadFrame(b.fr); err != nil {
		s.free <- b
		if errors.Is(err, io.EOF) {
			return frame{}, io.EOF
		}
		return frame{}, fmt.Errorf("%s: %w", s.name, err)
	}
	if err := sampleRange(b.fr, s.fmt.BitDepth, s.index, s.name); err != nil {
		s.free <- b
		return frame{}, err
	}
	pts := noPTS
	if s.dur > 0 {
		// From the exact rate, so that timestamps do not drift.
		pts = s.rate.timeOf(int64(s.index))
	}
	s.index++
	return frame{pic: &b.pic, pts: pts, dur: s.dur, release: b.release}, nil
}

func (s *y4mSource) format() picFormat { return s.fmt }
func (s *y4mSource) total() int        { return s.frames }
func (s *y4mSource) frameRate() float64 {
	if s.rate.num == 0 {
		return 0
	}
	return s.rate.float()
}
func (s *y4mSource) close() {
	if s.file != os.Stdin {
		s.file.Close()
	}
}
