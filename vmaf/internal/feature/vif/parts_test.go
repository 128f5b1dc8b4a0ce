package vif

import (
	"fmt"
	"math"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// TestVIFParts holds the extractor's parts, each run on an instance of its
// own as the engine's workers run them, against Extract on one instance:
// the same bits, frame after frame, whichever instance runs which part.
func TestVIFParts(t *testing.T) {
	if Kind.Parts != 2 {
		t.Fatalf("Kind.Parts = %d, want 2", Kind.Parts)
	}
	for _, c := range []struct{ w, h, bpc int }{{67, 41, 8}, {67, 41, 10}, {16, 16, 8}, {96, 54, 12}, {15, 15, 8}} {
		t.Run(fmt.Sprintf("%dx%d_%dbit", c.w, c.h, c.bpc), func(t *testing.T) {
			f := feature.Format{Width: c.w, Height: c.h, BitDepth: c.bpc, Chroma: feature.Chroma400}
			newX := func() feature.Parted {
				x, err := Kind.New(f, Kind.Defaults())
				if err != nil {
					t.Fatal(err)
				}
				return x.(feature.Parted)
			}
			whole, a, b := newX(), newX(), newX()
			for i := range 3 {
				ref, dist := vifTestPair(c.w, c.h, c.bpc, 0, uint64(10+i))
				rf := &feature.Frame{Format: f, Planes: [3]feature.Plane{ref.Plane(0)}}
				df := &feature.Frame{Format: f, Planes: [3]feature.Plane{dist.Plane(0)}}
				want, got := make([]float64, 4), make([]float64, 4)
				if err := whole.Extract(i, rf, df, want); err != nil {
					t.Fatal(err)
				}
				// a and b swap parts every frame, as workers take
				// whichever task comes next.
				order := [2]int{i % 2, 1 - i%2}
				if err := a.ExtractPart(order[0], i, rf, df, got); err != nil {
					t.Fatal(err)
				}
				if err := b.ExtractPart(order[1], i, rf, df, got); err != nil {
					t.Fatal(err)
				}
				for s := range want {
					if math.Float64bits(got[s]) != math.Float64bits(want[s]) {
						t.Errorf("frame %d scale %d: parts give %v, Extract %v", i, s, got[s], want[s])
					}
				}
			}
		})
	}
}
