package ffsource

import "testing"

// Handing frames out and taking them back reuses the Source's frames:
// steady-state decoding allocates no picture memory, only the odd small
// value go-astiav boxes (its error results, such as "try again").
func TestNextAllocs(t *testing.T) {
	ref := goldenY4M(t, "flower_576x324_ref.y4m")
	for _, c := range []struct {
		name, out string
		args      []string
		max       float64
	}{
		{"zero-copy", "flower_ffv1.mkv", []string{"-c:v", "ffv1"}, 2},
		{"swscale", "flower_nv12.nut", []string{"-pix_fmt", "nv12", "-c:v", "rawvideo"}, 2},
	} {
		src := openOrFail(t, encode(t, ref, c.out, c.args...), Options{})
		allocs := testing.AllocsPerRun(20, func() {
			f, err := src.Next()
			if err != nil {
				t.Fatal(err)
			}
			f.Release()
		})
		t.Logf("%s: %.1f allocations per frame", c.name, allocs)
		if allocs > c.max {
			t.Errorf("%s: %.1f allocations per frame, want at most %v", c.name, allocs, c.max)
		}
	}
}
