package pipeline

import (
	"slices"

	"github.com/vmafsink/vmafsink/vmaf"
)

// What the control plane and the element read of a running Runner: its
// records and its state.

// Subscribe calls fn with every published record, in index order, on
// the Runner's publishing goroutine. fn must return quickly and must not
// keep the record (Clone it): the Runner reuses it. A subscriber that
// falls a whole Recent ring behind holds back publishing, and then
// scoring. cancel ends the subscription.
func (r *Runner) Subscribe(fn func(*Record)) (cancel func()) { return r.pub.subscribe(fn) }

// Recent returns copies of the last n published records, oldest first.
func (r *Runner) Recent(n int) []*Record { return r.pub.recent(n) }

// Pooled returns every metric pooled over the records published so far.
// After a model swap each model's outputs are pooled apart, under the
// names report.ModelKeys gives them (Status.ModelKeys for the current
// models), as the results file writes them.
func (r *Runner) Pooled() []vmaf.Pooled {
	r.statMu.Lock()
	defer r.statMu.Unlock()
	return r.st.pool.Summary()
}

// Aggregates are the engine's aggregate metrics (see vmaf.Context), once
// Finish has returned; after a change of stream format, those of the last
// format's frames.
func (r *Runner) Aggregates() []vmaf.Metric {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.aggregates)
}

// Status returns a snapshot of the Runner's state and counters.
func (r *Runner) Status() Status {
	pending := r.cmds.len()
	r.statMu.Lock()
	defer r.statMu.Unlock()
	st := Status{
		State:           r.st.shownState(),
		PauseMode:       PauseMode(r.pauseMode.Load()),
		Pairing:         r.cfg.Pairing,
		Backpressure:    r.cfg.Backpressure,
		Engine:          r.cfg.Scorer.Engine,
		Started:         r.st.started,
		Models:          r.st.models,
		ModelKeys:       r.st.modelKeys(r.st.models),
		Metrics:         r.st.metrics,
		Counters:        r.st.counters,
		Pending:         r.st.pending,
		PendingHigh:     r.st.high,
		LastIndex:       r.st.lastIndex,
		LastScore:       r.st.lastScore,
		CommandsPending: pending,
		Swaps:           r.st.swapHistory(),
	}
	if r.st.format != nil {
		f := *r.st.format
		st.Format = &f
	}
	return st
}

func (r *Runner) stateIs(s State) bool {
	r.statMu.Lock()
	defer r.statMu.Unlock()
	return r.st.state == s
}
