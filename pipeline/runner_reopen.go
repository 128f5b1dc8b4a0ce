package pipeline

// Reopen makes a Runner that Finish ended take frames again, as a
// stream does after a flushing seek from its end: the sides' ends are
// forgotten, the next pair starts a new stream (no predecessor for
// motion), and indices, counters, pooled statistics and the score
// history carry on. The next Finish ends the run again, and its Pooled
// and Aggregates cover every frame since the start. Reopen reports
// false, doing nothing, for a Runner that has not finished or that Stop
// or Close ended.
func (r *Runner) Reopen() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.finished || r.stopped.Load() {
		return false
	}
	r.finished = false
	r.finishErr = nil
	r.scoring = nil
	r.current.Store(nil)
	r.newStream = true
	for s := range r.eos {
		r.eos[s] = false
		r.pairer.flush(Side(s))
		r.overflowing[s] = false
	}
	r.leadOff = r.live
	r.mon.m.Reopen()
	state := Running
	if r.paused {
		state = Paused
	}
	r.statMu.Lock()
	r.st.state = state
	r.statMu.Unlock()
	r.notePending()
	r.signalProgress()
	return true
}
