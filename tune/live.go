package tune

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/vmaf"
)

// Live scores probes through a pipeline.Runner, one probe at a time, so
// that a control plane attached to the Runner shows the probe in flight:
// every frame's score and features as they are produced, the run's state,
// and (through Current) which probe it is. Each segment of a probe is a
// stream of its own: the Runner is reopened for it, so motion starts
// afresh as it does for a probe scored directly, and frame indices,
// counters and the score history carry on over the whole sweep.
//
// While one probe holds the Runner, probes running beside it are scored
// directly; their numbers are the same either way.
type Live struct {
	r     *pipeline.Runner
	model *vmaf.Model
	stop  func() // cancels the subscription

	mu   sync.Mutex // held by the probe feeding r
	used bool       // r has had a stream (Reopen is needed for the next)

	recv atomic.Pointer[func(*vmaf.Result)] // the feeding segment's receiver
	cur  atomic.Pointer[liveProbe]
	done atomic.Int64 // probes finished through r
}

// LiveProbe describes the probe whose frames the Runner scores.
type LiveProbe struct {
	Probe   int // the run's probe number, from 1
	Encoder string
	CRF     float64
	// Width and Height are the encode's size (the source's unless a
	// ladder scales it).
	Width, Height int
	Frames        int // the probe's frames (all its segments)
	FramesScored  int
	// FirstFrame is the Runner's index of the probe's first frame:
	// records from it on are this probe's.
	FirstFrame int64
}

type liveProbe struct {
	LiveProbe
	scored atomic.Int64
	first  atomic.Int64
}

// LiveConfig is the Runner's scorer: threads and the worker setup a
// control plane wants (see attach.WorkerSetup).
type LiveConfig struct {
	Threads     int
	WorkerSetup func() bool
	// Recent is how many full records the Runner keeps (0: its default).
	Recent int
}

// NewLive makes the session's Runner. Close it after the last probe.
func (s *Session) NewLive(c LiveConfig) (*Live, error) {
	r, err := pipeline.New(pipeline.Config{
		Scorer:       vmaf.Config{Models: []*vmaf.Model{s.model}, Threads: c.Threads, WorkerSetup: c.WorkerSetup},
		Pairing:      pipeline.PairByOrder,
		Backpressure: pipeline.Block,
		PauseMode:    pipeline.PauseBlock, // a paused sweep waits; it skips no frame
		MaxHeld:      -1,                  // the probe holds few frames: the encoder's delay
		Recent:       c.Recent,
	})
	if err != nil {
		return nil, err
	}
	l := &Live{r: r, model: s.model}
	l.stop = r.Subscribe(func(rec *pipeline.Record) {
		if p := l.cur.Load(); p != nil {
			p.first.CompareAndSwap(-1, int64(rec.Index))
			p.scored.Add(1)
		}
		if fn := l.recv.Load(); fn != nil {
			res := vmaf.Result{Index: rec.Index, Models: rec.Models, Metrics: rec.Metrics}
			(*fn)(&res)
		}
	})
	s.live = l
	return l, nil
}

// Runner is what a control plane attaches to.
func (l *Live) Runner() *pipeline.Runner { return l.r }

// Current returns the probe the Runner scores now, if any, and how many
// probes it has scored to the end.
func (l *Live) Current() (p LiveProbe, ok bool, done int) {
	done = int(l.done.Load())
	c := l.cur.Load()
	if c == nil {
		return LiveProbe{}, false, done
	}
	p = c.LiveProbe
	p.FramesScored = int(c.scored.Load())
	p.FirstFrame = c.first.Load()
	return p, true, done
}

// Close ends the Runner (scoring nothing more).
func (l *Live) Close() {
	l.stop()
	l.r.Close()
}

// acquire makes p the Runner's probe if no other holds it, and returns
// the function that gives it back.
func (l *Live) acquire(ctx context.Context, p LiveProbe) (release func(), ok bool) {
	if l == nil || !l.mu.TryLock() {
		return nil, false
	}
	lp := &liveProbe{LiveProbe: p}
	lp.first.Store(-1)
	l.cur.Store(lp)
	// A cancelled run may be waiting in a paused Runner: stopping it is
	// the only way out, and the run is over anyway.
	stopAfter := context.AfterFunc(ctx, l.r.Stop)
	return func() {
		stopAfter()
		if int(lp.scored.Load()) == p.Frames {
			l.done.Add(1)
		}
		l.cur.Store(nil)
		l.mu.Unlock()
	}, true
}

// stream opens a segment's stream on the Runner; it reports false when
// the Runner can take no more (stopped).
func (l *Live) stream(onResult func(*vmaf.Result)) (*liveStream, bool) {
	if l.used && !l.r.Reopen() {
		return nil, false
	}
	l.used = true
	l.recv.Store(&onResult)
	return &liveStream{l: l}, true
}

// liveStream is a segment's scorer on the Runner: a pairScorer.
type liveStream struct {
	l        *Live
	finished bool
}

type releaseFunc func()

func (f releaseFunc) Release() { f() }

func (s *liveStream) Submit(ref, dist *vmaf.Picture, release func()) error {
	if err := s.l.r.Push(pipeline.Ref, pipeline.Frame{Picture: ref, Timing: pipeline.Untimed}); err != nil {
		release()
		return err
	}
	return s.l.r.Push(pipeline.Dist, pipeline.Frame{Picture: dist, Timing: pipeline.Untimed, Owner: releaseFunc(release)})
}

// Flush scores what is in flight and delivers the last results.
func (s *liveStream) Flush() error {
	s.finished = true
	s.l.r.EndOfStream(pipeline.Ref)
	s.l.r.EndOfStream(pipeline.Dist)
	return s.l.r.Finish()
}

// Close ends the stream if Flush did not (a failed segment: the pairs in
// flight are scored, and their results no longer go to the probe).
func (s *liveStream) Close() {
	s.l.recv.Store(nil)
	if !s.finished {
		s.finished = true
		s.l.r.EndOfStream(pipeline.Ref)
		s.l.r.EndOfStream(pipeline.Dist)
		s.l.r.Finish()
	}
}
