package pipeline

import (
	"errors"
	"fmt"
	"time"

	"github.com/vmafsink/vmafsink/vmaf"
)

// The commands a control plane sends a Runner (swap, pause, resume), each
// queued and applied at the next frame boundary.

// RequestSwap queues a switch to model m, which must be ready (loaded and
// validated). It takes effect at the next frame boundary: while paused in
// skip mode, when the next frame arrives; in block mode, at once. The
// Ticket's FirstIndex then tells the first pair scored by m; see Ticket.Done
// for a swap that takes effect while paused or is superseded.
func (r *Runner) RequestSwap(m *vmaf.Model) (*Ticket, error) {
	if m == nil {
		return nil, errors.New("pipeline: swap to a nil model")
	}
	if r.cfg.NoReference && !m.NoReference() {
		return nil, fmt.Errorf("pipeline: model %s needs a reference, but this run scores the distorted stream alone (no-reference): swap to a no-reference model", m.Name)
	}
	return r.enqueue(SwapModel, m)
}

// Pause queues a pause; pausing a paused Runner does nothing.
func (r *Runner) Pause() (*Ticket, error) { return r.enqueue(Pause, nil) }

// Resume queues a resume; resuming a running Runner does nothing.
func (r *Runner) Resume() (*Ticket, error) { return r.enqueue(Resume, nil) }

func (r *Runner) enqueue(k CommandKind, m *vmaf.Model) (*Ticket, error) {
	if r.stateIs(Finished) {
		return nil, ErrFinished
	}
	return r.cmds.enqueue(k, m)
}

// SetPauseMode changes what a pause does from the next frame boundary on.
func (r *Runner) SetPauseMode(m PauseMode) {
	r.pauseMode.Store(int32(m))
	r.cmds.wake()
}

// applyCommands runs every queued command; called with mu held at a
// frame boundary.
func (r *Runner) applyCommands() {
	for t := r.cmds.pop(); t != nil; t = r.cmds.pop() {
		if f := r.cfg.OnApplied; f != nil {
			// Told before the command runs: a swap's new models score
			// from the next pair on, which is what the index says.
			f(t.Kind, r.next)
		}
		switch t.Kind {
		case SwapModel:
			r.applySwap(t)
		case Pause, Resume:
			r.paused = t.Kind == Pause
			state := Running
			if r.paused {
				state = Paused
				// No pair can be scored under a waiting swap before a
				// resume: its answer is that it took effect.
				for _, sw := range r.pendingSwaps {
					if !sw.completed {
						sw.paused = true
						sw.complete(-1, nil)
					}
				}
			}
			r.statMu.Lock()
			r.st.state = state
			r.st.drain, r.st.drainTo = r.pauseDrain()
			r.statMu.Unlock()
			t.complete(r.next, nil)
		}
	}
}

// pauseDrain is the scoring and Context index whose result a pause
// waits for before Status shows it (nil: none). In skip mode every pair
// scored before the pause has a result to come, as the frames that go on
// to the engine give the last one its successor's motion; in block mode
// the pushers are held, so the last pair submitted, whose result waits
// for that successor, is not waited for. An engine that reports at the
// end has nothing to wait for. Called with mu and statMu held, on a pause.
func (r *Runner) pauseDrain() (*scoring, int) {
	s := r.scoring
	if !r.paused || s == nil || s.atEnd {
		return nil, 0
	}
	last := s.lastScored[0]
	if PauseMode(r.pauseMode.Load()) == PauseBlock && last == s.submitted-1 {
		last = s.lastScored[1]
	}
	if last < 0 || (r.st.published == s && r.st.publishedCtx >= last) {
		return nil, 0
	}
	return s, last
}

func (r *Runner) applySwap(t *Ticket) {
	models := t.models
	if r.scoring != nil {
		if err := r.scoring.sc.SetModels(models); err != nil {
			t.complete(-1, err)
			return
		}
	}
	from := r.models[0]
	r.models = models
	r.statMu.Lock()
	// A swap that scored no pair before this one is superseded: no pair
	// will ever carry its model.
	for i, old := range r.pendingSwaps {
		r.st.swapSuperseded(old.ID)
		old.superseded = true
		old.complete(-1, nil)
		r.pendingSwaps[i] = nil
	}
	r.pendingSwaps = append(r.pendingSwaps[:0], t)
	r.st.models = models
	r.st.addSwap(SwapEvent{ID: t.ID, Applied: time.Now(), From: from, To: models[0], FirstIndex: -1})
	r.statMu.Unlock()
	if r.paused {
		t.paused = true
		t.complete(-1, nil)
	}
}
