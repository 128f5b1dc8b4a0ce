package main

import (
	"errors"
	"fmt"
	"io"
)

// frameSkipper is a source that can move past frames without decoding
// them (a seekable .y4m or raw file).
type frameSkipper interface {
	skipFrames(n int) error
}

func (s *y4mSource) skipFrames(n int) error {
	// The buffers are all free between frames, so none holds a frame
	// being skipped; the running time follows the frame count.
	err := s.r.SkipFrames(n)
	if err == nil {
		s.index += n
	}
	return err
}

// skipBy skips n frames of side through its skipFrames.
func (a *aligner) skipBy(sk frameSkipper, side, n int) error {
	err := sk.skipFrames(n)
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("%q has fewer than %d frames, cannot skip %d", a.name(side), n, n)
	}
	if err == nil {
		a.read[side] += n // counted as read, as frames skipped by reading are
	}
	return err
}
