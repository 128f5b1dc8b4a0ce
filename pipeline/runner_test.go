package pipeline

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/vmaf"
)

var (
	modelA = &vmaf.Model{Name: "vmaf", Version: "model_a"}
	modelB = &vmaf.Model{Name: "vmaf", Version: "model_b"}
)

// owner counts how often a frame was released.
type owner struct{ n atomic.Int32 }

func (o *owner) Release() { o.n.Add(1) }

// frames makes test frames and checks each is released exactly once.
type frames struct {
	t    *testing.T
	w, h int
	// mu guards owners: some tests make frames on two goroutines, one per
	// side.
	mu     sync.Mutex
	owners []*owner
}

func newFrames(t *testing.T) *frames { return &frames{t: t, w: 16, h: 16} }

// frame returns a frame whose first luma sample is v, at running time ms
// (negative: untimed), 40 ms long.
func (fs *frames) frame(v byte, ms int) Frame {
	fs.t.Helper()
	p, err := vmaf.NewPicture(fs.w, fs.h, 8, vmaf.Chroma420)
	if err != nil {
		fs.t.Fatal(err)
	}
	p.Planes[0][0] = v
	o := &owner{}
	fs.mu.Lock()
	fs.owners = append(fs.owners, o)
	fs.mu.Unlock()
	tm := Untimed
	if ms >= 0 {
		tm.RunningTime = time.Duration(ms) * time.Millisecond
		tm.PTS = tm.RunningTime
		tm.Duration = 40 * time.Millisecond
	}
	return Frame{Picture: p, Timing: tm, Owner: o}
}

func (fs *frames) checkReleased() {
	fs.t.Helper()
	for i, o := range fs.owners {
		if n := o.n.Load(); n != 1 {
			fs.t.Errorf("frame %d released %d times, want once", i, n)
		}
	}
}

// collector subscribes to a Runner and keeps clones of its records.
type collector struct {
	mu   sync.Mutex
	recs []*Record
}

func collect(r *Runner) *collector {
	c := &collector{}
	r.Subscribe(func(rec *Record) {
		c.mu.Lock()
		c.recs = append(c.recs, rec.Clone())
		c.mu.Unlock()
	})
	return c
}

func (c *collector) records() []*Record {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*Record(nil), c.recs...)
}

func newTestRunner(t *testing.T, eng *fakeEngine, mod func(*Config)) *Runner {
	t.Helper()
	cfg := Config{Scorer: vmaf.Config{Models: []*vmaf.Model{modelA}, Threads: 2}, newScorer: eng.newScorer}
	if mod != nil {
		mod(&cfg)
	}
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

func push(t *testing.T, r *Runner, s Side, f Frame) {
	t.Helper()
	if err := r.Push(s, f); err != nil {
		t.Fatalf("push %s: %v", s, err)
	}
}

func finish(t *testing.T, r *Runner) {
	t.Helper()
	if !r.EndOfStream(Ref) && !r.EndOfStream(Dist) {
		t.Fatal("EndOfStream on both sides did not report the end")
	}
	if err := r.Finish(); err != nil {
		t.Fatal(err)
	}
}

func TestRunnerScoresInOrderFromTwoGoroutines(t *testing.T) {
	eng := &fakeEngine{}
	r := newTestRunner(t, eng, func(c *Config) { c.Pairing = PairByOrder })
	recs := collect(r)
	fs := newFrames(t)
	const n = 50
	ref, dist := make([]Frame, n), make([]Frame, n)
	for i := range n {
		ref[i], dist[i] = fs.frame(byte(100+i), -1), fs.frame(100, -1)
	}
	var wg sync.WaitGroup
	for s, fr := range [2][]Frame{ref, dist} {
		wg.Go(func() {
			for _, f := range fr {
				if err := r.Push(Side(s), f); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	finish(t, r)
	got := recs.records()
	if len(got) != n {
		t.Fatalf("%d records, want %d", len(got), n)
	}
	for i, rec := range got {
		if rec.Index != i || rec.Score != float64(100-i) || rec.Model() != modelA {
			t.Errorf("record %d: index %d score %v model %v, want index %d score %d model_a", i, rec.Index, rec.Score, rec.Model().Version, i, 100-i)
		}
	}
	st := r.Status()
	want := Counters{Received: [2]uint64{n, n}, Pairs: n, Scored: n}
	if st.Counters != want || st.State != Finished || st.LastIndex != n-1 {
		t.Errorf("status: counters %+v state %v last %d, want %+v finished %d", st.Counters, st.State, st.LastIndex, want, n-1)
	}
	p, _ := r.Pooled()[0], 0
	if p.Name != "feature" || p.Count != n || p.Min != 0 || p.Max != n-1 {
		t.Errorf("pooled feature = %+v", p)
	}
	fs.checkReleased()
}

func TestRunnerTimestampPairingCountsUnpaired(t *testing.T) {
	eng := &fakeEngine{}
	r := newTestRunner(t, eng, nil)
	recs := collect(r)
	fs := newFrames(t)
	// The distorted stream lags three frames, loses the frame at 80 ms and
	// ends one frame early; the reference has no frame at 200 ms.
	for _, ms := range []int{0, 40, 80, 120} {
		push(t, r, Ref, fs.frame(10, ms))
	}
	push(t, r, Dist, fs.frame(10, 0))
	push(t, r, Ref, fs.frame(10, 160))
	push(t, r, Dist, fs.frame(10, 40))
	push(t, r, Dist, fs.frame(10, 120))
	push(t, r, Dist, fs.frame(10, 200))
	push(t, r, Ref, fs.frame(10, 240))
	finish(t, r)
	var idx []int
	for _, rec := range recs.records() {
		idx = append(idx, int(rec.Timing.RunningTime/time.Millisecond))
	}
	if fmt.Sprint(idx) != "[0 40 120]" {
		t.Errorf("scored running times %v, want [0 40 120]", idx)
	}
	c := r.Status().Counters
	if c.Unpaired != [2]uint64{3, 1} || c.Pairs != 3 {
		t.Errorf("unpaired %v pairs %d, want [3 1] (ref 80, 160, 240; dist 200) and 3", c.Unpaired, c.Pairs)
	}
	if h := r.Status().PendingHigh; h != [2]int{4, 1} {
		t.Errorf("pending high-water mark %v, want [4 1]", h)
	}
	fs.checkReleased()
}

func TestRunnerOneSideEOS(t *testing.T) {
	eng := &fakeEngine{}
	r := newTestRunner(t, eng, func(c *Config) { c.Pairing = PairByOrder })
	fs := newFrames(t)
	for range 3 {
		push(t, r, Ref, fs.frame(1, -1))
	}
	if r.EndOfStream(Ref) {
		t.Fatal("one side's end reported as both")
	}
	for i := range 5 {
		// Past the reference's three frames, the partner has ended.
		if err := r.Push(Dist, fs.frame(1, -1)); (i < 3) != (err == nil) || (i >= 3 && !errors.Is(err, ErrPartnerEnded)) {
			t.Fatalf("push distorted %d: %v", i, err)
		}
	}
	if c := r.Status().Counters; c.Pairs != 3 || c.Unpaired != [2]uint64{0, 2} {
		t.Errorf("after reference EOS: pairs %d unpaired %v, want 3 and [0 2]", c.Pairs, c.Unpaired)
	}
	if !r.EndOfStream(Dist) {
		t.Fatal("both ends not reported")
	}
	if err := r.Finish(); err != nil {
		t.Fatal(err)
	}
	fs.checkReleased()
}

func TestRunnerBackpressure(t *testing.T) {
	for _, bp := range []Backpressure{Block, Drop} {
		t.Run(bp.String(), func(t *testing.T) {
			eng := &fakeEngine{hold: make(chan struct{})}
			r := newTestRunner(t, eng, func(c *Config) { c.Pairing = PairByOrder; c.Backpressure = bp })
			fs := newFrames(t)
			const n = 20
			pushed := make(chan int, 1)
			go func() {
				for i := range n {
					push(t, r, Ref, fs.frame(1, -1))
					push(t, r, Dist, fs.frame(1, -1))
					if i == n-1 {
						pushed <- i
					}
				}
			}()
			// Drop mode: every push returns with the scorer still stalled
			// (the deadline only ends a hang). Block mode: none gets
			// through in a while (a wrong one fails sooner or later).
			wait := 200 * time.Millisecond
			if bp == Drop {
				wait = time.Minute
			}
			select {
			case <-pushed:
				if bp == Block {
					t.Fatal("pushes did not block while the scorer was stalled")
				}
			case <-time.After(wait):
				if bp == Drop {
					t.Fatal("pushes blocked in drop mode")
				}
			}
			close(eng.hold)
			if bp == Block {
				<-pushed
			}
			finish(t, r)
			c := r.Status().Counters
			if c.Scored+c.Dropped != n || (bp == Block) != (c.Dropped == 0) {
				t.Errorf("scored %d dropped %d of %d pairs", c.Scored, c.Dropped, n)
			}
			fs.checkReleased()
		})
	}
}

func TestRunnerSwapAtFrameBoundary(t *testing.T) {
	eng := &fakeEngine{}
	r := newTestRunner(t, eng, func(c *Config) { c.Pairing = PairByOrder })
	recs := collect(r)
	fs := newFrames(t)
	pushPairs := func(k int) {
		for range k {
			push(t, r, Ref, fs.frame(50, -1))
			push(t, r, Dist, fs.frame(40, -1))
		}
	}
	pushPairs(5)
	// A reference frame waits for its partner when the swap is queued:
	// the swap still lands between pairs, not inside one.
	push(t, r, Ref, fs.frame(50, -1))
	tk, err := r.RequestSwap(modelB)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-tk.Done():
		t.Fatal("swap applied without a frame boundary")
	default:
	}
	push(t, r, Dist, fs.frame(40, -1))
	<-tk.Done()
	if tk.Err() != nil || tk.FirstIndex() != 5 {
		t.Fatalf("swap: first index %d err %v, want 5 and nil", tk.FirstIndex(), tk.Err())
	}
	pushPairs(4)
	finish(t, r)
	for _, rec := range recs.records() {
		want := modelA
		if rec.Index >= 5 {
			want = modelB
		}
		if rec.Model() != want {
			t.Errorf("frame %d scored by %s, want %s", rec.Index, rec.Model().Version, want.Version)
		}
	}
	sw := r.Status().Swaps
	if len(sw) != 1 || sw[0].From != modelA || sw[0].To != modelB || sw[0].FirstIndex != 5 || sw[0].ID != tk.ID {
		t.Errorf("swap history %+v", sw)
	}
	fs.checkReleased()
}

func TestRunnerPauseSkip(t *testing.T) {
	eng := &fakeEngine{}
	r := newTestRunner(t, eng, func(c *Config) { c.Pairing = PairByOrder })
	recs := collect(r)
	fs := newFrames(t)
	pair := func() {
		push(t, r, Ref, fs.frame(9, -1))
		push(t, r, Dist, fs.frame(9, -1))
	}
	pair()
	p, _ := r.Pause()
	p2, _ := r.Pause() // idempotent
	pair()
	<-p.Done()
	<-p2.Done()
	// The pause shows once the pair scored before it is published.
	waitState(t, r, Paused)
	if st := r.Status(); st.Counters.Scored != 1 {
		t.Errorf("paused with %d pairs scored, want the 1 before the pause", st.Counters.Scored)
	}
	pair()
	res, _ := r.Resume()
	pair()
	<-res.Done()
	if res.FirstIndex() != 3 {
		t.Errorf("resume took effect before pair %d, want 3", res.FirstIndex())
	}
	finish(t, r)
	c := r.Status().Counters
	var idx []int
	for _, rec := range recs.records() {
		idx = append(idx, rec.Index)
	}
	if c.Skipped != 2 || c.Scored != 2 || fmt.Sprint(idx) != "[0 3]" {
		t.Errorf("skipped %d scored %d indices %v, want 2, 2, [0 3]", c.Skipped, c.Scored, idx)
	}
	fs.checkReleased()
}

func TestRunnerPauseBlock(t *testing.T) {
	eng := &fakeEngine{}
	r := newTestRunner(t, eng, func(c *Config) { c.Pairing = PairByOrder; c.PauseMode = PauseBlock })
	fs := newFrames(t)
	p, _ := r.Pause()
	done := make(chan error, 2)
	go func() { done <- r.Push(Ref, fs.frame(1, -1)) }()
	<-p.Done()
	select {
	case err := <-done:
		t.Fatalf("push returned %v while paused in block mode", err)
	case <-time.After(100 * time.Millisecond):
	}
	if r.Status().State != Paused {
		t.Fatal("not paused")
	}
	r.Resume()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if h := r.Status().Counters.BlockHolds; h != [2]uint64{1, 0} {
		t.Errorf("block holds %v after the reference push was held once, want [1 0]", h)
	}

	// A flush gives up the wait.
	p, _ = r.Pause()
	go func() { done <- r.Push(Dist, fs.frame(1, -1)) }()
	<-p.Done()
	r.FlushStart(Dist)
	if err := <-done; !errors.Is(err, ErrFlushing) {
		t.Fatalf("push during flush returned %v, want ErrFlushing", err)
	}
	r.FlushStop(Dist)
	if h := r.Status().Counters.BlockHolds; h != [2]uint64{1, 1} {
		t.Errorf("block holds %v after each side was held once, want [1 1]", h)
	}
	r.Close()
	fs.checkReleased()
}

func TestRunnerCommandQueueFull(t *testing.T) {
	r := newTestRunner(t, &fakeEngine{}, func(c *Config) { c.CommandQueue = 2 })
	for i := range 3 {
		_, err := r.Pause()
		if (i < 2) != (err == nil) || (i == 2 && !errors.Is(err, ErrQueueFull)) {
			t.Errorf("command %d: err %v", i, err)
		}
	}
	if n := r.Status().CommandsPending; n != 2 {
		t.Errorf("%d commands pending, want 2", n)
	}
	r.Close()
	if _, err := r.Resume(); !errors.Is(err, ErrFinished) {
		t.Errorf("command after close: %v, want ErrFinished", err)
	}
}

func TestRunnerFormatChangeStartsNewScorer(t *testing.T) {
	eng := &fakeEngine{}
	r := newTestRunner(t, eng, func(c *Config) { c.Pairing = PairByOrder })
	recs := collect(r)
	fs := newFrames(t)
	push(t, r, Ref, fs.frame(3, -1))
	push(t, r, Dist, fs.frame(1, -1))
	fs.w, fs.h = 32, 24
	push(t, r, Ref, fs.frame(5, -1))
	push(t, r, Dist, fs.frame(1, -1))
	finish(t, r)
	if eng.count() != 2 {
		t.Errorf("%d scorers started, want 2", eng.count())
	}
	got := recs.records()
	if len(got) != 2 || got[1].Index != 1 || got[1].Score != 96 {
		t.Errorf("records after the format change: %+v", got)
	}
	if p := r.Pooled()[0]; p.Count != 2 || p.Mean != 3 {
		t.Errorf("pooled across formats %+v, want count 2 mean 3", p)
	}
	if f := r.Status().Format; f == nil || f.Width != 32 || f.Height != 24 {
		t.Errorf("status format %+v, want 32x24", f)
	}
	fs.checkReleased()
}

func TestRunnerFormatMismatch(t *testing.T) {
	r := newTestRunner(t, &fakeEngine{}, func(c *Config) { c.Pairing = PairByOrder })
	fs := newFrames(t)
	push(t, r, Ref, fs.frame(1, -1))
	fs.w = 32
	err := r.Push(Dist, fs.frame(1, -1))
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Ref.Width != 16 || fe.Dist.Width != 32 {
		t.Fatalf("err = %v, want a FormatError naming 16 and 32 wide pictures", err)
	}
	r.Close()
	fs.checkReleased()
}

func TestRunnerCopiesLongWaitingFrames(t *testing.T) {
	tests := []struct {
		name       string
		holdLimit  int
		copiedFrom int // first frame index that is copied; -1: none
	}{
		{"unpooled frames are held", 0, -1},
		{"pooled frames beyond MaxHeld are copied", 100, 2},
		{"pooled frames beyond the pool's limit are copied", 1, 1},
		{"frames the host needs back are copied at once", CopyAtOnce, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newTestRunner(t, &fakeEngine{}, func(c *Config) { c.Pairing = PairByOrder; c.MaxHeld = 2 })
			recs := collect(r)
			fs := newFrames(t)
			for i := range 5 {
				f := fs.frame(byte(10+i), -1)
				f.HoldLimit = tc.holdLimit
				push(t, r, Ref, f)
			}
			for i, o := range fs.owners {
				if got, want := o.n.Load() == 1, tc.copiedFrom >= 0 && i >= tc.copiedFrom; got != want {
					t.Errorf("reference frame %d released early = %v, want %v", i, got, want)
				}
			}
			for range 5 {
				push(t, r, Dist, fs.frame(0, -1))
			}
			finish(t, r)
			for i, rec := range recs.records() {
				if rec.Score != float64(100-10-i) {
					t.Errorf("frame %d scored %v, want %d (copied pixels lost)", i, rec.Score, 90-i)
				}
			}
			fs.checkReleased()
		})
	}
}

func TestRunnerSlowSubscriberDoesNotBlockPush(t *testing.T) {
	r := newTestRunner(t, &fakeEngine{}, func(c *Config) { c.Pairing = PairByOrder })
	stall := make(chan struct{})
	r.Subscribe(func(*Record) { <-stall })
	fs := newFrames(t)
	done := make(chan struct{})
	go func() {
		for range 10 {
			push(t, r, Ref, fs.frame(1, -1))
			push(t, r, Dist, fs.frame(1, -1))
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("a stalled subscriber blocked the pushers")
	}
	close(stall)
	finish(t, r)
	if n := len(r.Recent(100)); n != 10 {
		t.Errorf("Recent returned %d records, want 10", n)
	}
}

func TestRunnerPushDoesNotAllocate(t *testing.T) {
	r := newTestRunner(t, &fakeEngine{}, func(c *Config) { c.Pairing = PairByOrder })
	fs := newFrames(t)
	ref, dist := fs.frame(1, -1), fs.frame(2, -1)
	// Warm up: the scorer, the record ring and the pool see every name.
	for range 300 {
		push(t, r, Ref, ref)
		push(t, r, Dist, dist)
	}
	allocs := testing.AllocsPerRun(200, func() {
		r.Push(Ref, ref)
		r.Push(Dist, dist)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per pair, want 0", allocs)
	}
}

func TestRunnerFullQueueWaitsForOtherSide(t *testing.T) {
	r := newTestRunner(t, &fakeEngine{}, func(c *Config) { c.Pairing = PairByOrder; c.MaxPending = 2; c.PendingTimeout = time.Minute })
	fs := newFrames(t)
	ref := []Frame{fs.frame(1, -1), fs.frame(2, -1), fs.frame(3, -1)}
	dist := []Frame{fs.frame(0, -1), fs.frame(0, -1), fs.frame(0, -1)}
	done := make(chan struct{})
	go func() {
		for _, f := range ref {
			push(t, r, Ref, f)
		}
		close(done)
	}()
	select {
	case <-done:
		t.Fatal("a third reference frame was accepted into a full queue of 2")
	case <-time.After(100 * time.Millisecond):
	}
	push(t, r, Dist, dist[0])
	<-done
	push(t, r, Dist, dist[1])
	push(t, r, Dist, dist[2])
	finish(t, r)
	if c := r.Status().Counters; c.Pairs != 3 || c.Unpaired != [2]uint64{} || c.Stalls != 0 {
		t.Errorf("pairs %d unpaired %v stalls %d, want 3, none, 0", c.Pairs, c.Unpaired, c.Stalls)
	}
	fs.checkReleased()
}

func TestRunnerFullQueueStallDropsOldest(t *testing.T) {
	r := newTestRunner(t, &fakeEngine{}, func(c *Config) { c.Pairing = PairByOrder; c.MaxPending = 2; c.PendingTimeout = 50 * time.Millisecond })
	fs := newFrames(t)
	start := time.Now()
	for i := range 6 {
		push(t, r, Ref, fs.frame(byte(i), -1))
	}
	// One stall waits out the timeout; the counters below say it was one.
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("six frames into a queue of two took %v; want one stall of 50ms", d)
	}
	c := r.Status().Counters
	if c.Stalls != 1 || c.Overflow != 4 || c.Unpaired[Ref] != 4 {
		t.Errorf("stalls %d overflow %d unpaired %v, want 1, 4, [4 0]", c.Stalls, c.Overflow, c.Unpaired)
	}
	// The other side delivering ends the overflow: the queue waits again.
	push(t, r, Dist, fs.frame(0, -1))
	push(t, r, Ref, fs.frame(9, -1))
	done := make(chan struct{})
	go func() { push(t, r, Ref, fs.frame(10, -1)); close(done) }()
	select {
	case <-done:
		t.Error("the full queue did not wait again after the other side delivered")
	case <-time.After(30 * time.Millisecond):
	}
	<-done
	if c := r.Status().Counters; c.Stalls != 2 {
		t.Errorf("stalls %d, want 2", c.Stalls)
	}
	r.Close()
	fs.checkReleased()
}

func TestRunnerFlushResetsPairing(t *testing.T) {
	r := newTestRunner(t, &fakeEngine{}, func(c *Config) { c.Pairing = PairByOrder })
	recs := collect(r)
	fs := newFrames(t)
	push(t, r, Ref, fs.frame(50, -1))
	push(t, r, Ref, fs.frame(50, -1))
	flush := func() {
		for _, s := range []Side{Ref, Dist} {
			r.FlushStart(s)
			if err := r.Push(s, fs.frame(1, -1)); !errors.Is(err, ErrFlushing) {
				t.Fatalf("push while flushing: %v, want ErrFlushing", err)
			}
		}
		r.FlushStop(Ref)
		r.FlushStop(Dist)
	}
	// A flushing seek: the waiting reference frames are forgotten, not
	// counted as unpaired.
	flush()
	if st := r.Status(); st.Pending != [2]int{} || st.Counters.Unpaired != [2]uint64{} {
		t.Fatalf("after flush: pending %v unpaired %v, want none", st.Pending, st.Counters.Unpaired)
	}
	// A flush also forgets an end of stream.
	r.EndOfStream(Dist)
	flush()
	push(t, r, Ref, fs.frame(60, -1))
	push(t, r, Dist, fs.frame(20, -1))
	finish(t, r)
	got := recs.records()
	if len(got) != 1 || got[0].Score != 60 || got[0].Index != 0 {
		t.Errorf("records after the flush: %+v, want one pair scored 60 at index 0", got)
	}
	fs.checkReleased()
}

// waitState waits until the Runner's status shows state want.
func waitState(t *testing.T, r *Runner, want State) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for r.Status().State != want {
		if time.Now().After(deadline) {
			t.Fatalf("state %v after a minute, want %v", r.Status().State, want)
		}
		time.Sleep(time.Millisecond)
	}
}
