package psnrhvs

import (
	"math"
	"strings"
	"syscall"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

func TestGolden(t *testing.T) {
	// The identical pair's scores are infinite, which libvmaf's log writes
	// as null: Compare takes any value that is not finite for those.
	featuretest.Golden(t, featuretest.Tolerance{Abs: 1e-3}, Kind.Defaults())
}

func TestNewRejects(t *testing.T) {
	for _, tc := range []struct {
		f    feature.Format
		want string
	}{
		{feature.Format{Width: 64, Height: 64, BitDepth: 8, Chroma: feature.Chroma400}, "4:0:0"},
		{feature.Format{Width: 64, Height: 64, BitDepth: 16, Chroma: feature.Chroma444}, "bit depth 16"},
		{feature.Format{Width: 15, Height: 64, BitDepth: 8, Chroma: feature.Chroma420}, "plane 1 of a 15x64 picture is 7x32"},
		{feature.Format{Width: 64, Height: 7, BitDepth: 10, Chroma: feature.Chroma444}, "plane 0 of a 64x7 picture is 64x7"},
		{feature.Format{Width: 1, Height: 1, BitDepth: 8, Chroma: feature.Chroma422}, "plane 0"},
	} {
		_, err := Kind.New(tc.f, Kind.Defaults())
		if err == nil || !strings.HasPrefix(err.Error(), "feature psnr_hvs: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v): error %v, want one about %q", tc.f, err, tc.want)
		}
	}
}

// BenchmarkExtract1080p times one 1920x1080 4:2:0 frame pair of the
// golden x264 clip.
func BenchmarkExtract1080p(b *testing.B) {
	p := featuretest.Load(b, "dune_1920x1080_x264_crf38")
	x, err := Kind.New(p.Format, Kind.Defaults())
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	out := make([]float64, 4)
	start := cpuTime()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		n := i % len(p.Ref)
		if err := x.Extract(n, p.Ref[n], p.Dist[n], out); err != nil {
			b.Fatal(err)
		}
	}
	// The machine may be shared: CPU time is the steadier figure.
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// TestLibvmafSizes compares with libvmaf 3.2.0's tool on synthetic pairs
// (synthPair, given to the tool as raw YUV with its own chroma sizes):
// 4:2:2 and 4:4:4, 10 and 12 bits, and odd sizes, where libvmaf's chroma
// planes are rounded down and blocks stop short of the edges. The values
// are libvmaf's log, 6 decimals.
func TestLibvmafSizes(t *testing.T) {
	for _, tc := range []struct {
		f    feature.Format
		seed uint64
		want [4]float64 // y, cb, cr, combined
	}{
		{feature.Format{Width: 67, Height: 45, BitDepth: 8, Chroma: feature.Chroma422}, 1, [4]float64{37.420172, 45.346823, 35.458310, 37.538051}},
		{feature.Format{Width: 129, Height: 40, BitDepth: 10, Chroma: feature.Chroma422}, 2, [4]float64{38.694872, 45.459790, 33.673982, 38.130341}},
		{feature.Format{Width: 64, Height: 24, BitDepth: 12, Chroma: feature.Chroma422}, 3, [4]float64{39.505765, 47.439268, 33.443989, 38.642508}},
		{feature.Format{Width: 131, Height: 50, BitDepth: 8, Chroma: feature.Chroma420}, 4, [4]float64{37.092622, 45.781362, 35.634532, 37.299771}},
		{feature.Format{Width: 129, Height: 32, BitDepth: 10, Chroma: feature.Chroma420}, 5, [4]float64{38.415142, 45.173983, 34.356115, 38.098158}},
		{feature.Format{Width: 37, Height: 29, BitDepth: 12, Chroma: feature.Chroma444}, 7, [4]float64{38.406060, 45.410993, 33.604578, 37.906022}},
		{feature.Format{Width: 40, Height: 16, BitDepth: 8, Chroma: feature.Chroma444}, 8, [4]float64{36.047729, 44.229457, 34.448543, 36.226300}},
		// Chroma 63 wide, 21 high: rounding up would add a block.
		{feature.Format{Width: 127, Height: 43, BitDepth: 8, Chroma: feature.Chroma420}, 9, [4]float64{36.966727, 45.131027, 35.931302, 37.225369}},
		{feature.Format{Width: 127, Height: 22, BitDepth: 10, Chroma: feature.Chroma422}, 10, [4]float64{38.768273, 44.602075, 34.044396, 38.265068}},
		{feature.Format{Width: 323, Height: 201, BitDepth: 10, Chroma: feature.Chroma420}, 11, [4]float64{38.369076, 44.402666, 33.941060, 37.946745}},
	} {
		ref, dist := featuretest.SynthPair(tc.f, tc.seed)
		x, err := Kind.New(tc.f, Kind.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		var out [4]float64
		if err := x.Extract(0, ref, dist, out[:]); err != nil {
			t.Fatal(err)
		}
		for i, name := range Kind.Outputs(tc.f, Kind.Defaults()) {
			if math.Abs(out[i]-tc.want[i]) > 1e-6 {
				t.Errorf("%+v: %s %.6f, libvmaf %.6f", tc.f, name, out[i], tc.want[i])
			}
		}
	}
}

// TestSmallPictures runs every format and depth at the smallest sizes
// libvmaf's planes allow: the extractor must give numbers, not panic.
func TestSmallPictures(t *testing.T) {
	for _, c := range []feature.Chroma{feature.Chroma420, feature.Chroma422, feature.Chroma444} {
		for _, depth := range []int{8, 10, 12} {
			for w := 8; w <= 17; w++ {
				for h := 8; h <= 17; h++ {
					f := feature.Format{Width: w, Height: h, BitDepth: depth, Chroma: c}
					x, err := Kind.New(f, Kind.Defaults())
					small := c != feature.Chroma444 && (w < 16 || c == feature.Chroma420 && h < 16)
					if small != (err != nil) {
						t.Fatalf("%+v: chroma under 8x8 %v, error %v", f, small, err)
					}
					if small {
						continue
					}
					ref, dist := featuretest.SynthPair(f, uint64(w*h))
					out := make([]float64, 4)
					if err := x.Extract(0, ref, dist, out); err != nil {
						t.Fatalf("%+v: %v", f, err)
					}
					for i, v := range out {
						if math.IsNaN(v) || math.IsInf(v, 0) {
							t.Errorf("%+v: output %d is %v", f, i, v)
						}
					}
				}
			}
		}
	}
}

// cpuTime is the CPU time the process has used, in nanoseconds.
func cpuTime() int64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return u.Utime.Nano() + u.Stime.Nano()
}
