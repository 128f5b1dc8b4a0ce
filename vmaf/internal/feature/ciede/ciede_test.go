package ciede

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

// TestDeltaE2000 checks the formula on libvmaf's own unit-test colours,
// whose results it requires to float32 precision.
func TestDeltaE2000(t *testing.T) {
	for _, tc := range []struct {
		c1, c2 lab
		want   float32
	}{
		{lab{0.052488625, -0.587470829, -8.98771572}, lab{0.465437293, 0.386364758, -12.7648535}, 2.54780269},
		{lab{87.156334, -12.049645, -1.205325}, lab{83.455727, -9.040445, -8.894289}, 4.22714281},
		{lab{79.718491, 9.109915, 13.727915}, lab{78.717224, 7.526546, 5.597448}, 4.26012468},
		{lab{99.205299, -3.339410, 1.205873}, lab{97.991730, -2.497345, 2.473533}, 1.26915979},
		{lab{50, 0, 0}, lab{50, 0, 0}, 0},
	} {
		if got := deltaE2000(tc.c1, tc.c2); math.Abs(float64(got-tc.want)) > 1e-9 {
			t.Errorf("deltaE2000(%v, %v) = %.9g, want %.9g", tc.c1, tc.c2, got, tc.want)
		}
	}
}

func TestNewRejects(t *testing.T) {
	for _, tc := range []struct {
		f    feature.Format
		want string
	}{
		{feature.Format{Width: 64, Height: 64, BitDepth: 8, Chroma: feature.Chroma400}, "4:0:0"},
		{feature.Format{Width: 64, Height: 64, BitDepth: 9, Chroma: feature.Chroma420}, "bit depth 9"},
		{feature.Format{Width: 0, Height: 64, BitDepth: 8, Chroma: feature.Chroma444}, "empty picture"},
	} {
		_, err := Kind.New(tc.f, Kind.Defaults())
		if err == nil || !strings.HasPrefix(err.Error(), "feature ciede: ") || !strings.Contains(err.Error(), tc.want) {
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
	out := make([]float64, 1)
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

// TestLibvmafQuirks compares with libvmaf 3.2.0's tool on synthetic
// pairs (synthPair, given to the tool as raw YUV with its own chroma
// sizes) that reach its particular chroma reads: 4:2:2 rows running on
// into the next chroma rows, odd widths reading a padding sample or, when
// W>>1 is a multiple of 32, the next row's first sample, and deep
// samples. The values are libvmaf's log, 6 decimals.
func TestLibvmafQuirks(t *testing.T) {
	for _, tc := range []struct {
		f    feature.Format
		seed uint64
		want float64
	}{
		{feature.Format{Width: 67, Height: 45, BitDepth: 8, Chroma: feature.Chroma422}, 1, 38.924071},
		{feature.Format{Width: 129, Height: 40, BitDepth: 10, Chroma: feature.Chroma422}, 2, 37.589523},
		{feature.Format{Width: 64, Height: 24, BitDepth: 12, Chroma: feature.Chroma422}, 3, 37.503623},
		{feature.Format{Width: 131, Height: 50, BitDepth: 8, Chroma: feature.Chroma420}, 4, 37.417549},
		{feature.Format{Width: 129, Height: 32, BitDepth: 10, Chroma: feature.Chroma420}, 5, 37.480683},
		{feature.Format{Width: 48, Height: 32, BitDepth: 16, Chroma: feature.Chroma420}, 6, 37.617066},
		{feature.Format{Width: 37, Height: 29, BitDepth: 12, Chroma: feature.Chroma444}, 7, 37.738168},
		{feature.Format{Width: 40, Height: 16, BitDepth: 8, Chroma: feature.Chroma444}, 8, 37.091191},
		{feature.Format{Width: 127, Height: 22, BitDepth: 10, Chroma: feature.Chroma422}, 10, 37.495935},
		// An odd 4:2:0 height: the last luma row reads a chroma row past
		// Cb's buffer (Cr's first) and past Cr's (zeros in a picture as
		// large as this one).
		{feature.Format{Width: 323, Height: 201, BitDepth: 10, Chroma: feature.Chroma420}, 11, 37.471942},
	} {
		ref, dist := featuretest.SynthPair(tc.f, tc.seed)
		x, err := Kind.New(tc.f, Kind.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		out := make([]float64, 1)
		if err := x.Extract(0, ref, dist, out); err != nil {
			t.Fatal(err)
		}
		if math.Abs(out[0]-tc.want) > 1e-6 {
			t.Errorf("%+v: ciede2000 %.6f, libvmaf %.6f", tc.f, out[0], tc.want)
		}
	}
}

// TestSmallPictures runs every format at sizes down to 1x1, where
// libvmaf's chroma planes have no columns (width 1) or where its reads
// leave its buffers: the extractor must give a number, not panic.
func TestSmallPictures(t *testing.T) {
	for _, c := range []feature.Chroma{feature.Chroma420, feature.Chroma422, feature.Chroma444} {
		for _, depth := range []int{8, 10, 12, 16} {
			for w := 1; w <= 5; w++ {
				for h := 1; h <= 5; h++ {
					f := feature.Format{Width: w, Height: h, BitDepth: depth, Chroma: c}
					ref, dist := featuretest.SynthPair(f, uint64(w*h))
					x, err := Kind.New(f, Kind.Defaults())
					if err != nil {
						t.Fatalf("%+v: %v", f, err)
					}
					out := make([]float64, 1)
					if err := x.Extract(0, ref, dist, out); err != nil || math.IsNaN(out[0]) {
						t.Errorf("%+v: %v, %v", f, out[0], err)
					}
				}
			}
		}
	}
}

// BenchmarkExtract1080p10bit times a synthetic 1920x1080 4:2:0 10-bit
// pair whose noise defeats the caches: the slow case.
func BenchmarkExtract1080p10bit(b *testing.B) {
	f := feature.Format{Width: 1920, Height: 1080, BitDepth: 10, Chroma: feature.Chroma420}
	ref, dist := featuretest.SynthPair(f, 1)
	x, err := Kind.New(f, Kind.Defaults())
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	out := make([]float64, 1)
	start := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		if err := x.Extract(0, ref, dist, out); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the CPU time the process has used, in nanoseconds.
func cpuTime() int64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return u.Utime.Nano() + u.Stime.Nano()
}
