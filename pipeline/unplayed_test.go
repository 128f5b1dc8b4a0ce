package pipeline

import (
	"errors"
	"sync/atomic"
	"testing"
)

// TestRunnerUnplayedPair covers the pair completed with a reference frame
// the host's sink holds unplayed: a flush of the reference forgets it,
// playing it or the reference's next frame scores it, in order.
func TestRunnerUnplayedPair(t *testing.T) {
	flushRef := func(r *Runner) {
		r.FlushStart(Ref)
		r.FlushStart(Dist)
		r.FlushStop(Ref)
		r.FlushStop(Dist)
	}
	cases := []struct {
		name string
		// after the pair (ref 50, dist 10: score 60) is kept; the next
		// pair (ref 60, dist 40) scores 80
		after      func(t *testing.T, r *Runner, fs *frames, unplayed *atomic.Bool)
		wantScores []float64
		discarded  [2]uint64
	}{
		{
			name: "flushing seek forgets it",
			after: func(t *testing.T, r *Runner, fs *frames, unplayed *atomic.Bool) {
				flushRef(r)
				unplayed.Store(false)
				push(t, r, Dist, fs.frame(40, -1))
				push(t, r, Ref, fs.frame(60, -1))
			},
			wantScores: []float64{80},
			discarded:  [2]uint64{1, 1},
		},
		{
			name: "playing scores it at the next push",
			after: func(t *testing.T, r *Runner, fs *frames, unplayed *atomic.Bool) {
				unplayed.Store(false)
				push(t, r, Dist, fs.frame(40, -1))
				push(t, r, Ref, fs.frame(60, -1))
			},
			wantScores: []float64{60, 80},
		},
		{
			name: "the reference's next frame scores it",
			after: func(t *testing.T, r *Runner, fs *frames, unplayed *atomic.Bool) {
				push(t, r, Ref, fs.frame(60, -1))
				unplayed.Store(false)
				push(t, r, Dist, fs.frame(40, -1))
			},
			wantScores: []float64{60, 80},
		},
		{
			name: "a distorted frame alone does not",
			after: func(t *testing.T, r *Runner, fs *frames, unplayed *atomic.Bool) {
				push(t, r, Dist, fs.frame(40, -1))
				flushRef(r)
			},
			discarded: [2]uint64{1, 2},
		},
		{
			name: "the end of both streams scores it",
			after: func(t *testing.T, r *Runner, fs *frames, unplayed *atomic.Bool) {
				r.EndOfStream(Dist)
				r.EndOfStream(Ref)
			},
			wantScores: []float64{60},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var unplayed atomic.Bool
			unplayed.Store(true)
			r := newTestRunner(t, &fakeEngine{}, func(c *Config) {
				c.Pairing = PairByOrder
				c.Unplayed = unplayed.Load
			})
			recs := collect(r)
			fs := newFrames(t)
			push(t, r, Dist, fs.frame(10, -1))
			push(t, r, Ref, fs.frame(50, -1))
			if st := r.Status(); st.Counters.Pairs != 0 {
				t.Fatalf("pairs counted while the reference frame is unplayed: %d", st.Counters.Pairs)
			}
			tc.after(t, r, fs, &unplayed)
			finish(t, r)
			got := recs.records()
			if len(got) != len(tc.wantScores) {
				t.Fatalf("records %+v, want scores %v", got, tc.wantScores)
			}
			for i, rec := range got {
				if rec.Index != i || rec.Score != tc.wantScores[i] {
					t.Errorf("record %d: index %d score %v, want index %d score %v", i, rec.Index, rec.Score, i, tc.wantScores[i])
				}
			}
			st := r.Status()
			if st.Counters.Discarded != tc.discarded || st.Counters.Unpaired != [2]uint64{} {
				t.Errorf("discarded %v unpaired %v, want discarded %v and none unpaired", st.Counters.Discarded, st.Counters.Unpaired, tc.discarded)
			}
			fs.checkReleased()
		})
	}
}

// TestRunnerUnplayedMismatch: a pair whose pictures disagree is reported
// at once, unplayed or not, so the host can fail the run in PAUSED.
func TestRunnerUnplayedMismatch(t *testing.T) {
	r := newTestRunner(t, &fakeEngine{}, func(c *Config) {
		c.Pairing = PairByOrder
		c.Unplayed = func() bool { return true }
	})
	fs := newFrames(t)
	push(t, r, Dist, fs.frame(10, -1))
	fs.w = 32
	var fe *FormatError
	if err := r.Push(Ref, fs.frame(50, -1)); !errors.As(err, &fe) || fe.Index != 0 {
		t.Fatalf("push of a mismatched reference frame: %v, want a FormatError for frame 0", err)
	}
	r.Close()
	fs.checkReleased()
}
