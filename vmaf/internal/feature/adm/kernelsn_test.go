package adm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/testpic"
)

// Row tests of the kernels of ADM levels 1 to 3 (see kernels_test.go).

// admRandInt32 returns n values of magnitudes spread over every scale,
// with the extremes, zero and small values among them.
func admRandInt32(rng *rand.Rand, n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		switch rng.IntN(8) {
		case 0:
			s[i] = [...]int32{-1 << 31, 1<<31 - 1, 1 << 26, -1 << 26, 1<<26 - 1}[rng.IntN(5)]
		case 1:
			s[i] = 0
		case 2:
			s[i] = int32(rng.IntN(64) - 32)
		case 3:
			s[i] = int32(rng.Uint32())
		default:
			s[i] = int32(rng.Uint32()) >> rng.IntN(31)
		}
	}
	return s
}

func TestADMKernelDWTN(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, k := range admOtherKernelSets(t) {
		for _, w := range testpic.KernelWidths {
			for l, p := range admDWTN {
				name := fmt.Sprintf("%s/w%d/level%d", k.name, w, l+1)
				var r [4][]int32
				for i := range r {
					r[i] = admRandInt32(rng, w)
				}
				lo, hi, wlo, whi := make([]int32, w), make([]int32, w), make([]int32, w), make([]int32, w)
				k.dwtNVert(lo, hi, &r, &p)
				admScalarKernels.dwtNVert(wlo, whi, &r, &p)
				testpic.Equal(t, name+" vertical low", lo, wlo)
				testpic.Equal(t, name+" vertical high", hi, whi)

				in := [2][]int32{admRandInt32(rng, 2*w+2), admRandInt32(rng, 2*w+2)}
				for _, withLL := range []bool{true, false} {
					var got, want [3][]int32
					for b := range 3 {
						got[b], want[b] = make([]int32, w), make([]int32, w)
					}
					var ll, wll []int32
					if withLL {
						ll, wll = make([]int32, w), make([]int32, w)
					}
					k.dwtNHoriz(ll, &got, in[0], in[1], &p)
					admScalarKernels.dwtNHoriz(wll, &want, in[0], in[1], &p)
					testpic.Equal(t, name+" horizontal LL", ll, wll)
					for b := range 3 {
						testpic.Equal(t, fmt.Sprintf("%s horizontal band %d", name, b), got[b], want[b])
					}
				}
			}
		}
	}
}

// admRandDecouple32 is admRandDecouple16 for levels 1 to 3, with the CSF
// factors of level l. scale bounds the detail's magnitude in most rows
// (below 2^26 the kernels take every block).
func admRandDecouple32(rng *rand.Rand, w, l int, scale uint) *admDecouple32Row {
	c := newADMCSF()
	r := &admDecouple32Row{}
	for b := range 3 {
		r.o[b], r.t[b] = admRandInt32(rng, w), admRandInt32(rng, w)
		for j := range w {
			r.o[b][j] >>= 31 - scale
			r.t[b][j] >>= 31 - scale
		}
		for _, f := range []*[3][]int32{&r.rst, &r.add, &r.mR, &r.fR, &r.mA, &r.fA} {
			f[b] = make([]int32, w)
		}
		r.rf[b] = int64(c.rf32[l][b])
	}
	admCorrelate(rng, &r.o, &r.t, math.MaxInt32)
	return r
}

func TestADMKernelDecoupleN(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, k := range admOtherKernelSets(t) {
		for _, w := range testpic.KernelWidths {
			for _, scale := range []uint{12, 20, 25, 31} {
				for _, gain := range []float64{1, 100, 1.7, 1e300} {
					l := 1 + rng.IntN(3)
					got := admRandDecouple32(rng, w, l, scale)
					want := admRandDecouple32(rng, w, l, scale)
					want.o, want.t = got.o, got.t
					k.decoupleN(got, gain)
					admScalarKernels.decoupleN(want, gain)
					admEqualDecoupled(t, fmt.Sprintf("%s/w%d/2^%d/gain%v", k.name, w, scale, gain),
						[...]*[3][]int32{&got.rst, &got.add, &got.mR, &got.fR, &got.mA, &got.fA},
						[...]*[3][]int32{&want.rst, &want.add, &want.mR, &want.fR, &want.mA, &want.fA})
				}
			}
		}
	}
}

func TestADMKernelCMN(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	c := newADMCSF()
	for _, k := range admOtherKernelSets(t) {
		for _, w := range testpic.KernelWidths {
			for l := 1; l < admLevels; l++ {
				for _, bw := range []int{w, 480, 3000} {
					var p admCMParams
					for b := range 3 {
						p.rf[b], p.sq[b], p.cs[b] = int64(c.rf32[l][b]), 30, uint(admCeilLog2(bw))
					}
					r := &admCM32Row{thr: make([]int32, w), colSum: make([]int32, w+2)}
					for b := range 3 {
						r.src[b], r.msk[b] = admRandInt32(rng, w), admRandInt32(rng, w)
						r.fUp[b], r.fMid[b], r.fDn[b] = admRandInt32(rng, w+2), admRandInt32(rng, w+2), admRandInt32(rng, w+2)
					}
					got, want := k.cmN(r, &p), admScalarKernels.cmN(r, &p)
					if got != want {
						t.Fatalf("%s/w%d/level%d/band%d: %v, portable %v", k.name, w, l, bw, got, want)
					}
				}
			}
		}
	}
}

// TestADMKernelCubeN holds every set's denominator sums of levels 1 to 3
// against the portable kernel, with each level's shifts and the extremes
// (the most negative value, whose magnitude wraps to 2^31 as in C).
func TestADMKernelCubeN(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, k := range admOtherKernelSets(t) {
		for l := range admDenSqShift {
			sq := admDenSqShift[l]
			for _, w := range testpic.KernelWidths {
				row := admRandInt32(rng, w)
				for i := 0; i < w; i += 5 {
					row[i] = [...]int32{math.MinInt32, math.MaxInt32, -math.MaxInt32, 0, 1}[i/5%5]
				}
				for _, cs := range []uint{0, 1, uint(admCeilLog2(w)), 11} {
					if got, want := k.cubeN(row, sq, cs), admScalarKernels.cubeN(row, sq, cs); got != want {
						t.Fatalf("%s/level %d/w%d/cs %d: %d, portable %d", k.name, l+1, w, cs, got, want)
					}
				}
			}
		}
	}
}
