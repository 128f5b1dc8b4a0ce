//go:build !lazyffmpeg

package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/asticode/go-astiav"

	"github.com/vmafsink/vmafsink/internal/ffsource"
)

// This build links FFmpeg and decodes any input itself. Built with the
// lazyffmpeg tag, vmaf-score links no FFmpeg and hands such runs to this
// build installed as vmaf-score-ffmpeg (ffmpeg_handoff.go).

// handOff is where the lazyffmpeg build passes a run on; this one keeps
// it, with FFmpeg's own log lines silenced: its errors reach us as values.
func (s *settings) handOff() error {
	astiav.SetLogLevel(astiav.LogLevelQuiet)
	return nil
}

func checkScaleAlgorithm(v string) error {
	if _, err := ffsource.ParseScaleAlgorithm(v); err != nil {
		return invalid(v, "--scale-dist", "one of "+strings.Join(ffsource.ScaleAlgorithms(), ", "))
	}
	return nil
}

func (s *settings) openFFmpeg(path string, isDist bool, buffers int) (source, error) {
	// FFmpeg decodes on its own goroutine; two more frames let it run
	// ahead of the engine.
	var geometry string
	if s.raw {
		var err error
		if geometry, err = s.checkRawForFFmpeg(path, s.filterFor(isDist) != ""); err != nil {
			return nil, err
		}
	}
	src, err := ffsource.Open(path, s.ffmpegOptions(isDist, buffers+2))
	if err != nil {
		return nil, filterError(isDist, err)
	}
	return ffInput{src, geometry}, nil
}

// ffmpegOptions are how FFmpeg opens an input.
func (s *settings) ffmpegOptions(isDist bool, buffers int) ffsource.Options {
	opts := ffsource.Options{Buffers: buffers, VideoStream: s.streams[0], Demuxers: s.demuxers, Protocols: s.protocols}
	if isDist {
		opts.VideoStream = s.streams[1]
	}
	opts.Filter = s.filterFor(isDist)
	if s.raw {
		opts.InputFormat, opts.Width, opts.Height = "rawvideo", s.width, s.height
		opts.PixelFormat = rawPixelFormat(s.pixFmt, s.bitDepth)
	}
	return opts
}

// rawPixelFormat is FFmpeg's name for libvmaf's -p/-b pair.
func rawPixelFormat(chroma string, depth int) string {
	if depth > 8 {
		return fmt.Sprintf("yuv%sp%dle", chroma, depth)
	}
	return "yuv" + chroma + "p"
}

// ffInput adapts an FFmpeg source; geometry is a raw input's
// rawSwapWarning.
type ffInput struct {
	src      *ffsource.Source
	geometry string
}

func (f ffInput) geometryWarning() string { return f.geometry }

func (f ffInput) next() (frame, error) {
	fr, err := f.src.Next()
	if err != nil {
		return frame{}, err
	}
	pts := fr.PTS
	if pts == ffsource.NoPTS {
		pts = noPTS
	}
	return frame{pic: fr.Picture, pts: pts, dur: fr.Duration, release: fr.ReleaseFunc()}, nil
}

// skipFrames seeks past n frames (see ffsource.Source.SkipFrames).
func (f ffInput) skipFrames(n int) error {
	err := f.src.SkipFrames(n)
	var ns *ffsource.NotSought
	if errors.As(err, &ns) {
		return &readInstead{why: ns.Reason}
	}
	return err
}

func (f ffInput) framesDecoded() int { return f.src.FramesDecoded() }

func (f ffInput) format() picFormat    { return picFormat(f.src.Info().Format) }
func (f ffInput) total() int           { return f.src.Info().Frames }
func (f ffInput) frameRate() float64   { return f.src.Info().FrameRate }
func (f ffInput) dynamicRange() string { return f.src.Info().HDR }
func (f ffInput) close()               { f.src.Close() }

// convertTo has FFmpeg convert (and with scale, resize) the input's
// pictures to format f.
func (f ffInput) convertTo(pf picFormat, scale string) error {
	return f.src.Conform(ffsource.Format(pf), scale)
}

// filterError says which option's filter an error came from, when it
// came from one.
func filterError(isDist bool, err error) error {
	var fe *ffsource.FilterError
	if !errors.As(err, &fe) {
		return err
	}
	opt := "--ref-filter"
	if isDist {
		opt = "--dist-filter"
	}
	return fmt.Errorf("%w (%s)", err, opt)
}

// checkFilterSyntax reads a filter graph as FFmpeg's parser would, to
// refuse a malformed one among the options.
func checkFilterSyntax(v string) error {
	_, err := ffsource.FilterNames(v)
	return err
}
