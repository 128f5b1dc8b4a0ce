package pipeline

import (
	"testing"

	"github.com/vmafsink/vmafsink/vmaf"
)

// TestStatusSwapHistory: Status keeps the last maxSwapHistory swaps,
// oldest first, each with the first pair its model scored, or superseded
// when a later swap took effect before it scored any.
func TestStatusSwapHistory(t *testing.T) {
	for _, tc := range []struct {
		name  string
		swaps int
	}{
		{"none", 0},
		{"a few", 3},
		{"exactly the bound", maxSwapHistory},
		{"past the bound", maxSwapHistory + 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newTestRunner(t, &fakeEngine{}, func(c *Config) { c.Pairing = PairByOrder })
			fs := newFrames(t)
			pair := func() {
				push(t, r, Ref, fs.frame(50, -1))
				push(t, r, Dist, fs.frame(40, -1))
			}
			pair()
			var ids []uint64
			for i := range tc.swaps {
				tk := swapTo(t, r, []*vmaf.Model{modelB, modelA}[i%2])
				pair() // pair i+1 is the swap's first
				done(t, tk, "swap")
				ids = append(ids, tk.ID)
			}
			// One more swap superseded by the next before any pair.
			var superseded uint64
			if tc.swaps > 0 {
				first := swapTo(t, r, modelC)
				last := swapTo(t, r, modelB)
				pair()
				done(t, first, "superseded swap")
				done(t, last, "last swap")
				superseded = first.ID
				ids = append(ids, first.ID, last.ID)
			}
			finish(t, r)

			sw := r.Status().Swaps
			want := ids[max(len(ids)-maxSwapHistory, 0):]
			if len(sw) != len(want) {
				t.Fatalf("%d swaps kept, want %d", len(sw), len(want))
			}
			for i, e := range sw {
				firstIndex := -1
				if e.ID != superseded {
					// Swap k (from 0) was applied before pair k+1; the
					// last one shares its first pair with the superseded.
					firstIndex = min(int(e.ID-ids[0]), tc.swaps) + 1
				}
				if e.ID != want[i] || e.Superseded != (e.ID == superseded) || e.FirstIndex != firstIndex {
					t.Errorf("swap %d: id %d superseded %v first %d; want id %d superseded %v first %d",
						i, e.ID, e.Superseded, e.FirstIndex, want[i], want[i] == superseded, firstIndex)
				}
			}
			fs.checkReleased()
		})
	}
}
