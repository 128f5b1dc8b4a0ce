package vmaf

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// basicFeatPicture makes a deterministic picture with smooth content plus
// noise (so that filters see both), stored with pad extra bytes per row
// filled with garbage that no extractor may read.
func basicFeatPicture(t testing.TB, w, h, bpc int, chroma Chroma, pad int, seed uint64) *Picture {
	t.Helper()
	p := &Picture{Width: w, Height: h, BitDepth: bpc, Chroma: chroma}
	rng := rand.New(rand.NewPCG(seed, 7))
	maxv := 1<<bpc - 1
	for i := 0; i < p.numPlanes(); i++ {
		pw, ph := p.PlaneSize(i)
		bps := p.bytesPerSample()
		p.Strides[i] = pw*bps + pad
		p.Planes[i] = make([]byte, p.Strides[i]*ph)
		for j := range p.Planes[i] {
			p.Planes[i][j] = byte(rng.Uint32())
		}
		fx, fy := 0.05+0.1*rng.Float64(), 0.05+0.1*rng.Float64()
		for y := 0; y < ph; y++ {
			for x := 0; x < pw; x++ {
				base := 0.5 + 0.35*math.Sin(fx*float64(x)+fy*float64(y)+float64(i))
				v := int(base*float64(maxv)) + rng.IntN(maxv/16+1) - maxv/32
				v = min(max(v, 0), maxv)
				o := y*p.Strides[i] + x*bps
				if bps == 1 {
					p.Planes[i][o] = byte(v)
				} else {
					p.Planes[i][o], p.Planes[i][o+1] = byte(v), byte(v>>8)
				}
			}
		}
	}
	return p
}

// basicFeatShifted returns the picture with a random shift of every sample,
// a stand-in for the next frame or a distorted copy.
func basicFeatShifted(t testing.TB, p *Picture, amount int, seed uint64) *Picture {
	t.Helper()
	q := *p
	rng := rand.New(rand.NewPCG(seed, 11))
	maxv := 1<<p.BitDepth - 1
	for i := 0; i < p.numPlanes(); i++ {
		q.Planes[i] = append([]byte(nil), p.Planes[i]...)
		pl := q.plane(i)
		for y := 0; y < pl.h; y++ {
			for x := 0; x < pl.w; x++ {
				d := rng.IntN(2*amount+1) - amount
				if pl.bpc == 8 {
					r := pl.row8(y)
					r[x] = byte(min(max(int(r[x])+d, 0), maxv))
				} else {
					r := pl.row16(y)
					r[x] = uint16(min(max(int(r[x])+d, 0), maxv))
				}
			}
		}
	}
	return &q
}

// motionReference is the SAD score computed straight from its definition:
// filter the difference prev-cur vertically, round, filter horizontally,
// round, and average the magnitudes.
func motionReference(prev, cur plane) float64 {
	w, h, bpc := cur.w, cur.h, cur.bpc
	sample := func(p plane, x, y int) int64 {
		if bpc == 8 {
			return int64(p.row8(y)[x])
		}
		return int64(p.row16(y)[x])
	}
	mirror := func(i, n int) int {
		switch {
		case i < 0:
			return -i
		case i > n-1:
			return (n - 1) - (i - (n - 1))
		}
		return i
	}
	taps := []int64{3571, 16004, 26386, 16004, 3571}
	col := make([]int64, w)
	var total uint64
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var s int64
			for k, f := range taps {
				yy := mirror(y+k-2, h)
				s += f * (sample(prev, x, yy) - sample(cur, x, yy))
			}
			col[x] = (s + 1<<(bpc-1)) >> bpc
		}
		var row uint32
		for x := 0; x < w; x++ {
			var s int64
			for k, f := range taps {
				s += f * col[mirror(x+k-2, w)]
			}
			row += uint32(math.Abs(float64((s + 1<<15) >> 16)))
		}
		total += uint64(row)
	}
	return min(float64(total)/256/float64(w*h), 10000)
}

func motionSADOf(prev, cur plane) float64 {
	b := newMotionBlur(cur.w, cur.h, cur.bpc)
	fp, fc := newMotionFrame(cur.w, cur.h), newMotionFrame(cur.w, cur.h)
	b.blur(prev, fp)
	b.blur(cur, fc)
	return motionSAD(fc, fp)
}

// The split (vertical sums per frame, the rest in order) must give exactly
// the numbers of filtering the frame difference.
func TestMotionSADMatchesDefinition(t *testing.T) {
	for _, bpc := range []int{8, 10, 12, 16} {
		for _, sz := range [][2]int{{16, 16}, {17, 19}, {33, 16}, {64, 41}} {
			for _, amount := range []int{1, 3, 200} {
				name := fmt.Sprintf("%dbit_%dx%d_pm%d", bpc, sz[0], sz[1], amount)
				t.Run(name, func(t *testing.T) {
					seed := uint64(bpc*1000 + sz[0]*10 + amount)
					prev := basicFeatPicture(t, sz[0], sz[1], bpc, Chroma400, 6, seed)
					cur := basicFeatShifted(t, prev, amount<<(bpc-8)/2+1, seed+1)
					want := motionReference(prev.plane(0), cur.plane(0))
					got := motionSADOf(prev.plane(0), cur.plane(0))
					if got != want {
						t.Fatalf("sad %.17g, definition gives %.17g", got, want)
					}
					if want == 0 {
						t.Fatal("test frames do not differ")
					}
				})
			}
		}
	}
}

// Deeper samples are scaled back to 8 bits by the filter's shift, so
// content that is 8-bit content shifted up scores exactly the same.
func TestMotionSADDepthInvariant(t *testing.T) {
	prev8 := basicFeatPicture(t, 40, 23, 8, Chroma400, 0, 1)
	cur8 := basicFeatShifted(t, prev8, 9, 2)
	want := motionSADOf(prev8.plane(0), cur8.plane(0))
	for _, bpc := range []int{10, 12, 16} {
		up := func(p *Picture) *Picture {
			q, err := NewPicture(p.Width, p.Height, bpc, Chroma400)
			if err != nil {
				t.Fatal(err)
			}
			for y := 0; y < p.Height; y++ {
				src, dst := p.plane(0).row8(y), q.plane(0).row16(y)
				for x, v := range src {
					dst[x] = uint16(v) << (bpc - 8)
				}
			}
			return q
		}
		got := motionSADOf(up(prev8).plane(0), up(cur8).plane(0))
		if got != want {
			t.Errorf("%d-bit: sad %.17g, 8-bit gives %.17g", bpc, got, want)
		}
	}
}

func TestMotionSADIdenticalFramesIsZero(t *testing.T) {
	p := basicFeatPicture(t, 31, 17, 10, Chroma400, 2, 5)
	if got := motionSADOf(p.plane(0), p.plane(0)); got != 0 {
		t.Fatalf("sad of a frame against itself = %g", got)
	}
}

func TestMotionSeq(t *testing.T) {
	type out struct{ sad, m2, m3 float64 }
	tests := []struct {
		name string
		sads []float64
		want []out
	}{
		{"single frame", []float64{0}, []out{{0, 0, 0}}},
		{"two frames", []float64{0, 4}, []out{{0, 0, 4}, {4, 4, 4}}},
		{"min of next", []float64{0, 5, 2, 7, 3}, []out{
			{0, 0, 5}, {5, 2, 2}, {2, 2, 2}, {7, 3, 3}, {3, 3, 3}}},
		{"capped", []float64{0, 20000, 15000}, []out{
			{0, 0, 10000}, {20000, 15000, 10000}, {15000, 15000, 10000}}},
	}
	var s motionSeq
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s.reset()
			var got []out
			collect := func() {
				for {
					m, ok := s.next()
					if !ok {
						return
					}
					if m.index != len(got) {
						t.Fatalf("got frame %d, want %d", m.index, len(got))
					}
					got = append(got, out{m.sad, m.motion2, m.motion3})
				}
			}
			for i, v := range tc.sads {
				s.push(v)
				collect()
				// A frame becomes final exactly when its successor arrives.
				if len(got) != i {
					t.Fatalf("after %d pushes %d frames are final", i+1, len(got))
				}
			}
			s.flush()
			collect()
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestMotionNoAllocs(t *testing.T) {
	p := basicFeatPicture(t, 96, 54, 10, Chroma420, 4, 3)
	q := basicFeatShifted(t, p, 8, 4)
	b := newMotionBlur(96, 54, 10)
	f0, f1 := newMotionFrame(96, 54), newMotionFrame(96, 54)
	var s motionSeq
	allocs := testing.AllocsPerRun(20, func() {
		b.blur(p.plane(0), f0)
		b.blur(q.plane(0), f1)
		s.push(motionSAD(f1, f0))
		for {
			if _, ok := s.next(); !ok {
				break
			}
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per frame", allocs)
	}
}

func BenchmarkMotion1080p(b *testing.B) {
	p := basicFeatPicture(b, 1920, 1080, 8, Chroma420, 0, 1)
	q := basicFeatShifted(b, p, 4, 2)
	for _, k := range motionKernelSets() {
		m := newMotionBlurWith(1920, 1080, 8, k)
		f0, f1 := newMotionFrame(1920, 1080), newMotionFrame(1920, 1080)
		m.blur(p.plane(0), f0)
		b.Run(k.name+"/blur", func(b *testing.B) {
			done := reportThreadCPU(b)
			for b.Loop() {
				m.blur(q.plane(0), f1)
			}
			done()
		})
		b.Run(k.name+"/sad", func(b *testing.B) {
			done := reportThreadCPU(b)
			for b.Loop() {
				motionSADWith(f1, f0, k)
			}
			done()
		})
	}
}
