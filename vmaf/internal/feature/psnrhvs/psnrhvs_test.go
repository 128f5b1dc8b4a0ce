package psnrhvs

import (
	"math"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

func TestGolden(t *testing.T) {
	for _, name := range featuretest.Pairs(t) {
		t.Run(name, func(t *testing.T) {
			p := featuretest.Load(t, name)
			names, values := featuretest.Run(t, p, Kind.Defaults())
			if identical(p) {
				wantInfinite(t, p, names, values)
				return
			}
			featuretest.Compare(t, p, names, values, featuretest.Tolerance{Abs: 1e-3})
		})
	}
}

// identical tells whether every distorted frame of the pair equals its
// reference.
func identical(p *featuretest.Pair) bool {
	for i := range p.Ref {
		for k := 0; k < p.Format.Planes(); k++ {
			if string(p.Ref[i].Planes[k].Data) != string(p.Dist[i].Planes[k].Data) {
				return false
			}
		}
	}
	return true
}

// wantInfinite checks a pair of identical clips: the error is 0, so
// libvmaf's scores are +Inf, which its JSON log writes as null (read as 0
// by the harness).
func wantInfinite(t *testing.T, p *featuretest.Pair, names []string, values [][]float64) {
	t.Helper()
	for i, frame := range values {
		for j, name := range names {
			if logged, ok := p.Frames[i][name]; !ok || logged != 0 {
				t.Fatalf("%s frame %d: libvmaf's log has %s = %v, want null", p.Name, i, name, logged)
			}
			if !math.IsInf(frame[j], 1) {
				t.Errorf("%s frame %d %s: got %v, want +Inf", p.Name, i, name, frame[j])
			}
		}
	}
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
	for i := 0; b.Loop(); i++ {
		n := i % len(p.Ref)
		if err := x.Extract(n, p.Ref[n], p.Dist[n], out); err != nil {
			b.Fatal(err)
		}
	}
}
