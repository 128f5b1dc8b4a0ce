package floatpsnr

import (
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

func TestGolden(t *testing.T) {
	featuretest.Golden(t, featuretest.Tolerance{Abs: 1e-3}, Kind.Defaults())
}

// frame is a w×h frame of the given depth whose luma is fill(x, y).
func frame(f feature.Format, fill func(x, y int) int) *feature.Frame {
	var planes [3][]byte
	var strides [3]int
	bytes := 1
	if f.BitDepth > 8 {
		bytes = 2
	}
	for i := 0; i < f.Planes(); i++ {
		w, h := f.PlaneSize(i)
		strides[i] = w*bytes + 3 // a stride wider than the row
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
		name string
		f    feature.Format
		ref  func(x, y int) int
		dist func(x, y int) int
		want float64
	}{
		// Every sample off by one: MSE 1, PSNR 20·log10(255).
		{"8-bit off by one", feature.Format{Width: 7, Height: 5, BitDepth: 8, Chroma: feature.Chroma420},
			func(x, y int) int { return 100 }, func(x, y int) int { return 101 }, 48.130803608679105},
		// Identical pictures hit the ceiling.
		{"8-bit identical", feature.Format{Width: 1, Height: 1, BitDepth: 8, Chroma: feature.Chroma400},
			func(x, y int) int { return 3 }, func(x, y int) int { return 3 }, 60},
		{"10-bit identical", feature.Format{Width: 3, Height: 2, BitDepth: 10, Chroma: feature.Chroma444},
			func(x, y int) int { return 900 }, func(x, y int) int { return 900 }, 72},
		// 10-bit off by 4 is off by one in the 8-bit range: 20·log10(255.75).
		{"10-bit off by four", feature.Format{Width: 5, Height: 3, BitDepth: 10, Chroma: feature.Chroma422},
			func(x, y int) int { return 400 }, func(x, y int) int { return 404 }, 48.15631284768395},
		{"16-bit identical", feature.Format{Width: 2, Height: 2, BitDepth: 16, Chroma: feature.Chroma420},
			func(x, y int) int { return 65535 }, func(x, y int) int { return 65535 }, 108},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, err := Kind.New(tc.f, Kind.Defaults())
			if err != nil {
				t.Fatal(err)
			}
			defer x.Close()
			out := make([]float64, 1)
			if err := x.Extract(0, frame(tc.f, tc.ref), frame(tc.f, tc.dist), out); err != nil {
				t.Fatal(err)
			}
			if d := out[0] - tc.want; d > 1e-9 || d < -1e-9 {
				t.Errorf("got %.12f, want %.12f", out[0], tc.want)
			}
		})
	}
}

func TestBadFormat(t *testing.T) {
	_, err := Kind.New(feature.Format{Width: 4, Height: 4, BitDepth: 9}, Kind.Defaults())
	if err == nil || err.Error() != "feature float_psnr: bit depth 9 is not supported (8, 10, 12 or 16)" {
		t.Errorf("got %v", err)
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
	out := make([]float64, 1)
	b.ReportAllocs()
	for b.Loop() {
		x.Extract(0, ref, dist, out)
	}
}

// TestExactSum checks the integer sums, scalar and vector, against
// libvmaf's float32 squares summed in float64, bit for bit, on noise at
// every depth, and on the largest differences each depth allows.
func TestExactSum(t *testing.T) {
	for _, depth := range []int{8, 10, 12, 16} {
		mask := 1<<depth - 1
		for _, tc := range []struct {
			w, h      int
			ref, dist func(x, y int) int
		}{
			{67, 41, func(x, y int) int { return int(uint32(x*7919+y*104729)*2654435761>>7) & mask },
				func(x, y int) int { return int(uint32(x*15485863+y*32452843)*2654435761>>9) & mask }},
			// Rows longer than a kernel's run, every difference the
			// largest, in both signs.
			{70001, 2, func(x, y int) int { return mask * ((x + y) & 1) }, func(x, y int) int { return mask * ((x + y + 1) & 1) }},
		} {
			f := feature.Format{Width: tc.w, Height: tc.h, BitDepth: depth, Chroma: feature.Chroma420}
			ref, dist := frame(f, tc.ref), frame(f, tc.dist)
			scale := float32(int(1) << (depth - 8))
			var want float64
			for y := 0; y < f.Height; y++ {
				for x := 0; x < f.Width; x++ {
					e := float32(ref.Planes[0].At(x, y))/scale - float32(dist.Planes[0].At(x, y))/scale
					want += float64(e * e)
				}
			}
			for _, vec := range []bool{false, hasAVX2()} {
				if got := sumSquaredError(ref.Planes[0], dist.Planes[0], scale, vec); got != want {
					t.Errorf("%d-bit %dx%d (vector %v): %v, want %v", depth, tc.w, tc.h, vec, got, want)
				}
			}
		}
	}
}
