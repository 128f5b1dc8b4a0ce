package speed

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// TestCovSumMatchesScalar holds the vector covariance sums, one and four
// at a time, to covSum, bit for bit, at widths around their runs of
// eight and four.
func TestCovSumMatchesScalar(t *testing.T) {
	if !hasAVX2() {
		t.Skip("no vector kernels here")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for w := 1; w <= 20; w++ {
		for _, h := range []int{1, 2, 7} {
			x, y := make([]float64, w*h), make([]float64, w*h)
			for i := range x {
				x[i], y[i] = rng.NormFloat64()*100, rng.NormFloat64()*100
			}
			got, want := covSumAVX2(&x[0], &y[0], w, h), covSum(x, y, w, h)
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("%dx%d: %v, want %v", w, h, got, want)
			}
			// Four at once, against spans of their own.
			var ys [4]*float64
			var sums [4]float64
			others := make([][]float64, 4)
			for k := range others {
				others[k] = make([]float64, w*h)
				for i := range others[k] {
					others[k][i] = rng.NormFloat64() * 100
				}
				ys[k] = &others[k][0]
			}
			covSum4AVX2(&x[0], &ys, w, h, &sums)
			for k, got := range sums {
				if want := covSum(x, others[k], w, h); math.Float64bits(got) != math.Float64bits(want) {
					t.Errorf("%dx%d, four at once, sum %d: %v, want %v", w, h, k, got, want)
				}
			}
		}
	}
}

// TestMulMatchesScalar holds the vector product to mulLD, bit for bit,
// with zero (and negative zero) factors the product skips, on whole
// matrices and on blocks of larger ones.
func TestMulMatchesScalar(t *testing.T) {
	if !hasAVX2() {
		t.Skip("no vector kernels here")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, d := range [][3]int{{1, 1, 1}, {3, 5, 9}, {25, 25, 25}, {25, 25, 72}, {4, 7, 17}, {2, 3, 8}, {3, 4, 16}, {5, 5, 24}, {2, 2, 32}, {2, 3, 40}, {3, 2, 63}} {
		rows, inner, cols := d[0], d[1], d[2]
		for _, pad := range []int{0, 3} {
			ldd, ldx, ldy := cols+pad, inner+2*pad, cols+pad+1
			x, y := make([]float32, rows*ldx), make([]float32, inner*ldy)
			for i := range x {
				switch rng.IntN(4) {
				case 0:
					x[i] = 0
				case 1:
					x[i] = float32(math.Copysign(0, -1))
				default:
					x[i] = float32(rng.NormFloat64())
				}
			}
			for i := range y {
				y[i] = float32(rng.NormFloat64() * 10)
			}
			got, want := make([]float32, rows*ldd), make([]float32, rows*ldd)
			for i := range got {
				got[i], want[i] = 7, 7 // what lies between rows stays; the rest is cleared
			}
			mulAVX2(&got[0], &x[0], &y[0], rows, inner, cols, ldd, ldx, ldy)
			mulLD(want, x, y, rows, inner, cols, ldd, ldx, ldy)
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("%v pad %d: entry %d is %v, want %v", d, pad, i, got[i], want[i])
				}
			}
		}
	}
}

// TestBlurDecimateMatchesScalar holds the vector column pass to the
// loops, bit for bit, for filters of several kernel scales.
func TestBlurDecimateMatchesScalar(t *testing.T) {
	if !hasAVX2() {
		t.Skip("no vector kernels here")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, ks := range []float32{0.1, 1, 2.3, 4} {
		f := antialiasFilter(ks)
		for _, w := range []int{83, 960, 1003} {
			h := 90
			src := make([]float32, w*h)
			for i := range src {
				src[i] = float32(rng.NormFloat64() * 40)
			}
			dw, dh := w>>numScales, h>>numScales
			got, want := make([]float32, dw*dh), make([]float32, dw*dh)
			blurDecimate(got, src, w, h, dw, dh, f, make([]float32, w), true)
			blurDecimate(want, src, w, h, dw, dh, f, make([]float32, w), false)
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("kernel scale %g, width %d: sample %d is %v, want %v", ks, w, i, got[i], want[i])
				}
			}
		}
	}
}

// scalarOnly turns an engine's vector kernels off.
func scalarOnly(e *engine) {
	e.avx2 = false
	e.solver.avx2 = false
}

// TestExtractorsMatchScalar runs both extractors with and without the
// vector kernels on noise at every depth, with odd widths, and wants the
// same bits, converting the samples (or taking the frame differences)
// as the blur reads them or into planes first.
func TestExtractorsMatchScalar(t *testing.T) {
	if !hasAVX2() {
		t.Skip("no vector kernels here")
	}
	for i := range 8 {
		depth := []int{8, 10, 12, 16}[i%4]
		// 261 and 270 wide: every run of the kernels and a scalar tail.
		f := feature.Format{Width: 261 + 9*(i/4), Height: 187, BitDepth: depth, Chroma: feature.Chroma444}
		mask := 1<<depth - 1
		frames := make([]*feature.Frame, 3)
		for i := range frames {
			n := noise(i + 1)
			frames[i] = frame(f, func(p, x, y int) int { return (n(p, x, y)<<(depth-8) + x*y) & mask })
		}
		for _, opts := range []string{"", "speed_kernelscale=3", "speed_prescale=1.5:speed_prescale_method=bilinear"} {
			// Both extractors convert as they read, vector or not,
			// against the planes converted first.
			want := chromaValues(t, f, opts, frames, true, false)
			for _, c := range []struct {
				name   string
				scalar bool
			}{{"vector", false}, {"scalar", true}} {
				got := chromaValues(t, f, opts, frames, c.scalar, true)
				for i := range got {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Errorf("speed_chroma %d-bit %q %s: output %d is %v, want %v", depth, opts, c.name, i, got[i], want[i])
					}
				}
			}
			want = temporalValues(t, f, opts, frames, true, false)
			for _, c := range []struct {
				name   string
				scalar bool
			}{{"vector", false}, {"scalar", true}} {
				got := temporalValues(t, f, opts, frames, c.scalar, true)
				for i := range got {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Errorf("speed_temporal %d-bit %q %s: frame %d is %v, want %v", depth, opts, c.name, i, got[i], want[i])
					}
				}
			}
		}
	}
}

func chromaValues(t *testing.T, f feature.Format, opts string, frames []*feature.Frame, scalar, fuse bool) []float64 {
	t.Helper()
	s, err := ChromaKind.Parse(opts)
	if err != nil {
		t.Fatal(err)
	}
	x, err := ChromaKind.New(f, s)
	if err != nil {
		t.Fatal(err)
	}
	c := x.(*chroma)
	if scalar {
		scalarOnly(c.eng)
	}
	if !fuse || !c.fuse {
		c.fuse = false
		c.ref, c.dis = make([]float32, c.w*c.h), make([]float32, c.w*c.h)
	}
	out := make([]float64, 3)
	var all []float64
	for i := 1; i < len(frames); i++ {
		if err := x.Extract(i, frames[0], frames[i], out); err != nil {
			t.Fatal(err)
		}
		all = append(all, out...)
	}
	return all
}

func temporalValues(t *testing.T, f feature.Format, opts string, frames []*feature.Frame, scalar, fuse bool) []float64 {
	t.Helper()
	s, err := TemporalKind.Parse(opts)
	if err != nil {
		t.Fatal(err)
	}
	x, err := TemporalKind.NewSequential(f, s)
	if err != nil {
		t.Fatal(err)
	}
	tm := x.(*temporal)
	if scalar {
		scalarOnly(tm.eng)
	}
	if !fuse || !tm.fuse {
		tm.fuse = false
		tm.diffRef, tm.diffDis = make([]float32, f.Width*f.Height), make([]float32, f.Width*f.Height)
	}
	var all []float64
	emit := func(_ int, out []float64) { all = append(all, out...) }
	for i, fr := range frames {
		if err := x.Push(i, fr, frames[(i+1)%len(frames)], emit); err != nil {
			t.Fatal(err)
		}
	}
	return all
}

// TestCentreMatchesScalar holds the vector centring to float64(v) − mean,
// bit for bit.
func TestCentreMatchesScalar(t *testing.T) {
	if !hasAVX2() {
		t.Skip("no vector kernels here")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for n := 4; n <= 40; n += 4 {
		src, got := make([]float32, n), make([]float64, n)
		for i := range src {
			src[i] = float32(rng.NormFloat64() * 30)
		}
		mean := rng.NormFloat64()
		centreAVX2(&got[0], &src[0], mean, n)
		for i, v := range src {
			if want := float64(v) - mean; math.Float64bits(got[i]) != math.Float64bits(want) {
				t.Fatalf("%d samples: %d is %v, want %v", n, i, got[i], want)
			}
		}
	}
}
