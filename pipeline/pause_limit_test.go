package pipeline

import (
	"testing"
	"time"
)

// TestFaultPauseBlockLimit: a block pause holds a pusher at most
// PauseBlockLimit; then the Runner resumes by itself, says so, and the
// held frames are scored, not lost. Without a limit the pusher stays held.
func TestFaultPauseBlockLimit(t *testing.T) {
	for _, tc := range []struct {
		name     string
		limit    time.Duration
		released bool
	}{
		{"bounded", 200 * time.Millisecond, true},
		{"unbounded", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expired := make(chan int, 1)
			r := newTestRunner(t, &fakeEngine{}, func(c *Config) {
				c.Pairing, c.PauseMode, c.PauseBlockLimit = PairByOrder, PauseBlock, tc.limit
				c.OnPauseExpired = func(next int) { expired <- next }
			})
			fs := newFrames(t)
			if err := r.Push(Ref, fs.frame(1, -1)); err != nil {
				t.Fatal(err)
			}
			if err := r.Push(Dist, fs.frame(1, -1)); err != nil {
				t.Fatal(err)
			}
			p, _ := r.Pause()
			done := make(chan error, 2)
			start := time.Now()
			go func() { done <- r.Push(Ref, fs.frame(2, -1)) }()
			<-p.Done()
			// Released, the push returns once the limit expires the pause
			// (the deadline only ends a hang); unreleased, it is still held
			// a while later.
			hold := 3 * time.Second
			if tc.released {
				hold = tc.limit + time.Minute
			}
			select {
			case err := <-done:
				if !tc.released {
					t.Fatalf("push returned %v after %v with no limit", err, time.Since(start))
				}
				if err != nil {
					t.Fatal(err)
				}
				if d := time.Since(start); d < tc.limit {
					t.Errorf("push held %v, limit %v", d, tc.limit)
				}
				if next := <-expired; next != 1 {
					t.Errorf("pause expired before pair %d, want 1", next)
				}
				if st := r.Status(); st.State != Running {
					t.Errorf("state %v after the limit, want running", st.State)
				}
			case <-time.After(hold):
				if tc.released {
					t.Fatalf("push still held %v past the limit", hold-tc.limit)
				}
				r.Resume()
				if err := <-done; err != nil {
					t.Fatal(err)
				}
			}
			if err := r.Push(Dist, fs.frame(2, -1)); err != nil {
				t.Fatal(err)
			}
			if err := r.Finish(); err != nil {
				t.Fatal(err)
			}
			if c := r.Status().Counters; c.Scored != 2 || c.Skipped != 0 {
				t.Errorf("scored %d skipped %d, want 2 and 0", c.Scored, c.Skipped)
			}
			r.Close()
			fs.checkReleased()
		})
	}
}

// TestRunnerOnApplied: hosts hear of every command as it is applied, with
// the index of the first pair it governs, before a block pause holds the
// pusher that applied it.
func TestRunnerOnApplied(t *testing.T) {
	type seen struct {
		kind CommandKind
		next int
	}
	got := make(chan seen, 8)
	r := newTestRunner(t, &fakeEngine{}, func(c *Config) {
		c.Pairing, c.PauseMode = PairByOrder, PauseBlock
		c.OnApplied = func(k CommandKind, next int) { got <- seen{k, next} }
	})
	fs := newFrames(t)
	for _, s := range []Side{Ref, Dist} {
		if err := r.Push(s, fs.frame(1, -1)); err != nil {
			t.Fatal(err)
		}
	}
	r.Pause()
	done := make(chan error, 1)
	go func() { done <- r.Push(Ref, fs.frame(2, -1)) }()
	select {
	case s := <-got:
		if s != (seen{Pause, 1}) {
			t.Errorf("first applied %v at %d, want pause at 1", s.kind, s.next)
		}
	case <-time.After(time.Minute):
		t.Fatal("no call for the pause while the pusher is held")
	}
	r.Resume()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != (seen{Resume, 1}) {
		t.Errorf("then %v at %d, want resume at 1", s.kind, s.next)
	}
	r.Close()
	fs.checkReleased()
}
