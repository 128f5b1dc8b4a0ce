package tune

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

// TestEach: every call runs once, never more than the jobs at once; a
// failure is returned and cancels the calls still running.
func TestEach(t *testing.T) {
	for _, jobs := range []int{1, 2, 3} {
		s := &Session{o: SessionOptions{Jobs: jobs}}
		var running, most atomic.Int32
		seen := make([]atomic.Int32, 20)
		// With more than one job, the calls wait for each other until
		// jobs of them run at once, so the bound is reached, not assumed.
		var full sync.WaitGroup
		full.Add(jobs)
		err := s.each(context.Background(), len(seen), func(ctx context.Context, i int) error {
			n := running.Add(1)
			defer running.Add(-1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			if i < jobs {
				full.Done()
				full.Wait()
			}
			seen[i].Add(1)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for i := range seen {
			if seen[i].Load() != 1 {
				t.Errorf("jobs %d: call %d ran %d times", jobs, i, seen[i].Load())
			}
		}
		if most.Load() != int32(jobs) {
			t.Errorf("jobs %d: %d ran at once", jobs, most.Load())
		}

		// Call 1 fails while the others running wait for their
		// cancellation: no call starts after it.
		boom := errors.New("boom")
		var started atomic.Int32
		var first sync.WaitGroup // the calls that fill the slots
		first.Add(jobs)
		err = s.each(context.Background(), 10, func(ctx context.Context, i int) error {
			started.Add(1)
			if i < jobs {
				first.Done()
			}
			switch {
			case i == 1:
				if jobs > 1 {
					first.Wait()
				}
				return boom
			case jobs > 1:
				<-ctx.Done()
				return ctx.Err()
			}
			return nil
		})
		if !errors.Is(err, boom) {
			t.Errorf("jobs %d: each returned %v", jobs, err)
		}
		if n, want := started.Load(), int32(max(jobs, 2)); n != want {
			t.Errorf("jobs %d: %d calls started, want %d", jobs, n, want)
		}
	}
}
