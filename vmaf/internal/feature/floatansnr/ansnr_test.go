package floatansnr

import (
	"math"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

func TestGolden(t *testing.T) {
	featuretest.Golden(t, featuretest.Tolerance{Abs: 1e-3}, Kind.Defaults())
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
		strides[i] = w*bytes + 5
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

func TestFlat(t *testing.T) {
	// On flat pictures both filters keep the level (their weights sum to
	// one, to float32 rounding), so the noise is the level's difference.
	for _, tc := range []struct {
		name     string
		f        feature.Format
		ref, dis int
		ansnr    float64
	}{
		// Signal 64 (192-128), noise 1 per sample: 10·log10(64²).
		{"8-bit", feature.Format{Width: 9, Height: 7, BitDepth: 8, Chroma: feature.Chroma420}, 192, 191, 36.12359947967774},
		// 10-bit 768 is 192 in the 8-bit range.
		{"10-bit", feature.Format{Width: 3, Height: 3, BitDepth: 10, Chroma: feature.Chroma444}, 768, 764, 36.12359947967774},
		{"identical", feature.Format{Width: 4, Height: 5, BitDepth: 8, Chroma: feature.Chroma400}, 50, 50, 60},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, err := Kind.New(tc.f, Kind.Defaults())
			if err != nil {
				t.Fatal(err)
			}
			out := make([]float64, 2)
			err = x.Extract(0, frame(tc.f, func(int, int) int { return tc.ref }), frame(tc.f, func(int, int) int { return tc.dis }), out)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(out[0]-tc.ansnr) > 1e-4 {
				t.Errorf("float_ansnr %.6f, want %.6f", out[0], tc.ansnr)
			}
		})
	}
}

func TestMirror(t *testing.T) {
	for _, tc := range []struct{ i, n, want int }{
		{-2, 5, 2}, {-1, 5, 1}, {0, 5, 0}, {4, 5, 4}, {5, 5, 4}, {6, 5, 3},
	} {
		if got := mirror(tc.i, tc.n); got != tc.want {
			t.Errorf("mirror(%d, %d) = %d, want %d", tc.i, tc.n, got, tc.want)
		}
	}
}

// TestFilterRow checks the fast interior against the mirrored edge path on
// every column of a small noisy picture.
func TestFilterRow(t *testing.T) {
	const w, h = 11, 6
	src := make([]float32, w*h)
	for i := range src {
		src[i] = float32((i*37)%101) - 50
	}
	dst := make([]float32, w)
	for i := 0; i < h; i++ {
		filterRow(dst, src, w, h, i, distFilter[:], 5)
		for j := 0; j < w; j++ {
			var acc float32
			for k := 0; k < 5; k++ {
				var in float32
				for l := 0; l < 5; l++ {
					in += distFilter[k*5+l] * src[mirror(i-2+k, h)*w+mirror(j-2+l, w)]
				}
				acc += in
			}
			if dst[j] != acc {
				t.Fatalf("row %d column %d: %v, want %v", i, j, dst[j], acc)
			}
		}
	}
}

func TestBadFormat(t *testing.T) {
	for _, tc := range []struct {
		f   feature.Format
		err string
	}{
		{feature.Format{Width: 2, Height: 8, BitDepth: 8}, "feature float_ansnr: picture 2x8 is smaller than 3x3"},
		{feature.Format{Width: 8, Height: 8, BitDepth: 14}, "feature float_ansnr: bit depth 14 is not supported (8, 10, 12 or 16)"},
	} {
		if _, err := Kind.New(tc.f, Kind.Defaults()); err == nil || err.Error() != tc.err {
			t.Errorf("%+v: got %v, want %s", tc.f, err, tc.err)
		}
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
	out := make([]float64, 2)
	b.ReportAllocs()
	for b.Loop() {
		x.Extract(0, ref, dist, out)
	}
}

// TestFormats makes instances for every layout and depth at sizes from
// 1×1 up: each either refuses the format with an error or computes
// finite values.
func TestFormats(t *testing.T) {
	for _, depth := range []int{8, 10, 12, 16} {
		for _, c := range []feature.Chroma{feature.Chroma420, feature.Chroma422, feature.Chroma444, feature.Chroma400} {
			for _, size := range [][2]int{{1, 1}, {2, 3}, {3, 2}, {3, 3}, {4, 5}, {33, 17}} {
				f := feature.Format{Width: size[0], Height: size[1], BitDepth: depth, Chroma: c}
				mask := 1<<depth - 1
				ref := frame(f, func(x, y int) int { return (x*37 + y*91) & mask })
				dis := frame(f, func(x, y int) int { return (x*53 + y*17) & mask })
				x, err := Kind.New(f, Kind.Defaults())
				if err != nil {
					if size[0] >= minSize && size[1] >= minSize {
						t.Errorf("%+v: %v", f, err)
					}
					continue
				}
				out := make([]float64, 2)
				if err := x.Extract(0, ref, dis, out); err != nil {
					t.Fatal(err)
				}
				if math.IsNaN(out[0]) || math.IsNaN(out[1]) || math.IsInf(out[0], 0) || math.IsInf(out[1], 0) {
					t.Errorf("%+v: %v", f, out)
				}
			}
		}
	}
}
