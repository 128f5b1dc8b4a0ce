package vmaf

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// setSample writes v at (x, y) of plane i.
func setSample(p *Picture, i, x, y, v int) {
	pl := p.plane(i)
	if pl.bpc == 8 {
		pl.row8(y)[x] = byte(v)
	} else {
		pl.row16(y)[x] = uint16(v)
	}
}

// offsetCopy returns a copy of p with every sample of every plane raised by
// d (the test pictures stay clear of the top of the range).
func offsetCopy(t *testing.T, p *Picture, d int) *Picture {
	t.Helper()
	q := basicFeatShifted(t, p, 0, 0)
	for i := 0; i < q.numPlanes(); i++ {
		pl := q.plane(i)
		for y := 0; y < pl.h; y++ {
			for x := 0; x < pl.w; x++ {
				var v int
				if pl.bpc == 8 {
					v = int(pl.row8(y)[x])
				} else {
					v = int(pl.row16(y)[x])
				}
				setSample(q, i, x, y, min(v+d, 1<<pl.bpc-1))
			}
		}
	}
	return q
}

func TestPSNRKnownValues(t *testing.T) {
	for _, bpc := range []int{8, 10, 12, 16} {
		for _, chroma := range []Chroma{Chroma420, Chroma422, Chroma444, Chroma400} {
			t.Run(fmt.Sprintf("%dbit_%v", bpc, chroma), func(t *testing.T) {
				// Keep the content below the peak so the offset never clips.
				ref, err := NewPicture(37, 21, bpc, chroma)
				if err != nil {
					t.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(uint64(bpc), uint64(chroma)))
				for i := 0; i < ref.numPlanes(); i++ {
					pl := ref.plane(i)
					for y := 0; y < pl.h; y++ {
						for x := 0; x < pl.w; x++ {
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
				if chroma == Chroma400 {
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
				for i := 0; i < ref.numPlanes(); i++ {
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
	ref := basicFeatPicture(t, 17, 17, 8, Chroma420, 0, 9)
	p := newPSNR(17, 17, 8, Chroma420)
	edge := basicFeatShifted(t, ref, 0, 0)
	setSample(edge, 1, 8, 3, 255-int(ref.plane(1).row8(3)[8]))
	setSample(edge, 2, 2, 8, 255-int(ref.plane(2).row8(8)[2]))
	if _, cb, cr := p.compute(ref, edge); cb != 60 || cr != 60 {
		t.Errorf("difference in the rounded-up edge counted: cb %v, cr %v", cb, cr)
	}
	inner := basicFeatShifted(t, ref, 0, 0)
	setSample(inner, 1, 7, 7, 255-int(ref.plane(1).row8(7)[7]))
	if _, cb, _ := p.compute(ref, inner); cb >= 60 {
		t.Errorf("difference inside the compared area not counted: cb %v", cb)
	}
}

// The score depends on samples only, not on how rows are laid out.
func TestPSNRStrideIndependent(t *testing.T) {
	for _, bpc := range []int{8, 12} {
		a := basicFeatPicture(t, 45, 31, bpc, Chroma422, 0, 1)
		b := basicFeatShifted(t, a, 5, 2)
		pa := basicFeatPicture(t, 45, 31, bpc, Chroma422, 14, 3)
		pb := basicFeatPicture(t, 45, 31, bpc, Chroma422, 6, 4)
		copyPicture(pa, a)
		copyPicture(pb, b)
		p := newPSNR(45, 31, bpc, Chroma422)
		y0, cb0, cr0 := p.compute(a, b)
		y1, cb1, cr1 := p.compute(pa, pb)
		if y0 != y1 || cb0 != cb1 || cr0 != cr1 {
			t.Errorf("%d-bit: packed %v %v %v, padded %v %v %v", bpc, y0, cb0, cr0, y1, cb1, cr1)
		}
	}
}

// copyPicture copies the samples of src into dst, which has the same
// format but may have other strides.
func copyPicture(dst, src *Picture) {
	for i := 0; i < src.numPlanes(); i++ {
		s, d := src.plane(i), dst.plane(i)
		n := s.w * src.bytesPerSample()
		for y := 0; y < s.h; y++ {
			copy(d.data[y*d.stride:y*d.stride+n], s.data[y*s.stride:y*s.stride+n])
		}
	}
}

func TestPSNRLog10(t *testing.T) {
	// Values from glibc's log10, which libvmaf calls; math.Log10 gives the
	// first one a bit lower.
	for _, tc := range []struct{ x, want float64 }{
		{12.378107732759576, 1.0926542582517214},
		{5286585.365853659, 6.723175249428513},
		{317130.0, 5.501237327546433},
		{248976013.04347825, 8.396157508121206},
		{713.2280355380059, 2.853228406068305},
	} {
		if got := psnrLog10(tc.x); got != tc.want {
			t.Errorf("log10(%v) = %.17g, glibc gives %.17g", tc.x, got, tc.want)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 100000; i++ {
		x := math.Exp(rng.Float64()*80 - 20)
		got, want := psnrLog10(x), math.Log10(x)
		if math.Abs(got-want) > 4.5e-16*math.Max(1, math.Abs(want)) {
			t.Fatalf("log10(%v) = %.17g, want %.17g", x, got, want)
		}
	}
}

func TestPSNRNoAllocs(t *testing.T) {
	a := basicFeatPicture(t, 64, 36, 10, Chroma420, 2, 1)
	b := basicFeatShifted(t, a, 7, 2)
	p := newPSNR(64, 36, 10, Chroma420)
	if n := testing.AllocsPerRun(20, func() { p.compute(a, b) }); n != 0 {
		t.Fatalf("%v allocations per frame", n)
	}
}

func BenchmarkPSNR1080p(b *testing.B) {
	for _, bpc := range []int{8, 10} {
		b.Run(fmt.Sprintf("%dbit", bpc), func(b *testing.B) {
			r := basicFeatPicture(b, 1920, 1080, bpc, Chroma420, 0, 1)
			d := basicFeatShifted(b, r, 4<<(bpc-8), 2)
			p := newPSNR(1920, 1080, bpc, Chroma420)
			for b.Loop() {
				p.compute(r, d)
			}
		})
	}
}

// compute returns psnr_y, psnr_cb and psnr_cr of one frame pair; cb and
// cr are 0 for Chroma400.
func (p *psnr) compute(ref, dist *Picture) (y, cb, cr float64) {
	var out [3]float64
	for i := 0; i < p.planes; i++ {
		out[i], _, _ = p.plane(ref.plane(i), dist.plane(i), i)
	}
	return out[0], out[1], out[2]
}
