package pipeline

import (
	"errors"
	"fmt"
	"sync"

	"github.com/vmafsink/vmafsink/vmaf"
)

// errSaturated reports, in drop mode, a pair the scorer had no room for.
var errSaturated = errors.New("pipeline: scorer saturated")

// scoring is one vmaf.Context's run: a stream of one format. It remembers
// each submitted pair in a slot until the pair's result comes back, so
// results can be published with the Runner's index and timing.
type scoring struct {
	sc     scorer
	format vmaf.Picture // geometry and sample format only
	// slots is a ring indexed by Context index. It grows (under mu, on
	// the pusher's goroutine) only for an engine that reports every
	// result at the end (atEnd): no slot frees before then.
	slots []*slot
	atEnd bool
	// dropAt is how far submissions may run ahead of results before, in
	// drop mode, Submit could block: the native engine's jobs, of which
	// one stays with each result until its successor's motion is known,
	// and the subsampled pairs between two results, which have none.
	dropAt int

	submitted int // Context indices handed out; only the Runner's pusher touches it
	// lastScored are the Context indices of the last two pairs submitted
	// for a result (not skipped nor subsampled away), latest first, -1
	// for none; only the Runner's pusher touches them.
	lastScored [2]int
	// holdScored keeps a scored pair's frames from the engine's release
	// to its result, for the worst-frame store (see worst.go).
	holdScored bool
	subsample  int
	aborted    func(Side) bool
	keep       func(*Frame) // makes a frame safe to hold for a while

	// A frame's motion compares its reference with its predecessor's, and
	// its successor's SAD bounds its motion2: a pair that could not reach
	// the engine (dropped under back-pressure) still has to, for the
	// scored frames around it to score as in the full stream. Of a run of
	// such pairs only two matter: the first (the successor of a scored
	// frame) and the last (the predecessor of the next one). Their
	// reference frames wait here, pusher-owned, until the engine has room.
	gapFirst, gapLast Frame
	fed               bool // the previous pair reached the engine

	mu        sync.Mutex
	cond      sync.Cond // broadcast when completed moves or on abort
	completed int       // Context indices below this are finished
}

type slot struct {
	index   int // the Runner's pair index
	ctx     int // the Context's index
	timing  Timing
	frames  [2]Frame
	release func() // made once per slot, so submitting does not allocate
	// skip marks a pair given to the engine for motion only: it has no
	// result, so its slot is finished once the engine has released it.
	skip, released bool
	// hold marks a scored pair whose frames its result releases; kept,
	// that the engine is done with them. Both under scoring.mu.
	hold, kept bool
}

func newScoring(r *Runner, format *vmaf.Picture) (*scoring, error) {
	cfg := r.cfg.Scorer
	cfg.Models = r.models
	s := &scoring{
		format:  *format,
		slots:   make([]*slot, cfg.Threads+cfg.Subsample+8),
		dropAt:  cfg.Threads + 1 + cfg.Subsample,
		aborted: r.aborted,
		keep:    r.keep,

		holdScored: r.cfg.WorstFrames > 0,
		subsample:  cfg.Subsample,
		lastScored: [2]int{-1, -1},
	}
	s.format.Planes = [3][]byte{}
	s.cond.L = &s.mu
	for i := range s.slots {
		s.slots[i] = s.newSlot()
	}
	cfg.OnResult = func(res *vmaf.Result) { r.deliver(s, res) }
	sc, err := r.cfg.newScorer(cfg)
	if err != nil {
		return nil, fmt.Errorf("pipeline: start scorer: %w", err)
	}
	s.sc = sc
	// An engine that copies the pictures at submission and reports at
	// the end would have them all held until then: it gets no images,
	// and a slot for every pair until the end.
	if x, ok := sc.(interface{ ResultsAsScored() bool }); ok && !x.ResultsAsScored() {
		s.holdScored = false
		s.atEnd = true
	}
	return s, nil
}

func (s *scoring) newSlot() *slot {
	sl := &slot{}
	sl.release = func() {
		if s.holdScored && s.keepForResult(sl) {
			return
		}
		sl.frames[Ref].release()
		sl.frames[Dist].release()
		if sl.skip {
			s.mu.Lock()
			sl.released = true
			s.sweep()
			s.mu.Unlock()
		}
	}
	return sl
}

// grow doubles the ring, keeping each slot still in use (and the last
// finished one, which heldSkip reads) at its index in the larger ring.
// Called with mu held.
func (s *scoring) grow() {
	next := make([]*slot, 2*len(s.slots))
	for ci := max(s.completed-1, 0); ci < s.submitted; ci++ {
		next[ci%len(next)] = s.slots[ci%len(s.slots)]
	}
	for i := range next {
		if next[i] == nil {
			next[i] = s.newSlot()
		}
	}
	s.slots = next
}

// slotAt returns the slot of Context index ci.
func (s *scoring) slotAt(ci int) *slot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.slots[ci%len(s.slots)]
}

// submit hands a pair to the scorer (for motion only when skip), in block
// mode waiting for room and in drop mode returning errSaturated when there
// is none. Pairs dropped before it reach the engine first. On any error
// the pair has been released or kept for the gap.
func (s *scoring) submit(pair *[2]Frame, index int, t Timing, bp Backpressure, side Side, skip bool) error {
	for _, g := range [2]*Frame{&s.gapFirst, &s.gapLast} {
		if g.Picture == nil {
			continue
		}
		if err := s.room(bp, side); err != nil {
			s.drop(pair, err)
			return err
		}
		gp := [2]Frame{*g}
		*g = Frame{}
		if err := s.put(&gp, -1, Untimed, true); err != nil {
			releasePair(pair)
			return err
		}
	}
	if err := s.room(bp, side); err != nil {
		s.drop(pair, err)
		return err
	}
	if err := s.put(pair, index, t, skip); err != nil {
		return err
	}
	s.fed = true
	return nil
}

// room waits, in block mode, until a slot is free; in drop mode it
// returns errSaturated when the engine could make the pusher wait.
func (s *scoring) room(bp Backpressure, side Side) error {
	ci := s.submitted
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.atEnd && ci-s.completed >= len(s.slots) {
		s.grow()
	}
	for ci-s.completed >= len(s.slots) || (bp == Drop && ci-s.completed+s.heldSkip() >= s.dropAt) {
		switch {
		case bp == Drop:
			return errSaturated
		case s.aborted(side):
			return errAborted
		}
		s.cond.Wait()
	}
	return nil
}

// heldSkip is 1 when the engine may still hold a job that no slot
// counts: a motion-only pair's slot is finished when the engine releases
// its pictures, but its job waits for its successor's motion. Called with
// mu held.
func (s *scoring) heldSkip() int {
	if s.completed == 0 {
		return 0
	}
	sl := s.slots[(s.completed-1)%len(s.slots)]
	if sl.ctx == s.completed-1 && sl.skip {
		return 1
	}
	return 0
}

// drop releases a pair that cannot reach the engine now. When saturated,
// its reference frame is kept if the frames around it need it (see
// gapFirst); the distorted frame is never needed again.
func (s *scoring) drop(pair *[2]Frame, why error) {
	pair[Dist].release()
	if !errors.Is(why, errSaturated) {
		pair[Ref].release()
		return
	}
	g := &s.gapLast
	if s.fed {
		g = &s.gapFirst
	}
	g.release()
	*g = pair[Ref]
	pair[Ref] = Frame{}
	s.keep(g)
	s.fed = false
}

// put submits a pair to a free slot. With index -1 the pair is a kept
// reference frame, standing in for itself as the distorted one, which a
// motion-only submission does not read.
func (s *scoring) put(pair *[2]Frame, index int, t Timing, skip bool) error {
	ci := s.submitted
	s.mu.Lock()
	sl := s.slots[ci%len(s.slots)]
	stale := s.untake(sl)
	sl.index, sl.ctx, sl.timing, sl.frames = index, ci, t, *pair
	sl.skip, sl.released = skip, false
	sl.hold = s.holdScored && !skip && index >= 0 && ci%s.subsample == 0
	s.mu.Unlock()
	releasePair(&stale)
	*pair = [2]Frame{}
	ref, dist := sl.frames[Ref].Picture, sl.frames[Dist].Picture
	var err error
	if skip {
		if dist == nil {
			dist = ref
		}
		err = s.sc.Skip(ref, dist, sl.release)
	} else {
		err = s.sc.Submit(ref, dist, sl.release)
	}
	if err != nil {
		// Not queued: the engine will not release it, nor may the slot
		// be swept.
		s.mu.Lock()
		sl.skip, sl.hold = false, false
		s.mu.Unlock()
		sl.release()
		return fmt.Errorf("pipeline: score frame %d: %w", index, err)
	}
	if !skip && index >= 0 && ci%max(s.subsample, 1) == 0 {
		s.lastScored = [2]int{ci, s.lastScored[0]}
	}
	s.submitted++
	return nil
}

// slotOf returns the slot of a delivered result, and false when the slot
// no longer belongs to it (which the slot count rules out).
func (s *scoring) slotOf(res *vmaf.Result) (*slot, bool) {
	sl := s.slotAt(res.Index)
	return sl, sl.ctx == res.Index
}

// completeThrough marks every Context index up to ci finished, which
// frees their slots; the caller must be done reading ci's slot.
func (s *scoring) completeThrough(ci int) {
	s.mu.Lock()
	s.completed = max(s.completed, ci+1)
	s.sweep()
	s.mu.Unlock()
}

// sweep moves completed past the motion-only slots the engine is done
// with; called with mu held.
func (s *scoring) sweep() {
	for {
		sl := s.slots[s.completed%len(s.slots)]
		if sl.ctx != s.completed || !sl.skip || !sl.released {
			break
		}
		s.completed++
	}
	s.cond.Broadcast()
}

// finish scores what is in flight and ends the Context. The first of
// the dropped pairs still waiting reaches the engine, for the motion2 of
// the frame before it; the last one has no successor to serve.
func (s *scoring) finish() error {
	s.gapLast.release()
	if s.gapFirst.Picture != nil {
		gp := [2]Frame{s.gapFirst}
		s.gapFirst = Frame{}
		if err := s.room(Block, Ref); err != nil {
			releasePair(&gp)
		} else {
			// On failure the engine's error comes back from Flush.
			_ = s.put(&gp, -1, Untimed, true)
		}
	}
	err := s.sc.Flush()
	s.done()
	return err
}

// abandon ends the Context without scoring what is in flight.
func (s *scoring) abandon() {
	s.gapFirst.release()
	s.gapLast.release()
	s.sc.Close()
	s.done()
}

func (s *scoring) done() {
	var held [][2]Frame
	s.mu.Lock()
	s.completed = s.submitted
	// The engine has no more results: frames kept for one are let go,
	// and those it still holds it releases itself.
	for i := range s.slots {
		if f := s.untake(s.slots[i]); f[Ref].Picture != nil || f[Dist].Picture != nil {
			held = append(held, f)
		}
	}
	s.cond.Broadcast()
	s.mu.Unlock()
	for i := range held {
		releasePair(&held[i])
	}
}

// wake makes a waiting submit re-check its abort condition.
func (s *scoring) wake() {
	s.mu.Lock()
	s.cond.Broadcast()
	s.mu.Unlock()
}

func describe(p *vmaf.Picture) string {
	return fmt.Sprintf("%dx%d %s %d-bit", p.Width, p.Height, p.Chroma, p.BitDepth)
}

func sameFormat(a, b *vmaf.Picture) bool {
	return a.Width == b.Width && a.Height == b.Height && a.BitDepth == b.BitDepth && a.Chroma == b.Chroma
}

// keepForResult, called by the engine's release of sl, keeps a scored
// pair's frames for its result and reports whether it did. A frame from a
// bounded upstream pool is copied first (keep), as any frame the scorer
// holds across pushes is: its result waits for the next frame, which the
// pool may not have a buffer for while this one is held.
func (s *scoring) keepForResult(sl *slot) bool {
	s.mu.Lock()
	hold := sl.hold
	s.mu.Unlock()
	if !hold {
		return false
	}
	// Until kept is set, no one but the engine's release touches the
	// frames: take leaves a slot alone that has not been kept.
	s.keep(&sl.frames[Ref])
	s.keep(&sl.frames[Dist])
	s.mu.Lock()
	defer s.mu.Unlock()
	if !sl.hold {
		return false // the result came first and gave up on them
	}
	sl.kept = true
	return true
}

// take hands a delivered pair's kept frames to the caller, who releases
// them; when the engine still holds them (no frame kept), it will release
// them itself.
func (s *scoring) take(sl *slot) [2]Frame {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.untake(sl)
}

// untake ends sl's hold and returns the frames kept for it, if any.
// Called with mu held.
func (s *scoring) untake(sl *slot) [2]Frame {
	var f [2]Frame
	if sl.hold && sl.kept {
		f, sl.frames = sl.frames, [2]Frame{}
	}
	sl.hold, sl.kept = false, false
	return f
}
