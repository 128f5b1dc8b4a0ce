package motion

import (
	"fmt"
	"math"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/testpic"
)

// motionReference is the SAD score computed straight from its definition:
// filter the difference prev-cur vertically, round, filter horizontally,
// round, and average the magnitudes.
func motionReference(prev, cur feature.Plane) float64 {
	w, h, bpc := cur.W, cur.H, cur.BitDepth
	sample := func(p feature.Plane, x, y int) int64 {
		if bpc == 8 {
			return int64(p.Row8(y)[x])
		}
		return int64(p.Row16(y)[x])
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

func motionSADOf(prev, cur feature.Plane) float64 {
	b := NewBlur(cur.W, cur.H, cur.BitDepth)
	fp, fc := NewFrame(cur.W, cur.H), NewFrame(cur.W, cur.H)
	b.Blur(prev, fp)
	b.Blur(cur, fc)
	return SAD(fc, fp)
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
					prev := testpic.Synthetic(t, sz[0], sz[1], bpc, testpic.Chroma400, 6, seed)
					cur := testpic.Shifted(t, prev, amount<<(bpc-8)/2+1, seed+1)
					want := motionReference(prev.Plane(0), cur.Plane(0))
					got := motionSADOf(prev.Plane(0), cur.Plane(0))
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
	prev8 := testpic.Synthetic(t, 40, 23, 8, testpic.Chroma400, 0, 1)
	cur8 := testpic.Shifted(t, prev8, 9, 2)
	want := motionSADOf(prev8.Plane(0), cur8.Plane(0))
	for _, bpc := range []int{10, 12, 16} {
		up := func(p *testpic.Picture) *testpic.Picture {
			q, err := testpic.New(p.Width, p.Height, bpc, testpic.Chroma400)
			if err != nil {
				t.Fatal(err)
			}
			for y := 0; y < p.Height; y++ {
				src, dst := p.Plane(0).Row8(y), q.Plane(0).Row16(y)
				for x, v := range src {
					dst[x] = uint16(v) << (bpc - 8)
				}
			}
			return q
		}
		got := motionSADOf(up(prev8).Plane(0), up(cur8).Plane(0))
		if got != want {
			t.Errorf("%d-bit: sad %.17g, 8-bit gives %.17g", bpc, got, want)
		}
	}
}

func TestMotionSADIdenticalFramesIsZero(t *testing.T) {
	p := testpic.Synthetic(t, 31, 17, 10, testpic.Chroma400, 2, 5)
	if got := motionSADOf(p.Plane(0), p.Plane(0)); got != 0 {
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
	var s Seq
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s.Reset()
			var got []out
			collect := func() {
				for {
					m, ok := s.Next()
					if !ok {
						return
					}
					if m.Index != len(got) {
						t.Fatalf("got frame %d, want %d", m.Index, len(got))
					}
					got = append(got, out{m.SAD, m.Motion2, m.Motion3})
				}
			}
			for i, v := range tc.sads {
				s.Push(v)
				collect()
				// A frame becomes final exactly when its successor arrives.
				if len(got) != i {
					t.Fatalf("after %d pushes %d frames are final", i+1, len(got))
				}
			}
			s.Flush()
			collect()
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestMotionNoAllocs(t *testing.T) {
	p := testpic.Synthetic(t, 96, 54, 10, testpic.Chroma420, 4, 3)
	q := testpic.Shifted(t, p, 8, 4)
	b := NewBlur(96, 54, 10)
	f0, f1 := NewFrame(96, 54), NewFrame(96, 54)
	var s Seq
	allocs := testing.AllocsPerRun(20, func() {
		b.Blur(p.Plane(0), f0)
		b.Blur(q.Plane(0), f1)
		s.Push(SAD(f1, f0))
		for {
			if _, ok := s.Next(); !ok {
				break
			}
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per frame", allocs)
	}
}

func BenchmarkMotion1080p(b *testing.B) {
	p := testpic.Synthetic(b, 1920, 1080, 8, testpic.Chroma420, 0, 1)
	q := testpic.Shifted(b, p, 4, 2)
	for _, k := range motionKernelSets() {
		m := newMotionBlurWith(1920, 1080, 8, k)
		f0, f1 := NewFrame(1920, 1080), NewFrame(1920, 1080)
		m.Blur(p.Plane(0), f0)
		b.Run(k.name+"/blur", func(b *testing.B) {
			done := testpic.ReportThreadCPU(b)
			for b.Loop() {
				m.Blur(q.Plane(0), f1)
			}
			done()
		})
		b.Run(k.name+"/sad", func(b *testing.B) {
			done := testpic.ReportThreadCPU(b)
			for b.Loop() {
				motionSADWith(f1, f0, k)
			}
			done()
		})
	}
}
