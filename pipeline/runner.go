package pipeline

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/vmaf"
)

// ErrFlushing reports a frame refused because its side is flushing or the
// Runner is stopping; the host should return its framework's "flushing"
// status rather than an error.
var ErrFlushing = errors.New("pipeline: flushing")

// ErrPartnerEnded reports a frame counted as unpaired because the other
// stream has ended and has no frame left for it: the host should stop
// its stream too (GStreamer: GST_FLOW_EOS).
var ErrPartnerEnded = errors.New("pipeline: the other stream has ended")

// errAborted is what waits return when the pusher's side is flushing or
// the Runner is stopping.
var errAborted = ErrFlushing

// FormatError reports a pair whose pictures differ in geometry or sample
// format.
type FormatError struct {
	Index     int
	Ref, Dist vmaf.Picture // planes not included
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("pipeline: frame %d: reference is %s but distorted is %s", e.Index, describe(&e.Ref), describe(&e.Dist))
}

// Runner pairs, scores and publishes frames. Push, EndOfStream, FlushStop
// and Finish may be called from the hosts's streaming goroutines (one per
// side); the rest from anywhere.
type Runner struct {
	cfg Config

	// mu serialises the pushers: pairing, commands and submission
	// happen under it, which is what makes them frame-ordered.
	mu           sync.Mutex
	pairer       *pairer
	scoring      *scoring
	models       []*vmaf.Model
	paused       bool
	next         int       // index of the next pair
	eos          [2]bool   // sides that have ended
	pendingSwaps []*Ticket // applied, waiting for their first scored pair
	finished     bool
	finishErr    error
	aggregates   []vmaf.Metric // the engine's, once finished
	// kept is the pair completed with the reference frame the host's
	// sink holds unplayed (Config.Unplayed), while hasKept.
	kept    [2]Frame
	hasKept bool
	// newStream is set by a flush: the pairs after it are a new stream,
	// whose first frame has no predecessor, as for libvmaf.
	newStream bool

	// A side whose pending queue is full waits on progress, which the
	// other side's pushes and every abort signal; stall bounds the wait.
	progress    chan struct{}
	stall       *time.Timer
	overflowing [2]bool // the side gave up waiting until the other delivers
	// leadOff is set when a side waiting at MaxLead heard nothing from
	// the other stream: that stream needs this one's frames first, so
	// only MaxPending applies until the next flush.
	leadOff  bool
	live     bool             // a side's source is live: no lead limit at all
	lastPush [2]time.Time     // when each side last pushed
	interval [2]time.Duration // between each side's latest two pushes

	pauseMode atomic.Int32
	flushing  [2]atomic.Bool
	stopped   atomic.Bool
	current   atomic.Pointer[scoring] // for waking a submit wait without mu

	cmds   *commandQueue
	pub    *publisher
	worst  *worstStore
	mon    monitorFeed // written on the publishing goroutine
	spares spares

	statMu sync.Mutex
	st     stats
}

// New returns a Runner ready for frames.
func New(cfg Config) (*Runner, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	r := &Runner{
		cfg:          c,
		pairer:       newPairer(c.Pairing, c.MaxPending),
		models:       c.Scorer.Models,
		pendingSwaps: make([]*Ticket, 0, c.CommandQueue),
		cmds:         newCommandQueue(c.CommandQueue),
		pub:          newPublisher(c.Recent),
		worst:        newWorstStore(c.WorstFrames),
		progress:     make(chan struct{}, 1),
		stall:        time.NewTimer(time.Hour),
	}
	r.stall.Stop()
	mon, err := analytics.New(c.Analytics)
	if err != nil {
		r.pub.stop()
		return nil, fmt.Errorf("pipeline: %w", err)
	}
	r.mon = monitorFeed{m: mon, end: NoTime}
	r.pub.subscribe(r.feedMonitor)
	r.pauseMode.Store(int32(c.PauseMode))
	r.pairer.discard = r.discard
	r.pairer.queueing = r.hold
	r.st.started = time.Now()
	r.st.lastIndex = -1
	r.st.models = c.Scorer.Models
	return r, nil
}

// Push hands one frame to the Runner, which from then on owns it and
// releases it when done, whatever Push returns. Push returns ErrFlushing
// when the frame's side is flushing or the Runner is stopping,
// ErrPartnerEnded when the frame can never be paired because the other
// side has ended, a *FormatError when the completed pair's pictures
// disagree, and other errors when scoring fails.
func (r *Runner) Push(s Side, f Frame) error {
	r.statMu.Lock()
	r.st.counters.Received[s]++
	r.statMu.Unlock()
	if f.HoldLimit == CopyAtOnce && f.Picture != nil {
		if err := r.spares.detach(&f); err != nil {
			r.reject(s, &f)
			return fmt.Errorf("pipeline: copy of a %s frame: %w", s, err)
		}
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	if r.finished {
		r.reject(s, &f)
		return ErrFinished
	}
	now := time.Now()
	if !r.lastPush[s].IsZero() {
		r.interval[s] = now.Sub(r.lastPush[s])
	}
	r.lastPush[s] = now
	if err := r.boundary(s); err != nil {
		r.reject(s, &f)
		return err
	}
	if err := r.waitForRoom(s); err != nil {
		r.reject(s, &f)
		return err
	}
	if r.aborted(s) {
		r.reject(s, &f)
		return ErrFlushing
	}
	// This side delivered: the other may wait for it, or may stop
	// overflowing.
	r.overflowing[s.other()] = false
	r.signalProgress()
	if err := r.settleKept(s); err != nil {
		r.reject(s, &f)
		return err
	}
	pair, ok := r.pairer.push(s, f)
	r.notePending()
	if !ok {
		if r.pairer.partnerEnded(s) {
			return ErrPartnerEnded
		}
		return nil
	}
	if r.keepUnplayed(&pair) {
		return nil
	}
	return r.score(&pair, s)
}

// boundary runs the queued commands and, while paused in block mode,
// holds the pusher until a command or an abort arrives. Called with mu
// held; it releases mu while waiting.
func (r *Runner) boundary(s Side) error {
	var deadline time.Time
	for held := false; ; held = true {
		gen := r.cmds.generation()
		r.applyCommands()
		if !r.paused || PauseMode(r.pauseMode.Load()) != PauseBlock {
			return nil
		}
		if !held {
			r.count(func(c *Counters) { c.BlockHolds[s]++ })
		}
		if r.aborted(s) {
			return ErrFlushing
		}
		if limit := r.cfg.PauseBlockLimit; limit > 0 {
			if deadline.IsZero() {
				deadline = time.Now().Add(limit)
			} else if !time.Now().Before(deadline) {
				r.expirePause()
				return nil
			}
		}
		var timer *time.Timer
		if !deadline.IsZero() {
			timer = time.AfterFunc(time.Until(deadline), r.cmds.wake)
		}
		r.mu.Unlock()
		r.cmds.wait(gen, func() bool { return r.aborted(s) })
		if timer != nil {
			timer.Stop()
		}
		r.mu.Lock()
		if r.finished {
			return ErrFinished
		}
	}
}

// expirePause ends a block pause that reached PauseBlockLimit, as a
// resume would. Called with mu held.
func (r *Runner) expirePause() {
	r.paused = false
	r.statMu.Lock()
	r.st.state = Running
	r.statMu.Unlock()
	if f := r.cfg.OnPauseExpired; f != nil {
		f(r.next)
	}
}

// LiveSource tells the Runner that a side's frames come from a live
// source, which runs at its own pace whatever the Runner does: waiting at
// the lead limit would only make it drop frames, so only MaxPending
// applies from then on.
func (r *Runner) LiveSource() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.live, r.leadOff = true, true
}

// waitForRoom holds side s's pusher while it is too far ahead of the
// other stream: at MaxLead waiting frames while the other stream keeps
// delivering (see Config.MaxLead), and at MaxPending up to PendingTimeout
// without a frame from the other side. Called with mu held; it releases
// mu while waiting.
func (r *Runner) waitForRoom(s Side) error {
	o := s.other()
	q := r.pairer.queues[s]
	if !r.leadOff && q.Len() >= r.cfg.MaxLead && !q.Full() {
		probe := func() time.Duration { return max(r.cfg.LeadProbe, 4*r.interval[o]) }
		quiet, err := r.waitForOther(s, probe, func() bool { return q.Len() >= r.cfg.MaxLead && !r.leadOff })
		if err != nil {
			return err
		}
		if quiet {
			// The other stream needs this one's frames first.
			r.leadOff = true
			r.count(func(c *Counters) { c.LeadReleases++ })
		}
	}
	if !q.Full() || r.overflowing[s] {
		return nil
	}
	quiet, err := r.waitForOther(s, func() time.Duration { return r.cfg.PendingTimeout }, q.Full)
	if quiet {
		r.overflowing[s] = true
		r.count(func(c *Counters) { c.Stalls++ })
	}
	return err
}

// waitForOther holds side s's pusher while more holds and the other stream
// has not ended, until the other stream goes quiet for quietAfter (as it
// stands at each wait). Called with mu held; it releases mu while waiting.
func (r *Runner) waitForOther(s Side, quietAfter func() time.Duration, more func() bool) (quiet bool, err error) {
	o := s.other()
	r.stall.Reset(quietAfter())
	defer r.stall.Stop()
	for more() && !r.eos[o] {
		if r.aborted(s) {
			return false, ErrFlushing
		}
		r.mu.Unlock()
		select {
		case <-r.progress:
		case <-r.stall.C:
			quiet = true
		}
		r.mu.Lock()
		if r.finished {
			return false, ErrFinished
		}
		if quiet {
			return true, nil
		}
		r.stall.Reset(quietAfter())
	}
	return false, nil
}

func (r *Runner) signalProgress() {
	select {
	case r.progress <- struct{}{}:
	default:
	}
}

// score decides the fate of a completed pair.
func (r *Runner) score(pair *[2]Frame, s Side) error {
	index := r.next
	r.next++
	r.count(func(c *Counters) { c.Pairs++ })
	ref, dist := pair[Ref].Picture, pair[Dist].Picture
	if !sameFormat(ref, dist) {
		err := &FormatError{Index: index, Ref: *ref, Dist: *dist}
		err.Ref.Planes, err.Dist.Planes = [3][]byte{}, [3][]byte{}
		releasePair(pair)
		return err
	}
	// A paused Runner still hands its pairs to the engine, for motion
	// only, so that no score after the pause depends on it.
	skip := r.paused
	if r.scoring == nil || r.newStream || !sameFormat(&r.scoring.format, ref) {
		r.newStream = false
		if err := r.restart(ref); err != nil {
			releasePair(pair)
			return err
		}
	}
	t := pair[Dist].Timing
	if t.RunningTime == NoTime && t.PTS == NoTime {
		t = pair[Ref].Timing
	}
	switch err := r.scoring.submit(pair, index, t, r.cfg.Backpressure, s, skip); {
	case errors.Is(err, errSaturated) && skip:
		r.count(func(c *Counters) { c.Skipped++ })
		return nil
	case errors.Is(err, errSaturated):
		var c Counters
		r.count(func(cs *Counters) { cs.Dropped++; c = *cs })
		if r.cfg.OnDropped != nil {
			r.cfg.OnDropped(index, t, c)
		}
		return nil
	case err != nil:
		return err
	case skip:
		r.count(func(c *Counters) { c.Skipped++ })
		return nil
	}
	if len(r.pendingSwaps) > 0 {
		r.statMu.Lock()
		for _, t := range r.pendingSwaps {
			r.st.swapFirstIndex(t.ID, index)
		}
		r.statMu.Unlock()
		for i, t := range r.pendingSwaps {
			t.complete(index, nil)
			r.pendingSwaps[i] = nil
		}
		r.pendingSwaps = r.pendingSwaps[:0]
	}
	return nil
}

// restart ends the current scorer, if any, and starts one for format's
// stream; pooled statistics and indices carry on.
func (r *Runner) restart(format *vmaf.Picture) error {
	if old := r.scoring; old != nil {
		r.scoring = nil
		if err := old.finish(); err != nil {
			return fmt.Errorf("pipeline: finish scoring %s before the format change: %w", describe(&old.format), err)
		}
	}
	sc, err := newScoring(r, format)
	if err != nil {
		return err
	}
	r.scoring = sc
	r.current.Store(sc)
	names := sc.sc.MetricNames()
	r.statMu.Lock()
	r.st.format = &sc.format
	r.st.metrics = names
	r.statMu.Unlock()
	return nil
}

// deliver publishes one result; it runs on the scorer's result goroutine.
func (r *Runner) deliver(s *scoring, res *vmaf.Result) {
	sl, ok := s.slotOf(res)
	if !ok {
		// Cannot happen while the slot ring is larger than the scorer's
		// jobs in flight; publishing with a wrong index would be worse.
		s.completeThrough(res.Index)
		return
	}
	index, timing := sl.index, sl.timing
	frames := s.take(sl)
	s.completeThrough(res.Index)
	if len(res.Models) > 0 {
		score, _ := res.Get(res.Models[0].Name)
		r.worst.offer(index, timing, res, score, &frames)
	}
	releasePair(&frames)
	// The record goes in the ring before the status counts it, so that a
	// status naming a frame as the last scored never runs ahead of what
	// Recent returns.
	r.pub.put(index, timing, res)
	r.statMu.Lock()
	r.st.pool.Add(res)
	r.st.counters.Scored++
	r.st.lastIndex = index
	r.st.published, r.st.publishedCtx = s, res.Index
	if r.st.drain == s && res.Index >= r.st.drainTo {
		r.st.drain = nil
	}
	if len(res.Models) > 0 {
		r.st.lastScore, _ = res.Get(res.Models[0].Name)
	}
	r.statMu.Unlock()
}

// EndOfStream marks side s ended and reports whether both sides have.
// Frames the other side has waiting are counted as unpaired.
func (r *Runner) EndOfStream(s Side) (bothEnded bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.eos[s] = true
	r.pairer.endOfStream(s)
	r.notePending()
	r.signalProgress()
	return r.eos[Ref] && r.eos[Dist]
}

// FlushStart makes side s's pusher, if it waits, give up with
// ErrFlushing, and refuses the side's frames until FlushStop. Hosts call
// it from any goroutine.
func (r *Runner) FlushStart(s Side) {
	r.flushing[s].Store(true)
	r.wake()
}

// FlushStop forgets side s's waiting frames and its end of stream, and
// accepts its frames again. Indices, counters and pooled statistics carry on.
func (r *Runner) FlushStop(s Side) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pairer.flush(s)
	if s == Ref {
		r.dropKept()
	}
	r.eos[s] = false
	r.flushing[s].Store(false)
	r.newStream = true
	r.leadOff = r.live
	r.notePending()
	// A side waiting for this one looks again: its frames may now pair.
	r.signalProgress()
}

// Stop makes every waiting and later Push return ErrFlushing, so a host
// can take its streaming threads down; Finish or Close follow.
func (r *Runner) Stop() {
	r.stopped.Store(true)
	r.wake()
}

func (r *Runner) wake() {
	r.signalProgress()
	r.cmds.wake()
	if s := r.current.Load(); s != nil {
		s.wake()
	}
}

func (r *Runner) aborted(s Side) bool {
	return r.flushing[s].Load() || r.stopped.Load()
}

// Finish ends the run: frames still waiting for a partner are counted as
// unpaired, the pairs in flight are scored and published, and queued
// commands fail with ErrFinished. It returns the scorer's error, if any;
// calling it again returns the same.
func (r *Runner) Finish() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.finished {
		return r.finishErr
	}
	r.pairer.endOfStream(Ref)
	r.pairer.endOfStream(Dist)
	keptErr := r.finishKept()
	if r.scoring != nil {
		r.finishErr = r.scoring.finish()
		r.aggregates = r.scoring.sc.Aggregates()
	}
	if r.finishErr == nil {
		r.finishErr = keptErr
	}
	r.end()
	r.pub.drain()
	// drain orders the publishing goroutine's writes of mon before this.
	r.mon.m.Finish(r.mon.end)
	return r.finishErr
}

// Close abandons the run, unscored pairs included, and stops publishing.
// It is safe after Finish and more than once.
func (r *Runner) Close() {
	r.Stop()
	r.mu.Lock()
	if !r.finished {
		r.pairer.flush(Ref)
		r.pairer.flush(Dist)
		r.dropKept()
		if r.scoring != nil {
			r.scoring.abandon()
		}
		r.end()
	}
	r.mu.Unlock()
	r.pub.stop()
}

// end marks the run finished and fails what can no longer happen.
// Called with mu held.
func (r *Runner) end() {
	r.finished = true
	for _, t := range r.pendingSwaps {
		t.complete(-1, nil)
	}
	r.pendingSwaps = r.pendingSwaps[:0]
	for t := r.cmds.pop(); t != nil; t = r.cmds.pop() {
		t.complete(-1, ErrFinished)
	}
	r.notePending()
	r.statMu.Lock()
	r.st.state = Finished
	r.statMu.Unlock()
	r.cmds.wake()
}

func releasePair(p *[2]Frame) {
	p[Ref].release()
	p[Dist].release()
}

// discard counts and releases a frame the pairer gave up on.
func (r *Runner) discard(s Side, f *Frame, why discardReason) {
	if why == flushed {
		r.reject(s, f)
		return
	}
	f.release()
	r.statMu.Lock()
	r.st.counters.Unpaired[s]++
	if why == overflow {
		r.st.counters.Overflow++
	}
	r.statMu.Unlock()
}

// reject releases a frame that will never be paired because its side
// flushed or the Runner stopped or finished, and counts it.
func (r *Runner) reject(s Side, f *Frame) {
	f.release()
	r.count(func(c *Counters) { c.Discarded[s]++ })
}

// hold copies a frame about to wait in a deep queue when its memory
// belongs to a bounded upstream pool, so the pool never runs dry. A
// frame that cannot be copied keeps the host's memory.
func (r *Runner) hold(f *Frame, depth int) {
	if f.HoldLimit > 0 && depth >= min(f.HoldLimit, r.cfg.MaxHeld) && f.Picture != nil {
		_ = r.spares.detach(f)
	}
}

// keep copies a frame the scorer holds across pushes when its memory
// belongs to a bounded upstream pool.
func (r *Runner) keep(f *Frame) {
	if f.HoldLimit > 0 && f.Picture != nil {
		_ = r.spares.detach(f)
	}
}

func (r *Runner) notePending() {
	p := r.pairer.pending()
	r.statMu.Lock()
	r.st.pending = p
	for i, n := range p {
		r.st.high[i] = max(r.st.high[i], n)
	}
	r.statMu.Unlock()
}

func (r *Runner) count(f func(*Counters)) {
	r.statMu.Lock()
	f(&r.st.counters)
	r.statMu.Unlock()
}
