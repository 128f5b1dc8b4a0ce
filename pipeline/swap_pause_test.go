package pipeline

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/vmaf"
)

var modelC = &vmaf.Model{Name: "vmaf", Version: "model_c"}

// done waits a little for a ticket, which must be done by then.
func done(t *testing.T, tk *Ticket, what string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := tk.Wait(ctx); err != nil {
		t.Fatalf("%s: not answered: %v", what, err)
	}
}

func swapTo(t *testing.T, r *Runner, m *vmaf.Model) *Ticket {
	t.Helper()
	tk, err := r.RequestSwap(m)
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// TestFaultSwapsWhilePaused: a swap while paused takes effect at the next
// frame boundary and is answered then, with no first frame; a second one
// supersedes it, and the history says the first never scored a frame and
// the second scored the first pair after the resume.
func TestFaultSwapsWhilePaused(t *testing.T) {
	for _, mode := range []PauseMode{PauseSkip, PauseBlock} {
		t.Run(mode.String(), func(t *testing.T) {
			r := newTestRunner(t, &fakeEngine{}, func(c *Config) { c.Pairing = PairByOrder; c.PauseMode = mode })
			recs := collect(r)
			fs := newFrames(t)
			pair := func() {
				push(t, r, Ref, fs.frame(50, -1))
				push(t, r, Dist, fs.frame(40, -1))
			}
			pair() // 0, model A
			p, _ := r.Pause()
			resumed := make(chan error, 1)
			if mode == PauseSkip {
				pair() // 1, skipped
				resumed <- nil
			} else {
				// The pushers wait at the boundary; commands still take
				// effect there.
				go func() {
					err := r.Push(Ref, fs.frame(50, -1))
					if err == nil {
						err = r.Push(Dist, fs.frame(40, -1))
					}
					resumed <- err // 1, after the resume
				}()
			}
			done(t, p, "pause")
			first := swapTo(t, r, modelB)
			if mode == PauseSkip {
				pair() // 2, skipped: the boundary where the swap takes effect
			}
			done(t, first, "swap while paused")
			if first.Err() != nil || !first.Paused() || first.FirstIndex() != -1 || first.Superseded() {
				t.Fatalf("swap while paused: err %v paused %v first %d superseded %v, want nil, true, -1, false",
					first.Err(), first.Paused(), first.FirstIndex(), first.Superseded())
			}
			second := swapTo(t, r, modelC)
			if mode == PauseSkip {
				pair() // 3, skipped
			}
			done(t, second, "second swap while paused")
			if st := r.Status(); st.Models[0] != modelC {
				t.Errorf("status names %s, want model_c", st.Models[0].Version)
			}
			if _, err := r.Resume(); err != nil {
				t.Fatal(err)
			}
			if mode == PauseSkip {
				pair() // 4, model C
			}
			if err := <-resumed; err != nil {
				t.Fatal(err)
			}
			finish(t, r)
			want := 4
			if mode == PauseBlock {
				want = 1
			}
			sw := r.Status().Swaps
			if len(sw) != 2 || sw[0].FirstIndex != -1 || !sw[0].Superseded || sw[1].FirstIndex != want || sw[1].Superseded {
				t.Errorf("swap history %+v, want the first superseded without a frame, the second from %d", sw, want)
			}
			for _, rec := range recs.records() {
				if m := rec.Model(); (rec.Index < want) != (m == modelA) || (rec.Index >= want) != (m == modelC) {
					t.Errorf("frame %d scored by %s", rec.Index, m.Version)
				}
			}
			fs.checkReleased()
		})
	}
}

// TestFaultSwapSupersededWhileRunning: two swaps taking effect at one
// boundary; the first is answered as superseded, not with the second's frame.
func TestFaultSwapSupersededWhileRunning(t *testing.T) {
	r := newTestRunner(t, &fakeEngine{}, func(c *Config) { c.Pairing = PairByOrder })
	fs := newFrames(t)
	push(t, r, Ref, fs.frame(50, -1))
	push(t, r, Dist, fs.frame(40, -1))
	first, second := swapTo(t, r, modelB), swapTo(t, r, modelC)
	push(t, r, Ref, fs.frame(50, -1))
	push(t, r, Dist, fs.frame(40, -1))
	done(t, first, "first swap")
	done(t, second, "second swap")
	if !first.Superseded() || first.FirstIndex() != -1 || second.Superseded() || second.FirstIndex() != 1 {
		t.Errorf("first: superseded %v at %d; second: superseded %v at %d; want true -1, false 1",
			first.Superseded(), first.FirstIndex(), second.Superseded(), second.FirstIndex())
	}
	finish(t, r)
	fs.checkReleased()
}

// TestFaultEOSWithPendingSwap: the end of the stream answers every swap
// still waiting, and the run finishes.
func TestFaultEOSWithPendingSwap(t *testing.T) {
	for _, tc := range []struct {
		name    string
		applied bool // a boundary passed before the end
	}{
		{"queued", false},
		{"applied", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newTestRunner(t, &fakeEngine{}, func(c *Config) { c.Pairing = PairByOrder })
			fs := newFrames(t)
			push(t, r, Ref, fs.frame(50, -1))
			push(t, r, Dist, fs.frame(40, -1))
			tk := swapTo(t, r, modelB)
			waited := make(chan error, 1)
			go func() { waited <- tk.Wait(context.Background()) }()
			if tc.applied {
				push(t, r, Ref, fs.frame(50, -1)) // its partner never comes
			}
			finish(t, r)
			select {
			case err := <-waited:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("the wait was not answered at the end of the stream")
			}
			if tc.applied && (tk.Err() != nil || tk.FirstIndex() != -1) {
				t.Errorf("applied swap: err %v first %d, want nil and -1", tk.Err(), tk.FirstIndex())
			}
			if !tc.applied && !errors.Is(tk.Err(), ErrFinished) {
				t.Errorf("queued swap: err %v, want ErrFinished", tk.Err())
			}
			unpaired := uint64(0)
			if tc.applied {
				unpaired = 1
			}
			if c := r.Status().Counters; c.Scored != 1 || c.Unpaired[Ref] != unpaired {
				t.Errorf("scored %d unpaired %v, want 1 and %d reference frames", c.Scored, c.Unpaired, unpaired)
			}
			fs.checkReleased()
		})
	}
}

func TestTicketWaitHonoursCancellation(t *testing.T) {
	r := newTestRunner(t, &fakeEngine{}, nil)
	tk := swapTo(t, r, modelB)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := tk.Wait(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("wait with a cancelled context: %v, want context.Canceled", err)
	}
}

// TestFaultSwapPoolsPerModel: after a swap between two models of one name,
// Pooled keeps each model's frames apart instead of averaging them.
func TestFaultSwapPoolsPerModel(t *testing.T) {
	a, err := vmaf.BuiltinModel("vmaf_v0.6.1")
	if err != nil {
		t.Fatal(err)
	}
	b, err := vmaf.BuiltinModel("vmaf_v0.6.1neg")
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRunner(t, &fakeEngine{}, func(c *Config) {
		c.Pairing = PairByOrder
		c.Scorer.Models = []*vmaf.Model{a}
	})
	fs := newFrames(t)
	pair := func(dist byte) {
		push(t, r, Ref, fs.frame(50, -1))
		push(t, r, Dist, fs.frame(dist, -1))
	}
	for range 3 {
		pair(40) // the fake scores 100-(50-40) = 90
	}
	tk := swapTo(t, r, b)
	pair(30) // 80
	pair(30)
	done(t, tk, "swap")
	finish(t, r)
	got := map[string]vmaf.Pooled{}
	for _, p := range r.Pooled() {
		got[p.Name] = p
	}
	if p := got["vmaf"]; p.Count != 3 || p.Mean != 90 {
		t.Errorf("vmaf pooled over %d frames, mean %v; want 3 and 90", p.Count, p.Mean)
	}
	if p := got["vmaf_v0.6.1neg"]; p.Count != 2 || p.Mean != 80 {
		t.Errorf("vmaf_v0.6.1neg pooled over %d frames, mean %v; want 2 and 80", p.Count, p.Mean)
	}
	if k := r.Status().ModelKeys; len(k) != 1 || k[0] != "vmaf_v0.6.1neg" {
		t.Errorf("model keys %v, want [vmaf_v0.6.1neg]", k)
	}
	fs.checkReleased()
}
