package cambi

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// TestHistogramRuns checks the run-wise histogram updates against
// adding each pixel's window one by one, with and without the vector
// skipping: short and long runs, and rows that agree in stretches.
func TestHistogramRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct{ w, pad, levels, runs int }{
		{1, 1, 2, 4}, {7, 3, 3, 4}, {40, 16, 4, 4}, {100, 4, 2, 4}, {300, 32, 6, 4},
		{100, 4, 2, 50}, {333, 32, 3, 90}, {700, 10, 5, 200},
	} {
		for trial := 0; trial < 100; trial++ {
			row := func() []int16 {
				r := make([]int16, tc.w)
				for j := range r {
					if j == 0 || rng.IntN(tc.runs) == 0 { // runs of one level
						r[j] = int16(rng.IntN(tc.levels+1) - 1)
					} else {
						r[j] = r[j-1]
					}
				}
				return r
			}
			a, b := row(), row()
			if trial%2 == 1 {
				// b is a with a few stretches changed.
				c := row()
				b = slices.Clone(a)
				for range 3 {
					j := rng.IntN(tc.w)
					copy(b[j:min(j+rng.IntN(tc.runs)+1, tc.w)], c[j:])
				}
			}
			vec := trial%4 < 2 && hasVector()
			got := make([]uint16, tc.levels*tc.w)
			want := make([]uint16, tc.levels*tc.w)
			addRows(got, b, tc.w, tc.pad, 1)
			slideRows(got, a, b, tc.w, tc.pad, vec)
			for j, r := range a {
				if r < 0 {
					continue
				}
				for x := max(j-tc.pad, 0); x < min(j+tc.pad+1, tc.w); x++ {
					want[int(r)*tc.w+x]++
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("w %d pad %d vector %v rows %v then %v: got %v, want %v", tc.w, tc.pad, vec, b, a, got, want)
			}
			addRows(got, a, tc.w, tc.pad, -1)
			if slices.ContainsFunc(got, func(v uint16) bool { return v != 0 }) {
				t.Fatalf("w %d pad %d: counts left after removing every pixel: %v", tc.w, tc.pad, got)
			}
		}
	}
}

func TestTopKMean(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 10, 1000} {
		for _, topk := range []float64{0.0001, 0.2, 0.6, 1} {
			c := make([]float32, n)
			for i := range c {
				if rng.IntN(3) > 0 {
					c[i] = float32(rng.IntN(20)) / 4 // ties are common
				}
			}
			k := min(max(int(topk*float64(n)), 1), n)
			sorted := slices.Clone(c)
			slices.Sort(sorted)
			slices.Reverse(sorted)
			want := 0.0
			for _, v := range sorted[:k] {
				want += float64(v)
			}
			want /= float64(k)
			var pos []float32
			sum := 0.0
			for _, v := range c {
				if v > 0 {
					pos = append(pos, v)
					sum += float64(v)
				}
			}
			if got := topKMean(pos, sum, n, topk); got != want {
				t.Errorf("n %d topk %g: got %g, want %g", n, topk, got, want)
			}
		}
	}
}

// TestReciprocals checks entries of libvmaf's table where it differs
// from float32(1)/float32(i).
func TestReciprocals(t *testing.T) {
	for i, want := range map[int]float32{0: 0, 1: 1, 3: 0.333333333, 82: 0.0121951224, 83: 0.0120481928, 244: 0.00409836089, 4225: 0.000236686391} {
		if reciprocals[i] != want {
			t.Errorf("reciprocal %d: %g, want %g", i, reciprocals[i], want)
		}
	}
}

// TestHeatmaps checks the files' names and layout, and that instances of
// one stream share them rather than truncating each other's frames.
func TestHeatmaps(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "maps")
	f := feature.Format{Width: 640, Height: 360, BitDepth: 8, Chroma: feature.Chroma420}
	s, err := Kind.Parse("heatmaps_path=" + dir)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Kind.New(f, s)
	if err != nil {
		t.Fatal(err)
	}
	fr := bandedFrame(f, 0)
	out := make([]float64, 1)
	if err := a.Extract(0, fr, fr, out); err != nil {
		t.Fatal(err)
	}
	b, err := Kind.New(f, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Extract(2, fr, fr, out); err != nil {
		t.Fatal(err)
	}
	a.Close()
	b.Close()
	w, h := 640, 360
	for scale := range numScales {
		name := filepath.Join(dir, fmt.Sprintf("cambi_heatmap_scale_%d_%dx%d_16b.gray", scale, w, h))
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		plane := 2 * w * h
		if len(data) != 3*plane {
			t.Fatalf("%s: %d bytes, want 3 frames of %d", name, len(data), plane)
		}
		if !slices.Equal(data[:plane], data[2*plane:]) || slices.Equal(data[:plane], data[plane:2*plane]) {
			t.Errorf("%s: frames 0 and 2 should be equal and frame 1 empty", name)
		}
		w, h = (w+1)/2, (h+1)/2
	}
}

// randomLevels is a w x h picture of a few levels in patches, so that
// flat pixels, runs and ties all occur.
func randomLevels(rng *rand.Rand, w, h int) []uint16 {
	img := make([]uint16, w*h)
	for i := range img {
		switch {
		case i > w && rng.IntN(3) > 0:
			img[i] = img[i-w]
		case i > 0 && rng.IntN(2) > 0:
			img[i] = img[i-1]
		default:
			img[i] = uint16(100 + rng.IntN(4))
		}
	}
	return img
}

// TestSpatialMask checks the flat-pixel mask against its definition,
// with and without the vector kernels.
func TestSpatialMask(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, size := range [][2]int{{1, 1}, {1, 9}, {9, 1}, {3, 3}, {8, 8}, {23, 17}, {64, 40}, {6, 9}, {22, 9}, {40, 12}, {131, 20}} {
		for _, vec := range []bool{false, hasVector()} {
			testSpatialMask(t, rng, size[0], size[1], vec)
		}
	}
}

func testSpatialMask(t *testing.T, rng *rand.Rand, w, h int, vec bool) {
	{
		img := randomLevels(rng, w, h)
		b := buffers{flat: make([]uint8, 8*w), colSums: make([]int32, w)}
		got := make([]uint8, w*h)
		spatialMask(img, got, w, h, &b, vec)
		at := func(x, y int) uint16 { return img[y*w+x] }
		limit := maskIndex(w, h)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				n := 0
				for yy := max(y-3, 0); yy <= min(y+3, h-1); yy++ {
					for xx := max(x-3, 0); xx <= min(x+3, w-1); xx++ {
						if (xx == w-1 || at(xx, yy) == at(xx+1, yy)) && (yy == h-1 || at(xx, yy) == at(xx, yy+1)) {
							n++
						}
					}
				}
				if want := b2u(n > limit); got[y*w+x] != want {
					t.Fatalf("%dx%d vector %v (%d,%d): mask %d, want %d", w, h, vec, x, y, got[y*w+x], want)
				}
			}
		}
	}
}

// TestModeFilter checks the 3x3 mode filter against its definition,
// with and without the vector kernel.
func TestModeFilter(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, size := range [][2]int{{1, 1}, {1, 5}, {5, 1}, {2, 3}, {3, 3}, {9, 7}, {33, 20}, {34, 5}, {35, 4}, {97, 9}, {130, 6}} {
		for _, vec := range []bool{false, hasVector()} {
			w, h := size[0], size[1]
			img := randomLevels(rng, w, h)
			orig := slices.Clone(img)
			modeFilter(img, w, h, make([]uint16, 3*w), vec)
			at := func(x, y int) uint16 { return orig[y*w+x] }
			hmode := func(x, y int) uint16 {
				if x == 0 || x == w-1 {
					return at(x, y)
				}
				return mode3(at(x-1, y), at(x, y), at(x+1, y))
			}
			for y := 0; y < h; y++ {
				for x := 0; x < w; x++ {
					want := at(x, y)
					if y > 0 && y < h-1 {
						want = mode3(hmode(x, y-1), hmode(x, y), hmode(x, y+1))
					}
					if img[y*w+x] != want {
						t.Fatalf("%dx%d vector %v (%d,%d): %d, want %d", w, h, vec, x, y, img[y*w+x], want)
					}
				}
			}
		}
	}
}

func TestMode3(t *testing.T) {
	for a := uint16(0); a < 4; a++ {
		for b := uint16(0); b < 4; b++ {
			for c := uint16(0); c < 4; c++ {
				want := min(a, b, c) // all differ: the lowest
				for _, v := range []uint16{a, b, c} {
					n := 0
					for _, u := range []uint16{a, b, c} {
						if u == v {
							n++
						}
					}
					if n >= 2 {
						want = v
					}
				}
				if got := mode3(a, b, c); got != want {
					t.Errorf("mode3(%d, %d, %d) = %d, want %d", a, b, c, got, want)
				}
			}
		}
	}
}

func TestLanesMode3(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	pack := func(v [4]uint16) uint64 {
		return uint64(v[0]) | uint64(v[1])<<16 | uint64(v[2])<<32 | uint64(v[3])<<48
	}
	for range 100000 {
		var a, b, c, want [4]uint16
		for i := range 4 {
			// Few distinct levels for ties, and the extremes 0 and 1024.
			pick := func() uint16 { return []uint16{0, 1, 2, 1023, 1024}[rng.IntN(5)] }
			a[i], b[i], c[i] = pick(), pick(), pick()
			want[i] = mode3(a[i], b[i], c[i])
		}
		if got := lanesMode3(pack(a), pack(b), pack(c)); got != pack(want) {
			t.Fatalf("lanesMode3(%v, %v, %v) = %#x, want %v", a, b, c, got, want)
		}
	}
}
