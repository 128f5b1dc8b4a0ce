package motion

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/testpic"
)

// The vector motion kernels must give exactly the portable kernels' bits,
// row by row over the full range of their inputs, and frame by frame.

// motionEachVecKernelSet runs f as a subtest for every vector kernel set
// of this build, skipping, by name, those this machine cannot run.
func motionEachVecKernelSet(t *testing.T, f func(t *testing.T, k *motionKernels)) {
	sets := motionVecKernelSupport()
	if len(sets) == 0 {
		t.Skip("this build has only the portable motion kernels")
	}
	for _, s := range sets {
		t.Run(s.k.name, func(t *testing.T) {
			if !s.ok {
				t.Skipf("this CPU or OS does not support the %s motion kernels", s.k.name)
			}
			f(t, s.k)
		})
	}
}

func TestMotionKernelRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	motionEachVecKernelSet(t, func(t *testing.T, k *motionKernels) {
		for _, w := range testpic.KernelWidths {
			for _, bpc := range []int{8, 10, 12, 16} {
				name := fmt.Sprintf("%s/w%d/%dbit", k.name, w, bpc)
				got, want := make([]uint32, w), make([]uint32, w)
				if bpc == 8 {
					var r [5][]byte
					for i := range r {
						r[i] = testpic.RandSamples[uint8](rng, w, 8)
					}
					k.vert8(got, &r)
					motionScalarKernels.vert8(want, &r)
				} else {
					var r [5][]uint16
					for i := range r {
						r[i] = testpic.RandSamples[uint16](rng, w, bpc)
					}
					k.vert16(got, &r)
					motionScalarKernels.vert16(want, &r)
				}
				testpic.Equal(t, name+" vertical", got, want)

				// Sums of any size, and sums of bpc-bit samples.
				p, c := make([]uint32, w), make([]uint32, w)
				for j := range p {
					p[j], c[j] = rng.Uint32(), rng.Uint32()
					if rng.IntN(2) == 0 {
						p[j] >>= 16 - bpc
						c[j] >>= 16 - bpc
					}
				}
				v, wv := make([]int32, w), make([]int32, w)
				a, wa := k.diff(v, p, c, uint(bpc)), motionScalarKernels.diff(wv, p, c, uint(bpc))
				testpic.Equal(t, name+" difference", v, wv)
				if a != wa {
					t.Fatalf("%s difference: nonzero %v, portable %v", name, a, wa)
				}
				copy(c, p)
				if k.diff(v, p, c, uint(bpc)) {
					t.Fatalf("%s difference of equal rows is nonzero", name)
				}
			}
			row := make([]int32, w+2*motionRadius)
			for j := range row {
				switch rng.IntN(4) {
				case 0:
					row[j] = [...]int32{1<<21 - 1, -(1<<21 - 1), 1 << 16, -1 << 16, 0}[rng.IntN(5)]
				default:
					row[j] = int32(rng.IntN(1<<22-1)) - (1<<21 - 1)
				}
			}
			if got, want := k.rowSAD(row, w), motionScalarKernels.rowSAD(row, w); got != want {
				t.Fatalf("%s/w%d row SAD: %d, portable %d", k.name, w, got, want)
			}
		}
	})
}

// TestMotionKernelFrames holds the SAD of every kernel set against the
// portable one, over depths, odd sizes and content of every kind.
func TestMotionKernelFrames(t *testing.T) {
	motionEachVecKernelSet(t, func(t *testing.T, k *motionKernels) {
		motionKernelFrames(t, k)
	})
}

func motionKernelFrames(t *testing.T, k *motionKernels) {
	for _, sz := range [][2]int{{3, 3}, {7, 9}, {17, 17}, {66, 40}, {97, 63}, {321, 71}} {
		for _, bpc := range []int{8, 10, 12, 16} {
			rng := rand.New(rand.NewPCG(uint64(sz[0]), uint64(bpc)))
			sad := func(k *motionKernels, prev, cur feature.Plane) float64 {
				b := newMotionBlurWith(sz[0], sz[1], bpc, k)
				fp, fc := NewFrame(sz[0], sz[1]), NewFrame(sz[0], sz[1])
				b.Blur(prev, fp)
				b.Blur(cur, fc)
				return motionSADWith(fc, fp, k)
			}
			for kind := range 4 {
				prev := testpic.RandPlane(rng, sz[0], sz[1], bpc, kind)
				cur := testpic.RandPlane(rng, sz[0], sz[1], bpc, (kind+1)%4)
				want := sad(&motionScalarKernels, prev, cur)
				if got := sad(k, prev, cur); got != want {
					t.Fatalf("%s %dx%d %d-bit content %d: SAD %v, portable %v", k.name, sz[0], sz[1], bpc, kind, got, want)
				}
			}
		}
	}
}

// TestMotionKernelDiff8 holds every set's difference of 8-bit windows
// against the portable kernel, with windows at the extremes (every
// previous sample 255 and every current one 0, and the reverse) among the
// random ones.
func TestMotionKernelDiff8(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	motionEachVecKernelSet(t, func(t *testing.T, k *motionKernels) {
		if k.diff8 == nil {
			t.Skipf("the %s set keeps 8-bit frames as sums", k.name)
		}
		for _, w := range testpic.KernelWidths {
			for kind := range 4 {
				var p, c [5][]byte
				for i := range p {
					p[i], c[i] = testpic.RandSamples[uint8](rng, w, 8), testpic.RandSamples[uint8](rng, w, 8)
					if kind > 0 {
						for x := range p[i] {
							hi := byte(255 * (kind & 1))
							p[i][x], c[i][x] = hi, 255-hi
							if kind == 3 && x%3 == 0 {
								p[i][x] = c[i][x]
							}
						}
					}
				}
				got, want := make([]int32, w), make([]int32, w)
				gotAny, wantAny := k.diff8(got, &p, &c), motionDiff8(want, &p, &c)
				testpic.Equal(t, fmt.Sprintf("%s/w%d/kind%d", k.name, w, kind), got, want)
				if gotAny != wantAny {
					t.Fatalf("%s/w%d/kind%d: nonzero %v, portable %v", k.name, w, kind, gotAny, wantAny)
				}
			}
		}
	})
}

// 8-bit frames kept as samples score exactly as frames kept as vertical
// sums.
func TestMotionSamplesMatchSums(t *testing.T) {
	sums := motionScalarKernels
	sums.diff8 = nil
	rng := rand.New(rand.NewPCG(25, 26))
	for _, sz := range [][2]int{{3, 3}, {17, 19}, {97, 63}, {321, 71}} {
		for kind := range 4 {
			prev := testpic.RandPlane(rng, sz[0], sz[1], 8, kind)
			cur := testpic.RandPlane(rng, sz[0], sz[1], 8, (kind+1)%4)
			sad := func(k *motionKernels) (float64, bool) {
				b := newMotionBlurWith(sz[0], sz[1], 8, k)
				fp, fc := NewFrame(sz[0], sz[1]), NewFrame(sz[0], sz[1])
				b.Blur(prev, fp)
				b.Blur(cur, fc)
				return motionSADWith(fc, fp, k), fc.raw
			}
			got, raw := sad(&motionScalarKernels)
			want, sumsRaw := sad(&sums)
			if !raw || sumsRaw {
				t.Fatalf("frames kept as samples: %v and %v, want true and false", raw, sumsRaw)
			}
			if got != want {
				t.Fatalf("%dx%d content %d: SAD of samples %v, of sums %v", sz[0], sz[1], kind, got, want)
			}
		}
	}
}
