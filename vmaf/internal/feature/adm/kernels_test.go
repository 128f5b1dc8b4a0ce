package adm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/testpic"
)

// The vector kernels must give exactly the portable kernels' bits. These
// tests hold every kernel set this machine runs against admScalarKernels,
// row by row with inputs over the full range of their types (so that every
// wrap and saturation corner is reached), and frame by frame.

// admOtherKernelSets returns the vector kernel sets this machine runs,
// logging those of this build it cannot and so does not test.
func admOtherKernelSets(t *testing.T) []*admKernels {
	var sets []*admKernels
	for _, s := range admVecKernelSupport() {
		if s.ok {
			sets = append(sets, s.k)
		} else {
			t.Logf("skipping the %s ADM kernels: this CPU or OS does not support them", s.k.name)
		}
	}
	if len(sets) == 0 {
		t.Skip("this machine runs only the portable ADM kernels")
	}
	return sets
}

// admRandInt16 returns n words: mostly uniform, with runs of the extremes
// and of zero, and small values.
func admRandInt16(rng *rand.Rand, n int) []int16 {
	s := make([]int16, n)
	for i := range s {
		switch rng.IntN(8) {
		case 0:
			s[i] = -32768
		case 1:
			s[i] = 32767
		case 2:
			s[i] = 0
		case 3:
			s[i] = int16(rng.IntN(64) - 32)
		default:
			s[i] = int16(rng.Uint32())
		}
	}
	return s
}

func TestADMKernelDWT0(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, k := range admOtherKernelSets(t) {
		for _, w := range testpic.KernelWidths {
			for _, bpc := range []int{8, 10, 12, 16} {
				name := fmt.Sprintf("%s/w%d/%dbit", k.name, w, bpc)
				lo, hi := make([]int16, w), make([]int16, w)
				wlo, whi := make([]int16, w), make([]int16, w)
				if bpc == 8 {
					var r [4][]byte
					for i := range r {
						r[i] = testpic.RandSamples[uint8](rng, w, 8)
					}
					k.dwt0Vert8(lo, hi, &r)
					admScalarKernels.dwt0Vert8(wlo, whi, &r)
				} else {
					var r [4][]uint16
					for i := range r {
						r[i] = testpic.RandSamples[uint16](rng, w, bpc)
					}
					k.dwt0Vert16(lo, hi, &r, uint(bpc))
					admScalarKernels.dwt0Vert16(wlo, whi, &r, uint(bpc))
				}
				testpic.Equal(t, name+" low", lo, wlo)
				testpic.Equal(t, name+" high", hi, whi)
			}
			in := [2][]int16{admRandInt16(rng, 2*w+2), admRandInt16(rng, 2*w+2)}
			var got, want [3][]int16
			for b := range 3 {
				got[b], want[b] = make([]int16, w), make([]int16, w)
			}
			ll, wll := make([]int32, w), make([]int32, w)
			k.dwt0Horiz(ll, &got, in[0], in[1])
			admScalarKernels.dwt0Horiz(wll, &want, in[0], in[1])
			name := fmt.Sprintf("%s/w%d horizontal", k.name, w)
			testpic.Equal(t, name+" LL", ll, wll)
			for b := range 3 {
				testpic.Equal(t, fmt.Sprintf("%s band %d", name, b), got[b], want[b])
			}
		}
	}
}

// admRandDecouple16 fills a level-0 decoupling row of w columns. The
// distorted detail is a scaled, slightly perturbed copy of the reference
// in part of the columns (admCorrelate), so that the angle test passes
// there and the enhancement is exercised.
func admRandDecouple16(rng *rand.Rand, w int) *admDecouple16Row {
	r := &admDecouple16Row{}
	for b := range 3 {
		r.o[b] = admRandInt16(rng, w)
		r.t[b] = admRandInt16(rng, w)
		for _, f := range []*[3][]int16{&r.rst, &r.add, &r.mR, &r.fR, &r.mA, &r.fA} {
			f[b] = make([]int16, w)
		}
	}
	admCorrelate(rng, &r.o, &r.t, math.MaxInt16)
	return r
}

// admCorrelate overwrites about half the columns of the distorted detail
// t with a scaled, slightly perturbed copy of the reference o, clamped to
// [-top-1, top].
func admCorrelate[T int16 | int32](rng *rand.Rand, o, t *[3][]T, top float64) {
	for j := range o[0] {
		if rng.IntN(2) == 0 {
			continue
		}
		s := rng.Float64() * 3
		for b := range 3 {
			v := float64(o[b][j])*s + float64(rng.IntN(5)-2)
			t[b][j] = T(max(min(v, top), -top-1))
		}
	}
}

func TestADMKernelDecouple0(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, k := range admOtherKernelSets(t) {
		for _, w := range testpic.KernelWidths {
			for _, gain := range []float64{1, 100, 1.7, 65535, 1e9} {
				got := admRandDecouple16(rng, w)
				want := admRandDecouple16(rng, w)
				want.o, want.t = got.o, got.t
				k.decouple0(got, gain)
				admScalarKernels.decouple0(want, gain)
				admEqualDecoupled(t, fmt.Sprintf("%s/w%d/gain%v", k.name, w, gain),
					[...]*[3][]int16{&got.rst, &got.add, &got.mR, &got.fR, &got.mA, &got.fA},
					[...]*[3][]int16{&want.rst, &want.add, &want.mR, &want.fR, &want.mA, &want.fA})
			}
		}
	}
}

// admDecoupledNames names the outputs of a decoupled row, in the order
// admEqualDecoupled takes them.
var admDecoupledNames = [...]string{"restored", "additive", "restored masker", "restored threshold", "additive masker", "additive threshold"}

// admEqualDecoupled checks every output band of a decoupled row (rst,
// add, mR, fR, mA, fA) against the portable kernel's.
func admEqualDecoupled[T int16 | int32](t *testing.T, name string, got, want [6]*[3][]T) {
	t.Helper()
	for b := range 3 {
		for i, what := range admDecoupledNames {
			testpic.Equal(t, fmt.Sprintf("%s band %d %s", name, b, what), got[i][b], want[i][b])
		}
	}
}

func TestADMKernelCube0(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, k := range admOtherKernelSets(t) {
		for _, w := range testpic.KernelWidths {
			row := admRandInt16(rng, w)
			if got, want := k.cube0(row), admScalarKernels.cube0(row); got != want {
				t.Fatalf("%s/w%d: %d, portable %d", k.name, w, got, want)
			}
		}
	}
}

// admRandCM16 fills a level-0 masking row of w columns.
func admRandCM16(rng *rand.Rand, w int) *admCM16Row {
	r := &admCM16Row{thr: make([]int32, w), colSum: make([]int32, w+2)}
	for b := range 3 {
		r.src[b], r.msk[b] = admRandInt16(rng, w), admRandInt16(rng, w)
		r.fUp[b], r.fMid[b], r.fDn[b] = admRandInt16(rng, w+2), admRandInt16(rng, w+2), admRandInt16(rng, w+2)
	}
	return r
}

// admTestCMParams returns level-0 masking parameters for a band of
// width w, as adm.level0 sets them.
func admTestCMParams(w int) *admCMParams {
	var p admCMParams
	lw := admCeilLog2(w)
	cubSh := [3]int{lw - 4, lw - 4, lw - 3}
	for b := range 3 {
		p.rf[b], p.sub[b], p.sq[b] = int64(admRF0[b]), admCM0SubShift[b], admCM0SqShift[b]
		p.skip[b] = cubSh[b] < 0
		p.cs[b] = uint(max(cubSh[b], 0))
	}
	return &p
}

func TestADMKernelCM0(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, k := range admOtherKernelSets(t) {
		for _, w := range testpic.KernelWidths {
			for _, bw := range []int{w, 960, 3000} {
				p := admTestCMParams(bw)
				for _, trunc := range []bool{false, true} {
					r := admRandCM16(rng, w)
					got, want := k.cm0(r, p, trunc), admScalarKernels.cm0(r, p, trunc)
					if got != want {
						t.Fatalf("%s/w%d/band%d/trunc %v: %v, portable %v", k.name, w, bw, trunc, got, want)
					}
				}
			}
		}
	}
}

// TestADMKernelFrames holds whole frames' scores of every kernel set
// against the portable ones, over depths, odd sizes, content that drives
// the bands to their extremes, and gain limits the vector kernels take or
// leave to the portable code.
func TestADMKernelFrames(t *testing.T) {
	sets := admOtherKernelSets(t)
	sizes := [][2]int{{5, 7}, {17, 17}, {32, 24}, {33, 35}, {66, 40}, {97, 63}, {130, 66}, {321, 71}, {577, 45}}
	for _, sz := range sizes {
		for _, bpc := range []int{8, 10, 12, 16} {
			rng := rand.New(rand.NewPCG(uint64(sz[0]), uint64(bpc)))
			for _, gain := range []float64{100, 1, 1.7} {
				want := newADMWith(sz[0], sz[1], bpc, admOptions{enhnGainLimit: gain}, &admScalarKernels)
				got := make([]*adm, len(sets))
				for i, k := range sets {
					got[i] = newADMWith(sz[0], sz[1], bpc, admOptions{enhnGainLimit: gain}, k)
				}
				for kind := range 4 {
					ref := testpic.RandPlane(rng, sz[0], sz[1], bpc, kind)
					dis := testpic.RandPlane(rng, sz[0], sz[1], bpc, (kind+1)%4)
					w := want.compute(ref, dis)
					for i, a := range got {
						if g := a.compute(ref, dis); g != w {
							t.Fatalf("%s %dx%d %d-bit gain %v content %d: %+v, portable %+v", sets[i].name, sz[0], sz[1], bpc, gain, kind, g, w)
						}
					}
				}
			}
		}
	}
}

// TestADMKernelGoldens holds every kernel set against the portable one on
// the golden pairs' first frames.
func TestADMKernelGoldens(t *testing.T) {
	sets := admOtherKernelSets(t)
	for _, name := range testpic.GoldenNames(t) {
		g := testpic.LoadGolden(t, name, 3)
		p := g.Ref[0]
		for _, gain := range []float64{100, 1} {
			want := newADMWith(p.Width, p.Height, p.BitDepth, admOptions{enhnGainLimit: gain}, &admScalarKernels)
			for _, k := range sets {
				a := newADMWith(p.Width, p.Height, p.BitDepth, admOptions{enhnGainLimit: gain}, k)
				for i := range g.Ref {
					r, d := g.Ref[i].Plane(0), g.Dist[i].Plane(0)
					if got, w := a.compute(r, d), want.compute(r, d); got != w {
						t.Fatalf("%s %s frame %d gain %v: %+v, portable %+v", k.name, name, i, gain, got, w)
					}
				}
			}
		}
	}
}
