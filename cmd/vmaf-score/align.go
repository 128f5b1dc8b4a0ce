package main

import (
	"errors"
	"fmt"
	"io"
	"time"
)

// aligner forms frame pairs from the two inputs: the n-th frame of each
// (libvmaf's rule), or, by timestamp, frames whose presentation times lie
// within half a frame of each other, dropping a frame whose partner is
// missing.
type aligner struct {
	ref, dist         source
	refName, distName string
	byPTS             bool

	held    [2]*frame // pts mode: a frame read but not yet paired
	heldBuf [2]frame
	dropped [2]int // pts mode: frames without a partner
	read    [2]int // frames each input gave, skipped ones included

	// seekNotes say why an input could not seek to skip frames.
	seekNotes []string

	// Set once next has returned io.EOF or an error.
	ended [2]bool
}

const (
	sideRef  = 0
	sideDist = 1
)

// skip discards the first n frames of one side (--frame_skip_ref/dist).
func (a *aligner) skip(side, n int) error {
	src := a.src(side)
	if sk, ok := src.(frameSkipper); ok && n > 0 {
		err := a.skipBy(sk, side, n)
		var ri *readInstead
		if !errors.As(err, &ri) {
			return err
		}
	}
	for i := 0; i < n; i++ {
		f, err := src.next()
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("%q has only %d frames, cannot skip %d", a.name(side), i, n)
		}
		if err != nil {
			return err
		}
		a.read[side]++
		f.release()
	}
	return nil
}

// next returns the next pair, io.EOF once either input has ended, or the
// error that stopped an input.
func (a *aligner) next() (r, d frame, err error) {
	for {
		if r, err = a.take(sideRef); err != nil {
			return frame{}, frame{}, err
		}
		if d, err = a.take(sideDist); err != nil {
			a.hold(sideRef, r) // counted by finish as left over
			return frame{}, frame{}, err
		}
		if !a.byPTS {
			return r, d, nil
		}
		switch comparePTS(r, d) {
		case 0:
			return r, d, nil
		case -1: // the reference frame is older than any distorted one to come
			r.release()
			a.dropped[sideRef]++
			a.hold(sideDist, d)
		case 1:
			d.release()
			a.dropped[sideDist]++
			a.hold(sideRef, r)
		}
	}
}

func (a *aligner) take(side int) (frame, error) {
	if h := a.held[side]; h != nil {
		a.held[side] = nil
		return *h, nil
	}
	f, err := a.src(side).next()
	if err != nil {
		a.ended[side] = true
	} else {
		a.read[side]++
	}
	return f, err
}

func (a *aligner) hold(side int, f frame) {
	a.heldBuf[side] = f
	a.held[side] = &a.heldBuf[side]
}

// release gives back the frames read but not paired.
func (a *aligner) release() {
	a.dropHeld(sideRef)
	a.dropHeld(sideDist)
}

func (a *aligner) dropHeld(side int) {
	if h := a.held[side]; h != nil {
		h.release()
		a.held[side] = nil
	}
}

// comparePTS is 0 when two frames show the same instant (within half the
// shorter frame duration), -1 when r is earlier, 1 when d is. Frames
// without timestamps pair in order.
func comparePTS(r, d frame) int {
	if r.pts == noPTS || d.pts == noPTS {
		return 0
	}
	diff := r.pts - d.pts
	tol := time.Duration(0) // durations unknown: timestamps must be equal
	switch {
	case r.dur > 0 && d.dur > 0:
		tol = min(r.dur, d.dur) / 2
	case r.dur > 0:
		tol = r.dur / 2
	case d.dur > 0:
		tol = d.dur / 2
	}
	if diff == 0 || (diff > -tol && diff < tol) {
		return 0
	}
	if diff < 0 {
		return -1
	}
	return 1
}

// finish reads what is left of the longer input once the other has ended,
// and describes the imbalance (libvmaf's "x ended before y" with the
// count of frames left), or returns "" when both ended together.
func (a *aligner) finish() string {
	if a.ended[sideRef] == a.ended[sideDist] {
		return a.droppedNote()
	}
	short, long := sideRef, sideDist
	if a.ended[sideDist] {
		short, long = sideDist, sideRef
	}
	left := 0
	if a.held[long] != nil {
		a.dropHeld(long)
		left++
	}
	for {
		f, err := a.src(long).next()
		if err != nil {
			break
		}
		a.read[long]++
		f.release()
		left++
	}
	a.ended[long] = true
	if left == 0 {
		return a.droppedNote()
	}
	note := fmt.Sprintf("%q ended before %q (%d %s frame%s left)", a.name(short), a.name(long), left, sideWord(long), plural(left))
	if d := a.droppedNote(); d != "" {
		note += "; " + d
	}
	return note
}

func (a *aligner) droppedNote() string {
	if a.dropped == [2]int{} {
		return ""
	}
	return fmt.Sprintf("%d reference and %d distorted frame(s) had no partner by timestamp", a.dropped[sideRef], a.dropped[sideDist])
}

func (a *aligner) src(side int) source {
	if side == sideRef {
		return a.ref
	}
	return a.dist
}

func (a *aligner) name(side int) string {
	if side == sideRef {
		return a.refName
	}
	return a.distName
}

func sideWord(side int) string {
	if side == sideRef {
		return "reference"
	}
	return "distorted"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
