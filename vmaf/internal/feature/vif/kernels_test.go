package vif

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/testpic"
)

// The vector kernels must give exactly the portable kernels' bits. These
// tests hold every kernel set this machine runs against vifScalarKernels,
// row by row with samples over the full range of every depth (so that the
// sums reach the edges of their integer types), and frame by frame.

// column reads the five vertical sums of padded column i from whichever
// layout the kernel set writes.
func (b *vifRowBuf) column(i int) vifCol {
	if b.words == nil {
		return b.cols[i]
	}
	return vifCol{b.word(vifWordMu1, i), b.word(vifWordMu2, i),
		b.moment(vifWordXXHi, i), b.moment(vifWordYYHi, i), b.moment(vifWordXYHi, i)}
}

// vifRandRows returns n rows of w samples below 1<<bits, drawn from a mix
// of uniform noise, extremes and runs, so that the windows see both flat
// and maximal-variance stretches.
func vifRandRows[T uint8 | uint16](rng *rand.Rand, n, w, bits int) [][]T {
	maxV := 1<<bits - 1
	rows := make([][]T, n)
	for k := range rows {
		rows[k] = make([]T, w)
		for j := range rows[k] {
			switch rng.IntN(4) {
			case 0:
				rows[k][j] = T(maxV)
			case 1:
				rows[k][j] = 0
			default:
				rows[k][j] = T(rng.IntN(maxV + 1))
			}
		}
	}
	return rows
}

// vifEachVecKernelSet runs f as a subtest for every vector kernel set of
// this build, skipping, by name, those this machine cannot run.
func vifEachVecKernelSet(t *testing.T, f func(t *testing.T, k *vifKernels)) {
	sets := vifVecKernelSupport()
	if len(sets) == 0 {
		t.Skip("this build has only the portable VIF kernels")
	}
	for _, s := range sets {
		t.Run(s.k.name, func(t *testing.T) {
			if !s.ok {
				t.Skipf("this CPU or OS does not support the %s VIF kernels", s.k.name)
			}
			f(t, s.k)
		})
	}
}

// vifKernelWidths covers widths below, at and around the vector blocks
// (8 to 64 columns, by kernel and width), and their sums.
var vifKernelWidths = []int{1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65, 95, 111, 127, 128, 129, 200}

func TestVIFKernelRowsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	vifEachVecKernelSet(t, func(t *testing.T, k *vifKernels) {
		for _, w := range vifKernelWidths {
			for s, taps := range vifFilters {
				name := fmt.Sprintf("%s/w%d/scale%d", k.name, w, s)
				want, got := newVIFRowBuf(w, false), newVIFRowBuf(w, k.wordRows)
				check := func(what string) {
					t.Helper()
					for i := vifPad; i < vifPad+w; i++ {
						if a, b := want.column(i), got.column(i); a != b {
							t.Fatalf("%s %s: column %d = %+v, portable %+v", name, what, i-vifPad, b, a)
						}
					}
				}
				checkSigmas := func(what string) {
					t.Helper()
					for j := range w {
						a := [3]int32{want.sigma1Sq[j], want.sigma2Sq[j], want.sigma12[j]}
						b := [3]int32{got.sigma1Sq[j], got.sigma2Sq[j], got.sigma12[j]}
						if a != b {
							t.Fatalf("%s %s: column %d sigmas %v, portable %v", name, what, j, b, a)
						}
					}
				}
				horizontal := func(what string) {
					t.Helper()
					want.mirrorMoments(w, len(taps)/2)
					got.mirrorMoments(w, len(taps)/2)
					vifScalarKernels.horizontal(&want, taps, w)
					k.horizontal(&got, taps, w)
					checkSigmas(what)
				}
				if w >= len(taps)/2+1 {
					r8, d8 := vifRandRows[uint8](rng, len(taps), w, 8), vifRandRows[uint8](rng, len(taps), w, 8)
					vifScalarKernels.vertical8(&want, r8, d8, taps, w)
					k.vertical8(&got, r8, d8, taps, w)
					check("vertical8")
					horizontal("vertical8+horizontal")
					for _, bits := range []int{9, 10, 12, 16} {
						r, d := vifRandRows[uint16](rng, len(taps), w, bits), vifRandRows[uint16](rng, len(taps), w, bits)
						mu, sq := uint(bits), uint(2*(bits-8))
						if s > 0 {
							mu, sq = 16, 16
						}
						vifScalarKernels.vertical16(&want, r, d, taps, w, mu, sq)
						k.vertical16(&got, r, d, taps, w, mu, sq)
						check(fmt.Sprintf("vertical16 %d-bit", bits))
						horizontal(fmt.Sprintf("vertical16 %d-bit+horizontal", bits))
					}
				}
				r8, d8 := vifRandRows[uint8](rng, len(taps), w, 8), vifRandRows[uint8](rng, len(taps), w, 8)
				vifScalarKernels.means8(&want, r8, d8, taps, w, 8)
				k.means8(&got, r8, d8, taps, w, 8)
				checkMeans(t, name+" means8", &want, &got, w)
				for _, shift := range []uint{10, 16} {
					r, d := vifRandRows[uint16](rng, len(taps), w, int(shift)), vifRandRows[uint16](rng, len(taps), w, int(shift))
					vifScalarKernels.means16(&want, r, d, taps, w, shift)
					k.means16(&got, r, d, taps, w, shift)
					checkMeans(t, fmt.Sprintf("%s means16>>%d", name, shift), &want, &got, w)
					if w > len(taps)/2 {
						checkDecimate(t, name, k, &want, &got, taps, w)
					}
				}
			}
		}
	})
}

func checkMeans(t *testing.T, name string, want, got *vifRowBuf, w int) {
	t.Helper()
	for i := vifPad; i < vifPad+w; i++ {
		if want.mu1[i] != got.mu1[i] || want.mu2[i] != got.mu2[i] {
			t.Fatalf("%s: column %d = %d,%d, portable %d,%d", name, i-vifPad, got.mu1[i], got.mu2[i], want.mu1[i], want.mu2[i])
		}
	}
}

func checkDecimate(t *testing.T, name string, k *vifKernels, want, got *vifRowBuf, taps []uint16, w int) {
	t.Helper()
	vifMirrorEnds(want.mu1, w, len(taps)/2)
	vifMirrorEnds(want.mu2, w, len(taps)/2)
	vifMirrorEnds(got.mu1, w, len(taps)/2)
	vifMirrorEnds(got.mu2, w, len(taps)/2)
	wr, wd := make([]uint16, w/2), make([]uint16, w/2)
	gr, gd := make([]uint16, w/2), make([]uint16, w/2)
	vifScalarKernels.decimate(wr, wd, want.mu1, want.mu2, taps)
	k.decimate(gr, gd, got.mu1, got.mu2, taps)
	for j := range wr {
		if wr[j] != gr[j] || wd[j] != gd[j] {
			t.Fatalf("%s decimate: output %d = %d,%d, portable %d,%d", name, j, gr[j], gd[j], wr[j], wd[j])
		}
	}
}

// vifKernelFrame fills a test pair with one of several contents.
func vifKernelFrame(w, h, bpc, kind int, seed uint64) (ref, dist *testpic.Picture) {
	ref, dist = vifTestPair(w, h, bpc, 3, seed)
	maxV := 1<<bpc - 1
	rng := rand.New(rand.NewPCG(seed, 2))
	for y := range h {
		for x := range w {
			switch kind {
			case 1: // checkerboard of extremes against its inverse
				v := 0
				if (x+y)%2 == 0 {
					v = maxV
				}
				vifPutSample(ref, x, y, v)
				vifPutSample(dist, x, y, maxV-v)
			case 2: // flat white against noise
				vifPutSample(ref, x, y, maxV)
				vifPutSample(dist, x, y, rng.IntN(maxV+1))
			case 3: // independent noise
				vifPutSample(ref, x, y, rng.IntN(maxV+1))
				vifPutSample(dist, x, y, rng.IntN(maxV+1))
			}
		}
	}
	return ref, dist
}

func TestVIFKernelFramesAgree(t *testing.T) {
	sizes := [][2]int{{16, 16}, {17, 23}, {31, 18}, {67, 41}, {130, 77}, {257, 35}}
	vifEachVecKernelSet(t, func(t *testing.T, k *vifKernels) {
		for _, bpc := range []int{8, 9, 10, 12, 16} {
			for i, sz := range sizes {
				for kind := range 4 {
					ref, dist := vifKernelFrame(sz[0], sz[1], bpc, kind, uint64(100*i+kind))
					for _, egl := range []float64{vifDefaultEnhnGainLimit, 1} {
						opt := vifOptions{enhnGainLimit: egl}
						want := newVIFWith(sz[0], sz[1], bpc, opt, &vifScalarKernels).scaleSums(ref.Plane(0), dist.Plane(0), 0, 3)
						got := newVIFWith(sz[0], sz[1], bpc, opt, k).scaleSums(ref.Plane(0), dist.Plane(0), 0, 3)
						if got != want {
							t.Errorf("%s %dx%d %d-bit content %d egl %g: sums %+v, portable %+v",
								k.name, sz[0], sz[1], bpc, kind, egl, got, want)
						}
					}
				}
			}
		}
	})
}

// vifRandSigmas returns n variances and covariances as the horizontal pass
// yields them: variances up to the largest a 16-bit picture allows, a few
// slightly negative from rounding, many near the noise variance where the
// two cases of the statistics meet, flat stretches below it, covariances within the Cauchy-Schwarz
// bound give or take rounding, and every sign combination; and now and
// then any 32-bit value at all, which no picture yields but on which the
// kernels still agree.
func vifRandSigmas(rng *rand.Rand, n int) (s1, s2, s12 []int32) {
	s1, s2, s12 = make([]int32, n), make([]int32, n), make([]int32, n)
	variance := func() int32 {
		switch rng.IntN(6) {
		case 5:
			return int32(rng.Uint32())
		case 0:
			return int32(rng.IntN(2000)) - 1000
		case 1:
			return vifSigmaNsq + int32(rng.IntN(64)) - 32
		case 2:
			return int32(rng.IntN(1 << 30))
		default:
			return int32(rng.IntN(1 << 20))
		}
	}
	flat := 0 // pixels left in a flat stretch, below the noise variance
	for j := range s1 {
		s1[j], s2[j] = variance(), variance()
		if flat == 0 && rng.IntN(16) == 0 {
			flat = rng.IntN(40)
		}
		if flat > 0 {
			flat--
			s1[j] = vifSigmaNsq - 1 - int32(rng.IntN(1<<18))
		}
		bound := math.Sqrt(math.Max(float64(s1[j]), 0) * math.Max(float64(s2[j]), 0))
		s12[j] = int32((2*rng.Float64()-1)*bound) + int32(rng.IntN(64)) - 32
		if rng.IntN(8) == 0 {
			s12[j] = int32(rng.Uint32())
		}
	}
	return s1, s2, s12
}

func TestVIFKernelStatsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	lg := vifLog2()
	vifEachVecKernelSet(t, func(t *testing.T, k *vifKernels) {
		for _, w := range append(vifKernelWidths, 5000, 20000) {
			s1, s2, s12 := vifRandSigmas(rng, w)
			for _, limit := range []float64{vifDefaultEnhnGainLimit, 1, 2.5} {
				var want, got vifSums
				want.addRow(s1, s2, s12, limit, lg)
				k.accumulate(&got, s1, s2, s12, limit, lg)
				if got != want {
					t.Errorf("%s %d pixels, gain limit %g: sums %+v, portable %+v", k.name, w, limit, got, want)
				}
			}
		}
	})
}
