package psnr

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/testpic"
)

// setSample writes v at (x, y) of plane i.
func setSample(p *testpic.Picture, i, x, y, v int) {
	pl := p.Plane(i)
	if pl.BitDepth == 8 {
		pl.Row8(y)[x] = byte(v)
	} else {
		pl.Row16(y)[x] = uint16(v)
	}
}

// offsetCopy returns a copy of p with every sample of every plane raised by
// d (the test pictures stay clear of the top of the range).
func offsetCopy(t *testing.T, p *testpic.Picture, d int) *testpic.Picture {
	t.Helper()
	q := testpic.Shifted(t, p, 0, 0)
	for i := 0; i < q.NumPlanes(); i++ {
		pl := q.Plane(i)
		for y := 0; y < pl.H; y++ {
			for x := 0; x < pl.W; x++ {
				var v int
				if pl.BitDepth == 8 {
					v = int(pl.Row8(y)[x])
				} else {
					v = int(pl.Row16(y)[x])
				}
				setSample(q, i, x, y, min(v+d, 1<<pl.BitDepth-1))
			}
		}
	}
	return q
}

func TestPSNRKnownValues(t *testing.T) {
	for _, bpc := range []int{8, 10, 12, 16} {
		for _, chroma := range []feature.Chroma{testpic.Chroma420, testpic.Chroma422, testpic.Chroma444, testpic.Chroma400} {
			t.Run(fmt.Sprintf("%dbit_%v", bpc, chroma), func(t *testing.T) {
				// Keep the content below the peak so the offset never clips.
				ref, err := testpic.New(37, 21, bpc, chroma)
				if err != nil {
					t.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(uint64(bpc), uint64(chroma)))
				for i := 0; i < ref.NumPlanes(); i++ {
					pl := ref.Plane(i)
					for y := 0; y < pl.H; y++ {
						for x := 0; x < pl.W; x++ {
							setSample(ref, i, x, y, rng.IntN(1<<(bpc-1)))
						}
					}
				}
				p := newPSNR(37, 21, bpc, chroma)
				capDB := float64(6*bpc + 12)
				y, cb, cr := p.compute(ref, ref)
				if y != capDB {
					t.Errorf("identical pictures: psnr_y %v, want the %v dB cap", y, capDB)
				}
				if chroma == testpic.Chroma400 {
					if cb != 0 || cr != 0 {
						t.Errorf("luma-only: cb, cr = %v, %v, want 0", cb, cr)
					}
				} else if cb != capDB || cr != capDB {
					t.Errorf("identical pictures: cb, cr = %v, %v, want %v", cb, cr, capDB)
				}
				// A uniform error of 3 gives an MSE of 9 on every plane.
				dist := offsetCopy(t, ref, 3)
				peak := float64(int(1)<<bpc - 1)
				want := 10 * math.Log10(peak*peak/9)
				y, cb, cr = p.compute(ref, dist)
				got := []float64{y, cb, cr}
				for i := 0; i < ref.NumPlanes(); i++ {
					if math.Abs(got[i]-want) > 1e-12 {
						t.Errorf("plane %d: %.15g, want %.15g", i, got[i], want)
					}
				}
			})
		}
	}
}

// libvmaf's chroma planes are rounded down for odd sizes: the last column
// and row of our (rounded up) chroma planes are not compared.
func TestPSNROddChromaEdgeIgnored(t *testing.T) {
	ref := testpic.Synthetic(t, 17, 17, 8, testpic.Chroma420, 0, 9)
	p := newPSNR(17, 17, 8, testpic.Chroma420)
	edge := testpic.Shifted(t, ref, 0, 0)
	setSample(edge, 1, 8, 3, 255-int(ref.Plane(1).Row8(3)[8]))
	setSample(edge, 2, 2, 8, 255-int(ref.Plane(2).Row8(8)[2]))
	if _, cb, cr := p.compute(ref, edge); cb != 60 || cr != 60 {
		t.Errorf("difference in the rounded-up edge counted: cb %v, cr %v", cb, cr)
	}
	inner := testpic.Shifted(t, ref, 0, 0)
	setSample(inner, 1, 7, 7, 255-int(ref.Plane(1).Row8(7)[7]))
	if _, cb, _ := p.compute(ref, inner); cb >= 60 {
		t.Errorf("difference inside the compared area not counted: cb %v", cb)
	}
}

// The score depends on samples only, not on how rows are laid out.
func TestPSNRStrideIndependent(t *testing.T) {
	for _, bpc := range []int{8, 12} {
		a := testpic.Synthetic(t, 45, 31, bpc, testpic.Chroma422, 0, 1)
		b := testpic.Shifted(t, a, 5, 2)
		pa := testpic.Synthetic(t, 45, 31, bpc, testpic.Chroma422, 14, 3)
		pb := testpic.Synthetic(t, 45, 31, bpc, testpic.Chroma422, 6, 4)
		testpic.Copy(pa, a)
		testpic.Copy(pb, b)
		p := newPSNR(45, 31, bpc, testpic.Chroma422)
		y0, cb0, cr0 := p.compute(a, b)
		y1, cb1, cr1 := p.compute(pa, pb)
		if y0 != y1 || cb0 != cb1 || cr0 != cr1 {
			t.Errorf("%d-bit: packed %v %v %v, padded %v %v %v", bpc, y0, cb0, cr0, y1, cb1, cr1)
		}
	}
}

func TestPSNRNoAllocs(t *testing.T) {
	a := testpic.Synthetic(t, 64, 36, 10, testpic.Chroma420, 2, 1)
	b := testpic.Shifted(t, a, 7, 2)
	p := newPSNR(64, 36, 10, testpic.Chroma420)
	if n := testing.AllocsPerRun(20, func() { p.compute(a, b) }); n != 0 {
		t.Fatalf("%v allocations per frame", n)
	}
}

func BenchmarkPSNR1080p(b *testing.B) {
	for _, bpc := range []int{8, 10} {
		b.Run(fmt.Sprintf("%dbit", bpc), func(b *testing.B) {
			r := testpic.Synthetic(b, 1920, 1080, bpc, testpic.Chroma420, 0, 1)
			d := testpic.Shifted(b, r, 4<<(bpc-8), 2)
			p := newPSNR(1920, 1080, bpc, testpic.Chroma420)
			for b.Loop() {
				p.compute(r, d)
			}
		})
	}
}

// compute returns psnr_y, psnr_cb and psnr_cr of one frame pair; cb and
// cr are 0 for testpic.Chroma400.
func (p *psnr) compute(ref, dist *testpic.Picture) (y, cb, cr float64) {
	var out [3]float64
	for i := 0; i < p.planes; i++ {
		out[i], _, _ = p.plane(ref.Plane(i), dist.Plane(i), i)
	}
	return out[0], out[1], out[2]
}
