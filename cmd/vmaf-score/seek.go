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

// readInstead is a frameSkipper's answer when the frames must be read
// and dropped after all; why, when set, says why seeking was not possible.
type readInstead struct{ why string }

func (e *readInstead) Error() string { return "cannot seek: " + e.why }

// decodeCounter is a source that decodes, and counts the frames it
// decoded (those dropped before the frames wanted included).
type decodeCounter interface {
	framesDecoded() int
}

// skipBy skips n frames of side through its skipFrames; it returns a
// *readInstead when they must be read instead.
func (a *aligner) skipBy(sk frameSkipper, side, n int) error {
	err := sk.skipFrames(n)
	var ri *readInstead
	if errors.As(err, &ri) {
		if ri.why != "" {
			a.seekNotes = append(a.seekNotes, fmt.Sprintf("%q: %s; decoding from the start to skip %d frames", a.name(side), ri.why, n))
		}
		return err
	}
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("%q has fewer than %d frames, cannot skip %d", a.name(side), n, n)
	}
	if err == nil {
		a.read[side] += n // counted as read, as frames skipped by reading are
	}
	return err
}
