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
	slots  []slot
	// dropAt is how far submissions may run ahead of results before, in
	// drop mode, Submit could block: the engine's jobs in flight.
	dropAt int

	submitted int // Context indices handed out; only the Runner's pusher touches it
	aborted   func(Side) bool

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
}

func newScoring(r *Runner, format *vmaf.Picture) (*scoring, error) {
	cfg := r.cfg.Scorer
	cfg.Models = r.models
	s := &scoring{
		format:  *format,
		slots:   make([]slot, cfg.Threads+cfg.Subsample+8),
		dropAt:  cfg.Threads + 2 + cfg.Subsample,
		aborted: r.aborted,
	}
	s.format.Planes = [3][]byte{}
	s.cond.L = &s.mu
	for i := range s.slots {
		sl := &s.slots[i]
		sl.release = func() {
			sl.frames[Ref].release()
			sl.frames[Dist].release()
		}
	}
	cfg.OnResult = func(res *vmaf.Result) { r.deliver(s, res) }
	sc, err := r.cfg.newScorer(cfg)
	if err != nil {
		return nil, fmt.Errorf("pipeline: start scorer: %w", err)
	}
	s.sc = sc
	return s, nil
}

// submit hands a pair to the scorer, in block mode waiting for room and
// in drop mode returning errSaturated when there is none. On any error
// the pair has been released.
func (s *scoring) submit(pair *[2]Frame, index int, t Timing, bp Backpressure, side Side) error {
	ci := s.submitted
	s.mu.Lock()
	for ci-s.completed >= len(s.slots) || (bp == Drop && ci-s.completed >= s.dropAt) {
		var err error
		switch {
		case bp == Drop:
			err = errSaturated
		case s.aborted(side):
			err = errAborted
		}
		if err != nil {
			s.mu.Unlock()
			pair[Ref].release()
			pair[Dist].release()
			return err
		}
		s.cond.Wait()
	}
	s.mu.Unlock()
	sl := &s.slots[ci%len(s.slots)]
	sl.index, sl.ctx, sl.timing, sl.frames = index, ci, t, *pair
	*pair = [2]Frame{}
	if err := s.sc.Submit(sl.frames[Ref].Picture, sl.frames[Dist].Picture, sl.release); err != nil {
		sl.release()
		return fmt.Errorf("pipeline: score frame %d: %w", index, err)
	}
	s.submitted++
	return nil
}

// slotOf returns the slot of a delivered result, and false when the slot
// no longer belongs to it (which the slot count rules out).
func (s *scoring) slotOf(res *vmaf.Result) (*slot, bool) {
	sl := &s.slots[res.Index%len(s.slots)]
	return sl, sl.ctx == res.Index
}

// completeThrough marks every Context index up to ci finished, which
// frees their slots; the caller must be done reading ci's slot.
func (s *scoring) completeThrough(ci int) {
	s.mu.Lock()
	s.completed = ci + 1
	s.cond.Broadcast()
	s.mu.Unlock()
}

// finish scores what is in flight and ends the Context.
func (s *scoring) finish() error {
	err := s.sc.Flush()
	s.done()
	return err
}

// abandon ends the Context without scoring what is in flight.
func (s *scoring) abandon() {
	s.sc.Close()
	s.done()
}

func (s *scoring) done() {
	s.mu.Lock()
	s.completed = s.submitted
	s.cond.Broadcast()
	s.mu.Unlock()
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
