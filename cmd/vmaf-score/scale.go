package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vmafsink/vmafsink/internal/framesize"
)

// --scale brings both inputs to one viewing resolution before scoring, as
// a viewer's display would: VMAF's models are trained for pictures seen
// at 1080p (vmaf_v0.6.1) or 2160p (vmaf_4k_v0.6.1), and a 576p encode
// scored at its own size is scored as if shown at that size.

// scaleFilter is the swscale algorithm --scale uses for both inputs (as
// FFmpeg's scale=W:H:flags=bicubic does), unless --scale-dist names one.
const scaleFilter = "bicubic"

// Viewing resolutions --scale auto picks between, and the sizes below
// which it scales up to them (90% of each side, as ab-av1 does).
var (
	viewHD = viewing{1920, 1080, "version=vmaf_v0.6.1"}
	view4K = viewing{3840, 2160, "version=vmaf_4k_v0.6.1"}
)

type viewing struct {
	w, h  int
	model string // the model trained for it
}

// parseScale reads --scale: "auto" or WxH (even sides).
func parseScale(v string, s *settings) error {
	if v == "auto" {
		s.scale = v
		return nil
	}
	ws, hs, ok := strings.Cut(strings.ToLower(v), "x")
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if !ok || err1 != nil || err2 != nil || w < 2 || h < 2 || w%2 != 0 || h%2 != 0 {
		return invalid(v, "--scale", "auto or WIDTHxHEIGHT with even sides, e.g. 1920x1080")
	}
	if err := framesize.Check(w, h); err != nil {
		return invalid(v, "--scale", err.Error())
	}
	s.scale, s.scaleW, s.scaleH = v, w, h
	return nil
}

// autoViewing picks the viewing resolution for a reference of w×h: 4K
// for pictures larger than 1440p, 1080p otherwise.
func autoViewing(w, h int) viewing {
	if w > 2560 || h > 1440 {
		return view4K
	}
	return viewHD
}

// fitWithin is w×h scaled to fit within bw×bh with its aspect ratio kept,
// sides rounded to even numbers.
func fitWithin(w, h, bw, bh int) (int, int) {
	if w*bh >= h*bw { // as wide or wider than the box: width fills it
		return bw, max(2, (h*bw/w+1)&^1)
	}
	return max(2, (w*bh/h+1)&^1), bh
}

// resolveScale settles --scale auto from the reference's size: the
// viewing resolution and, when no -m was given, its model. Pictures
// already at least 90% of it on a side keep their size (the distorted
// input is brought to the reference's). It says what it chose on stderr.
func (s *settings) resolveScale(refW, refH int, note func(string)) {
	if s.scale != "auto" {
		return
	}
	v := autoViewing(refW, refH)
	if len(s.models) == 0 {
		s.models = []string{v.model}
	}
	if refW < v.w*9/10 && refH < v.h*9/10 {
		s.scaleW, s.scaleH = fitWithin(refW, refH, v.w, v.h)
	} else {
		s.scaleW, s.scaleH = refW, refH
	}
	note(fmt.Sprintf("--scale auto: %dx%d scored at %dx%d (%s scaling) with %s", refW, refH, s.scaleW, s.scaleH, s.scaleAlgorithm(), strings.TrimPrefix(s.models[0], "version=")))
}

// scaleAlgorithm is the swscale algorithm --scale uses.
func (s *settings) scaleAlgorithm() string {
	if s.scaleDist != "" {
		return s.scaleDist
	}
	return scaleFilter
}

// scaleBoth converts both inputs to the --scale size, in the reference's
// format otherwise.
func scaleBoth(s *settings, ref, dist source) error {
	rf := ref.format()
	rf.Width, rf.Height = s.scaleW, s.scaleH
	for i, src := range []source{ref, dist} {
		cv, ok := src.(converter)
		if !ok {
			return fmt.Errorf("--scale: the %s is not read through FFmpeg", sideWord(i))
		}
		if err := cv.convertTo(rf, s.scaleAlgorithm()); err != nil {
			return fmt.Errorf("--scale: %w", err)
		}
	}
	return nil
}

// probeReference opens the reference only to learn its size, for --scale
// auto, which decides the models before the run.
func (s *settings) probeReference() (int, int, error) {
	src, err := s.openInput(s.ref, false, 1)
	if err != nil {
		return 0, 0, fmt.Errorf("reference %w", err)
	}
	defer src.close()
	f := src.format()
	return f.Width, f.Height, nil
}
