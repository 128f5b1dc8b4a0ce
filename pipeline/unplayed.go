package pipeline

// A sink in GStreamer's PAUSED holds its stream's newest frame as its
// preroll: played when the pipeline plays or a step moves over it, and
// discarded unplayed by a flushing seek. A pair completed with such a
// reference frame is therefore not yet a frame of the stream: the
// Runner keeps it aside, unscored and without an index, until the frame
// is played, and a flush of the reference forgets it as it forgets the
// frames waiting for a partner.

// keepUnplayed keeps pair aside when its reference frame is the newest
// the reference has pushed and the host holds it unplayed, and reports
// whether it did. A pair whose pictures disagree is not kept: scoring it
// reports the mismatch now, as the host needs to fail the run.
// Called with mu held.
func (r *Runner) keepUnplayed(pair *[2]Frame) bool {
	if r.cfg.Unplayed == nil || r.pairer.queues[Ref].Len() > 0 || !sameFormat(pair[Ref].Picture, pair[Dist].Picture) || !r.cfg.Unplayed() {
		return false
	}
	r.keep(&pair[Ref])
	r.keep(&pair[Dist])
	r.kept, r.hasKept = *pair, true
	return true
}

// settleKept scores the kept pair once its reference frame has been
// played: the host no longer holds it unplayed, or the reference is
// pushing its next frame, which its sink takes only after the kept one.
// Called with mu held, by side s's pusher.
func (r *Runner) settleKept(s Side) error {
	if !r.hasKept || r.flushing[Ref].Load() {
		return nil
	}
	if s != Ref && r.cfg.Unplayed() {
		return nil
	}
	pair := r.kept
	r.kept, r.hasKept = [2]Frame{}, false
	return r.score(&pair, s)
}

// dropKept forgets the kept pair, counted as discarded as a flush counts
// the frames it forgets. Called with mu held.
func (r *Runner) dropKept() {
	if !r.hasKept {
		return
	}
	r.reject(Ref, &r.kept[Ref])
	r.reject(Dist, &r.kept[Dist])
	r.kept, r.hasKept = [2]Frame{}, false
}

// finishKept scores the kept pair at the end of the run if the reference
// ended after it, which its sink allows only once the frame was played,
// and forgets it otherwise (the run stopped in PAUSED). Called with mu
// held.
func (r *Runner) finishKept() error {
	if !r.hasKept {
		return nil
	}
	if !r.eos[Ref] || r.stopped.Load() || r.flushing[Ref].Load() {
		r.dropKept()
		return nil
	}
	pair := r.kept
	r.kept, r.hasKept = [2]Frame{}, false
	return r.score(&pair, Ref)
}
