package motion

import (
	"fmt"
	"math"
	"os"
	"sort"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/testpic"
)

// basicFeatWorst tracks the largest difference from libvmaf per feature.
type basicFeatWorst map[string]struct {
	diff  float64
	where string
	n     int
}

func (w basicFeatWorst) add(feature, where string, diff float64) {
	e := w[feature]
	if diff > e.diff || e.n == 0 {
		e.diff, e.where = diff, where
	}
	e.n++
	w[feature] = e
}

func (w basicFeatWorst) report(t *testing.T) {
	names := make([]string, 0, len(w))
	for k := range w {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		e := w[k]
		t.Logf("%-40s worst |diff| %.3g over %d frames (%s)", k, e.diff, e.n, e.where)
	}
}

// goldenFrameCap is how many frames per pair the golden tests read: 12 by
// default, all of them with VMAF_FULL_GOLDENS=1.
func goldenFrameCap() int {
	if os.Getenv("VMAF_FULL_GOLDENS") == "1" {
		return 0
	}
	return 12
}

// libvmaf prints 6 decimals: identical output means a difference below
// half a unit in the last place.
const goldenTolerance = 5e-7

// TestGoldenMotion checks integer motion against libvmaf's output for every golden pair.
func TestGoldenMotion(t *testing.T) {
	worst := basicFeatWorst{}
	defer worst.report(t)
	limit := goldenFrameCap()
	for _, name := range testpic.GoldenNames(t) {
		t.Run(name, func(t *testing.T) {
			// Read one frame more than is checked: motion2 of a frame
			// depends on the next one.
			load := 0
			if limit > 0 {
				load = limit + 1
			}
			g := testpic.LoadGolden(t, name, load)
			n := len(g.Ref)
			checked := n
			if limit > 0 && n > limit {
				checked = limit
			}
			if len(g.Frames) < n {
				t.Fatalf("%d frames but %d golden score sets", n, len(g.Frames))
			}
			check := func(i int, feature string, got float64) {
				t.Helper()
				want, ok := g.Frames[i][feature]
				if !ok {
					return
				}
				d := math.Abs(got - want)
				worst.add(feature, name, d)
				// Equal printed values are the real bar; the tolerance
				// only bounds how far off a mismatch is.
				if p, q := fmt.Sprintf("%.6f", got), fmt.Sprintf("%.6f", want); p != q || !(d < goldenTolerance) {
					t.Errorf("frame %d %s: got %.9f (prints %s), libvmaf %s", i, feature, got, p, q)
				}
			}
			checkGoldenMotion(t, g, check, checked)
		})
	}
}

// checkGoldenMotion feeds all n frames through the blur/SAD split and the
// in-order sequence; it checks motion2 and motion3 only of frames whose
// successor was fed, or after flush when the clip ended.
func checkGoldenMotion(t *testing.T, g *testpic.Golden, check func(int, string, float64), checked int) {
	ref0 := g.Ref[0]
	w, h := ref0.Width, ref0.Height
	blur := NewBlur(w, h, ref0.BitDepth)
	cur, prev := NewFrame(w, h), NewFrame(w, h)
	var seq Seq
	n := len(g.Ref)
	seen := 0
	take := func() {
		for {
			m, ok := seq.Next()
			if !ok {
				return
			}
			if m.Index != seen {
				t.Fatalf("motion values for frame %d, want %d", m.Index, seen)
			}
			seen++
			if m.Index < checked {
				check(m.Index, "VMAF_integer_feature_motion_sad_score", m.SAD)
				check(m.Index, "integer_motion2", m.Motion2)
				check(m.Index, "integer_motion3", m.Motion3)
			}
		}
	}
	for i := 0; i < n; i++ {
		blur.Blur(g.Ref[i].Plane(0), cur)
		sad := 0.0
		if i > 0 {
			sad = SAD(cur, prev)
		}
		cur, prev = prev, cur
		seq.Push(sad)
		take()
	}
	if n == checked {
		seq.Flush()
		take()
	}
	if seen < checked {
		t.Fatalf("motion values for %d frames, want %d", seen, checked)
	}
}
