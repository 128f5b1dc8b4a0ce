package floatmoment

import (
	"math"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

func TestGolden(t *testing.T) {
	featuretest.Golden(t, featuretest.Tolerance{Rel: 1e-5}, Kind.Defaults())
}

// frame is a frame of format f whose luma is fill(x, y) and chroma mid-grey.
func frame(f feature.Format, fill func(x, y int) int) *feature.Frame {
	var planes [3][]byte
	var strides [3]int
	bytes := 1
	if f.BitDepth > 8 {
		bytes = 2
	}
	for i := 0; i < f.Planes(); i++ {
		w, h := f.PlaneSize(i)
		strides[i] = w*bytes + 1
		planes[i] = make([]byte, strides[i]*h)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				v := 128 << (f.BitDepth - 8)
				if i == 0 {
					v = fill(x, y)
				}
				o := y*strides[i] + x*bytes
				planes[i][o] = byte(v)
				if bytes == 2 {
					planes[i][o+1] = byte(v >> 8)
				}
			}
		}
	}
	return featuretest.NewFrame(f, planes, strides)
}

func TestValues(t *testing.T) {
	for _, tc := range []struct {
		name      string
		f         feature.Format
		ref, dist func(x, y int) int
		want      [4]float64 // ref1st, dis1st, ref2nd, dis2nd
	}{
		// Columns 0, 1, 2: mean 1, mean square 5/3.
		{"8-bit ramp", feature.Format{Width: 3, Height: 2, BitDepth: 8, Chroma: feature.Chroma420},
			func(x, y int) int { return x }, func(x, y int) int { return 10 }, [4]float64{1, 10, 5.0 / 3, 100}},
		// 10-bit 1023 is 255.75 in the 8-bit range.
		{"10-bit", feature.Format{Width: 1, Height: 1, BitDepth: 10, Chroma: feature.Chroma400},
			func(x, y int) int { return 1023 }, func(x, y int) int { return 2 }, [4]float64{255.75, 0.5, 255.75 * 255.75, 0.25}},
		{"16-bit", feature.Format{Width: 2, Height: 1, BitDepth: 16, Chroma: feature.Chroma444},
			func(x, y int) int { return 512 }, func(x, y int) int { return 256 * x }, [4]float64{2, 0.5, 4, 0.5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, err := Kind.New(tc.f, Kind.Defaults())
			if err != nil {
				t.Fatal(err)
			}
			out := make([]float64, 4)
			if err := x.Extract(0, frame(tc.f, tc.ref), frame(tc.f, tc.dist), out); err != nil {
				t.Fatal(err)
			}
			for i, w := range tc.want {
				if math.Abs(out[i]-w) > 1e-12 {
					t.Errorf("%s: %v, want %v", Kind.Outputs(tc.f, Kind.Defaults())[i], out[i], w)
				}
			}
		})
	}
}

func BenchmarkExtract(b *testing.B) {
	f := feature.Format{Width: 1920, Height: 1080, BitDepth: 8, Chroma: feature.Chroma420}
	ref := frame(f, func(x, y int) int { return (x*7 + y*3) & 255 })
	dist := frame(f, func(x, y int) int { return (x*7 + y*5) & 255 })
	x, err := Kind.New(f, Kind.Defaults())
	if err != nil {
		b.Fatal(err)
	}
	out := make([]float64, 4)
	b.ReportAllocs()
	for b.Loop() {
		x.Extract(0, ref, dist, out)
	}
}

// TestExactSums checks the integer sums, scalar and vector, against
// libvmaf's float32 samples and squares summed in float64, bit for bit,
// on noise at every depth, and on rows of the largest samples longer
// than a kernel's run.
func TestExactSums(t *testing.T) {
	for _, depth := range []int{8, 10, 12, 16} {
		mask := 1<<depth - 1
		for _, tc := range []struct {
			w, h int
			fill func(x, y int) int
		}{
			{67, 41, func(x, y int) int { return int(uint32(x*7919+y*104729)*2654435761>>7) & mask }},
			{70001, 2, func(x, y int) int { return mask - (x+y)%3 }},
		} {
			f := feature.Format{Width: tc.w, Height: tc.h, BitDepth: depth, Chroma: feature.Chroma420}
			p := frame(f, tc.fill).Planes[0]
			scale := float32(int(1) << (depth - 8))
			var sum, sq float64
			for y := 0; y < f.Height; y++ {
				for x := 0; x < f.Width; x++ {
					v := float32(p.At(x, y)) / scale
					sum += float64(v)
					sq += float64(v * v)
				}
			}
			for _, vec := range []bool{false, hasAVX2()} {
				if s, s2 := moments(p, scale, vec); s != sum || s2 != sq {
					t.Errorf("%d-bit %dx%d (vector %v): %v %v, want %v %v", depth, tc.w, tc.h, vec, s, s2, sum, sq)
				}
			}
		}
	}
}
