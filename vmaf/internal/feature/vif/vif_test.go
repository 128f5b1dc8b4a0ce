package vif

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/testpic"
)

// vifTolerance is half a unit in the last of the 6 decimals libvmaf prints:
// anything below it is the same printed score.
const vifTolerance = 5e-7

// vifGoldenFrames limits the frames read per pair unless a full run is
// asked for (VMAF_FULL_GOLDENS=1 without -short).
func vifGoldenFrames() int {
	if !testing.Short() && os.Getenv("VMAF_FULL_GOLDENS") == "1" {
		return 0
	}
	return 12
}

func TestVIFGoldens(t *testing.T) {
	variants := []struct {
		suffix string
		opt    vifOptions
	}{
		{"", vifOptions{enhnGainLimit: vifDefaultEnhnGainLimit}},
		{"_egl_1", vifOptions{enhnGainLimit: 1.0}},
	}
	for _, name := range testpic.GoldenNames(t) {
		t.Run(name, func(t *testing.T) {
			g := testpic.LoadGolden(t, name, vifGoldenFrames())
			if len(g.Frames) != len(g.Ref) {
				t.Fatalf("%d golden frames for %d pictures", len(g.Frames), len(g.Ref))
			}
			p := g.Ref[0].Plane(0)
			for _, vr := range variants {
				// Every kernel set must give the portable kernels' sums to
				// the bit; the scores are checked against libvmaf.
				sets := vifKernelSets()
				extractors := make([]*vif, len(sets))
				for i, k := range sets {
					extractors[i] = newVIFWith(p.W, p.H, p.BitDepth, vr.opt, k)
				}
				v := extractors[0]
				var worst float64
				printedSame := 0
				for i := range g.Ref {
					ref, dist := g.Ref[i].Plane(0), g.Dist[i].Plane(0)
					sums := v.scaleSums(ref, dist, 0, 3)
					for x, other := range extractors[1:] {
						if o := other.scaleSums(ref, dist, 0, 3); o != sums {
							t.Errorf("frame %d: %s kernels' sums %+v, portable %+v", i, sets[x+1].name, o, sums)
						}
					}
					got := v.compute(ref, dist)
					for s, score := range got {
						key := fmt.Sprintf("integer_vif_scale%d%s", s, vr.suffix)
						want, ok := g.Frames[i][key]
						if !ok {
							t.Fatalf("frame %d: golden has no %s", i, key)
						}
						d := math.Abs(score - want)
						worst = max(worst, d)
						if strconv.FormatFloat(score, 'f', 6, 64) == strconv.FormatFloat(want, 'f', 6, 64) {
							printedSame++
						}
						if !(d < vifTolerance) {
							t.Errorf("frame %d %s = %.8f, libvmaf %.6f (diff %.2g)", i, key, score, want, d)
						}
					}
				}
				t.Logf("vif%s: %d frames, kernels %d, worst |diff| %.3g, %d of %d scores print the same at 6 decimals",
					vr.suffix, len(g.Ref), len(sets), worst, printedSame, 4*len(g.Ref))
			}
		})
	}
}

// vifTestPair builds a reference of smooth texture and a distorted copy
// with noise, at any size and depth, with the given extra stride bytes.
func vifTestPair(w, h, bpc, pad int, seed uint64) (ref, dist *testpic.Picture) {
	rng := rand.New(rand.NewPCG(seed, 1))
	maxV := 1<<bpc - 1
	bps := 1
	if bpc > 8 {
		bps = 2
	}
	mk := func() *testpic.Picture {
		stride := w*bps + pad
		return &testpic.Picture{Width: w, Height: h, BitDepth: bpc, Chroma: testpic.Chroma400,
			Planes: [3][]byte{make([]byte, stride*h)}, Strides: [3]int{stride}}
	}
	ref, dist = mk(), mk()
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			base := 0.5 + 0.3*math.Sin(float64(x)*0.21+float64(y)*0.07) + 0.15*math.Cos(float64(x*y)*0.003)
			r := int(base * float64(maxV))
			d := r + int(rng.NormFloat64()*float64(maxV)*0.03)
			vifPutSample(ref, x, y, min(max(r, 0), maxV))
			vifPutSample(dist, x, y, min(max(d, 0), maxV))
		}
	}
	return ref, dist
}

func vifPutSample(p *testpic.Picture, x, y, v int) {
	if p.BitDepth == 8 {
		p.Planes[0][y*p.Strides[0]+x] = byte(v)
		return
	}
	o := y*p.Strides[0] + 2*x
	p.Planes[0][o], p.Planes[0][o+1] = byte(v), byte(v>>8)
}

// vifWithStride copies p into a plane with extra bytes after every row,
// filled with junk that must never be read.
func vifWithStride(p *testpic.Picture, extra int) *testpic.Picture {
	bps := 1
	if p.BitDepth > 8 {
		bps = 2
	}
	row := p.Width * bps
	stride := row + extra
	q := *p
	q.Strides[0] = stride
	q.Planes[0] = make([]byte, stride*p.Height)
	for i := range q.Planes[0] {
		q.Planes[0][i] = 0xa5
	}
	for y := 0; y < p.Height; y++ {
		copy(q.Planes[0][y*stride:y*stride+row], p.Planes[0][y*p.Strides[0]:])
	}
	return &q
}

func TestVIFStrideIndependent(t *testing.T) {
	cases := []struct{ w, h, bpc, extra int }{
		{64, 48, 8, 13},
		{37, 21, 10, 6},
		{33, 17, 12, 64},
		{40, 16, 16, 2},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%dx%d_%dbit", c.w, c.h, c.bpc), func(t *testing.T) {
			ref, dist := vifTestPair(c.w, c.h, c.bpc, 0, 7)
			v := newVIF(c.w, c.h, c.bpc, vifOptions{})
			tight := v.compute(ref.Plane(0), dist.Plane(0))
			wide := v.compute(vifWithStride(ref, c.extra).Plane(0), vifWithStride(dist, c.extra).Plane(0))
			if tight != wide {
				t.Fatalf("stride changes the scores: tight %v, padded %v", tight, wide)
			}
			for s, x := range tight {
				if !(x > 0 && x <= 1.5) {
					t.Errorf("scale %d score %v out of range", s, x)
				}
			}
		})
	}
}

func TestVIFIdenticalAndMismatch(t *testing.T) {
	ref, dist := vifTestPair(48, 32, 10, 0, 3)
	v := newVIF(48, 32, 10, vifOptions{enhnGainLimit: 1})
	same := v.compute(ref.Plane(0), ref.Plane(0))
	for s, x := range same {
		if math.Abs(x-1) > 1e-6 {
			t.Errorf("scale %d of a picture against itself = %v, want 1", s, x)
		}
	}
	noisy := v.compute(ref.Plane(0), dist.Plane(0))
	for s, x := range noisy {
		if !(x < same[s]) {
			t.Errorf("scale %d: noise does not lower VIF (%v vs %v)", s, x, same[s])
		}
	}
	small, _ := vifTestPair(40, 32, 10, 0, 3)
	tiny, _ := vifTestPair(15, 32, 10, 0, 3)
	for _, c := range []struct {
		name string
		v    *vif
		p    feature.Plane
	}{
		{"mismatched plane", v, small.Plane(0)},
		{"picture under 16x16", newVIF(15, 32, 10, vifOptions{}), tiny.Plane(0)},
		{"unsupported depth", newVIF(40, 32, 6, vifOptions{}), small.Plane(0)},
	} {
		for s, x := range c.v.compute(c.p, c.p) {
			if !math.IsNaN(x) {
				t.Errorf("%s: scale %d = %v, want NaN", c.name, s, x)
			}
		}
	}
}

func TestVIFNoAllocs(t *testing.T) {
	for _, k := range vifKernelSets() {
		for _, bpc := range []int{8, 10} {
			ref, dist := vifTestPair(67, 41, bpc, 0, 5)
			v := newVIFWith(67, 41, bpc, vifOptions{}, k)
			if n := testing.AllocsPerRun(5, func() { v.compute(ref.Plane(0), dist.Plane(0)) }); n != 0 {
				t.Errorf("%s kernels, %d-bit: compute allocates %v times per frame", k.name, bpc, n)
			}
		}
	}
}

// BenchmarkVIF times one frame with every kernel set this machine runs, on
// synthetic pairs and, when the shared goldens are there, on a real 1080p
// pair (whose flat areas take a faster path through the statistics).
func BenchmarkVIF(b *testing.B) {
	type pair struct {
		name      string
		ref, dist []*testpic.Picture
	}
	var pairs []pair
	for _, c := range []struct{ w, h, bpc int }{{576, 324, 8}, {1920, 1080, 8}, {1920, 1080, 10}} {
		ref, dist := vifTestPair(c.w, c.h, c.bpc, 0, 1)
		pairs = append(pairs, pair{fmt.Sprintf("%dx%d_%dbit", c.w, c.h, c.bpc), []*testpic.Picture{ref}, []*testpic.Picture{dist}})
	}
	const clip = "dune_1920x1080_x264_crf38"
	if slices.Contains(testpic.GoldenNames(b), clip) {
		g := testpic.LoadGolden(b, clip, 4)
		pairs = append(pairs, pair{clip, g.Ref, g.Dist})
	}
	for _, k := range vifKernelSets() {
		for _, p := range pairs {
			b.Run(k.name+"/"+p.name, func(b *testing.B) {
				pl := p.ref[0].Plane(0)
				v := newVIFWith(pl.W, pl.H, pl.BitDepth, vifOptions{}, k)
				v.compute(p.ref[0].Plane(0), p.dist[0].Plane(0)) // builds the shared tables
				b.ReportAllocs()
				done := testpic.ReportThreadCPU(b)
				i := 0
				for b.Loop() {
					v.compute(p.ref[i].Plane(0), p.dist[i].Plane(0))
					i = (i + 1) % len(p.ref)
				}
				done()
			})
		}
	}
}

func TestVIFLog2(t *testing.T) {
	lg := vifLog2()
	cases := []struct {
		x    uint64
		want int64
	}{
		{1 << 15, 15 * 2048},
		{1 << 17, 17 * 2048},
		{1 << 40, 40 * 2048},
		{3 << 16, 36014},                // round(2048·log2(3·2^16))
		{3<<16 + 1, 36014},              // the bits below the leading 16 are dropped
		{1<<17 + 1<<16, 17*2048 + 1198}, // 2048·log2(1.5) ≈ 1198.0
		{65535 << 8, 8*2048 + 32768},    // 2048·log2(65535) rounds up to 2048·16
	}
	for _, c := range cases {
		if got := lg.log2(c.x); got != c.want {
			t.Errorf("log2(%#x) = %d, want %d", c.x, got, c.want)
		}
	}
}
