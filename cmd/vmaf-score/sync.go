package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// The offset between two inputs is found on signatures: each frame's
// luma averaged over a coarse grid, on an 8-bit scale, so that finding it
// costs one pass over the first frames' luma and is blind to coding
// noise, scaling and bit depth.
const sigCols, sigRows = 16, 9

type signature [sigCols * sigRows]float32

func sigDistance(a, b *signature) float64 {
	var d float64
	for i := range a {
		d += math.Abs(float64(a[i] - b[i]))
	}
	return d / float64(len(a))
}

// offsetFit is where the distorted input's frames best match the
// reference's: distorted frame j shows reference frame j+offset.
type offsetFit struct {
	offset   int
	cost     float64 // the mean signature distance at offset
	zeroCost float64 // the same with no offset
}

// skips are the --frame_skip_ref and --frame_skip_dist that apply it.
func (f offsetFit) skips() (ref, dist int) {
	if f.offset > 0 {
		return f.offset, 0
	}
	return 0, -f.offset
}

func (f offsetFit) String() string {
	switch {
	case f.offset > 0:
		return fmt.Sprintf("distorted frame 0 shows reference frame %d", f.offset)
	case f.offset < 0:
		return fmt.Sprintf("reference frame 0 shows distorted frame %d", -f.offset)
	}
	return "the inputs are aligned"
}

// clear says whether the fit is far better than no offset, enough to
// tell a user who did not ask.
func (f offsetFit) clear() bool {
	return f.offset != 0 && f.cost < 0.5*f.zeroCost && f.zeroCost-f.cost > 1
}

// minCompared is how many frame pairs an offset must be judged on.
const minCompared = 8

// bestOffset tries every offset within window frames either way, each
// on up to compare pairs, and picks the one whose frames differ least;
// an offset only a little better than none (within 5%) loses to none, so
// still pictures stay unshifted. ok is false when too few frames overlap.
func bestOffset(ref, dist []signature, window, compare int) (fit offsetFit, ok bool) {
	best := math.Inf(1)
	cost := func(k int) (float64, bool) {
		r, d := ref, dist
		if k > 0 {
			r = r[min(k, len(r)):]
		} else {
			d = d[min(-k, len(d)):]
		}
		n := min(len(r), len(d), compare)
		if n < min(minCompared, compare) {
			return 0, false
		}
		var sum float64
		for i := 0; i < n; i++ {
			sum += sigDistance(&r[i], &d[i])
		}
		return sum / float64(n), true
	}
	zero, ok := cost(0)
	if !ok {
		return offsetFit{}, false
	}
	fit = offsetFit{cost: zero, zeroCost: zero}
	best = zero
	for a := 1; a <= window; a++ {
		for _, k := range []int{a, -a} {
			if c, ok := cost(k); ok && c < best && c < zero*0.95 {
				best, fit.offset, fit.cost = c, k, c
			}
		}
	}
	return fit, true
}

// parseSync reads --sync's value: "auto" or "auto=WINDOW" (frames).
func parseSync(v string) (int, error) {
	if v == "auto" {
		return defaultSyncWindow, nil
	}
	if w, ok := strings.CutPrefix(v, "auto="); ok {
		n, err := strconv.Atoi(w)
		if err == nil && n >= 1 && n <= maxSyncWindow {
			return n, nil
		}
	}
	return 0, invalid(v, "--sync", fmt.Sprintf("auto or auto=FRAMES (1 to %d)", maxSyncWindow))
}

const (
	defaultSyncWindow = 24
	maxSyncWindow     = 600
)

// syncCompare is how many frame pairs each offset is judged on.
func syncCompare(window int) int { return max(window, 24) }

// findOffset opens both inputs once more, reads the first frames of
// each and finds the offset between them.
func (s *settings) findOffset(buffers int) (offsetFit, error) {
	n := s.sync + syncCompare(s.sync)
	var sigs [2][]signature
	for side, path := range []string{s.ref, s.dist} {
		src, err := s.openInput(path, side == sideDist, buffers)
		if err != nil {
			return offsetFit{}, fmt.Errorf("--sync: %w", err)
		}
		if s.fps.num > 0 {
			src = newFPSSource(src, path, s.fps, buffers)
		}
		sigs[side], err = readSignatures(src, n)
		src.close()
		if err != nil {
			return offsetFit{}, fmt.Errorf("--sync: %w", err)
		}
	}
	fit, ok := bestOffset(sigs[sideRef], sigs[sideDist], s.sync, syncCompare(s.sync))
	if !ok {
		return offsetFit{}, fmt.Errorf("--sync: the inputs share too few frames (%d and %d read) to find an offset", len(sigs[sideRef]), len(sigs[sideDist]))
	}
	return fit, nil
}

func readSignatures(src source, n int) ([]signature, error) {
	var out []signature
	for len(out) < n {
		f, err := src.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		out = append(out, signatureOf(f.pic))
		f.release()
	}
	return out, nil
}

// sigRecorder keeps the signatures of an input's first frames as the run
// reads them, for the hint that the inputs look offset.
type sigRecorder struct {
	source
	n    int
	sigs []signature
}

func (r *sigRecorder) next() (frame, error) {
	f, err := r.source.next()
	if err == nil && len(r.sigs) < r.n {
		r.sigs = append(r.sigs, signatureOf(f.pic))
	}
	return f, err
}

// watchOffset has the run record its first frames' signatures, unless
// --sync already aligned them, frames are skipped by hand, or the rates
// differ (which the run warns of instead).
func (j *job) watchOffset() {
	if j.s.sync > 0 || j.s.skipRef > 0 || j.s.skipDist > 0 || j.s.subsample > 1 || j.s.shard != nil {
		return
	}
	if rateWarning(rateOf(j.ref), rateOf(j.dist), "") != "" {
		return // frames of different rates drift apart: no one offset fits
	}
	n := defaultSyncWindow + syncCompare(defaultSyncWindow)
	j.sigs[sideRef] = &sigRecorder{source: j.ref, n: n}
	j.sigs[sideDist] = &sigRecorder{source: j.dist, n: n}
	j.ref, j.dist = j.sigs[sideRef], j.sigs[sideDist]
}

// offsetHint warns when the frames scored match far better at an offset.
func (j *job) offsetHint() {
	if j.sigs[sideRef] == nil {
		return
	}
	fit, ok := bestOffset(j.sigs[sideRef].sigs, j.sigs[sideDist].sigs, defaultSyncWindow, syncCompare(defaultSyncWindow))
	if !ok || !fit.clear() {
		return
	}
	r, d := fit.skips()
	flag := fmt.Sprintf("--frame_skip_ref %d", r)
	if d > 0 {
		flag = fmt.Sprintf("--frame_skip_dist %d", d)
	}
	j.warn(fmt.Sprintf("the inputs look offset: %s (their luma differs %.1f there, %.1f as paired); score with --sync auto or %s",
		fit, fit.cost, fit.zeroCost, flag))
}

// applySync finds the offset --sync asks for and skips the frames that
// apply it; what it found goes to stderr and the results.
func (s *settings) applySync(buffers int) (string, error) {
	if s.sync == 0 {
		return "", nil
	}
	fit, err := s.findOffset(buffers)
	if err != nil {
		return "", err
	}
	s.skipRef, s.skipDist = fit.skips()
	note := fmt.Sprintf("--sync auto=%d: %s (luma difference %.2f there, %.2f unshifted)", s.sync, fit, fit.cost, fit.zeroCost)
	switch {
	case s.skipRef > 0:
		note += fmt.Sprintf("; the first %d reference frames are skipped", s.skipRef)
	case s.skipDist > 0:
		note += fmt.Sprintf("; the first %d distorted frames are skipped", s.skipDist)
	}
	return note, nil
}
