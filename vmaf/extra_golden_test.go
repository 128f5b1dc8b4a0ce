package vmaf

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

// The extra goldens: libvmaf 3.2.0's float models and its other
// extractors, scored through a Context as a user would, with the
// requests the goldens were made with (see their README).
var (
	extraModels = []string{
		"version=vmaf_float_v0.6.1:name=vmaf_float",
		"version=vmaf_float_v0.6.1neg:name=vmaf_float_neg",
		"version=vmaf_float_b_v0.6.3:name=vmaf_float_b",
		"version=vmaf_float_4k_v0.6.1:name=vmaf_float_4k",
	}
	extraFeatures = []string{"cambi=full_ref=true", "ciede", "psnr_hvs", "float_psnr", "float_ansnr",
		"float_moment", "speed_chroma", "speed_temporal"}
)

// extraTolerance is the bar per metric: float models within 0.01 VMAF,
// float VIF/ADM/motion 1e-4, CAMBI, CIEDE2000, PSNR-HVS, PSNR and ANSNR
// 1e-3, moments 1e-5 and SpEED 1e-4 relative.
func extraTolerance(name string) featuretest.Tolerance {
	switch {
	case strings.HasPrefix(name, "vmaf_float"):
		return featuretest.Tolerance{Abs: 0.01}
	case strings.HasPrefix(name, "float_moment"):
		return featuretest.Tolerance{Rel: 1e-5}
	case strings.HasPrefix(name, "speed_"):
		return featuretest.Tolerance{Rel: 1e-4}
	case strings.HasPrefix(name, "cambi"), name == "ciede2000", strings.HasPrefix(name, "psnr_hvs"),
		name == "float_psnr", name == "float_ansnr", name == "float_anpsnr":
		return featuretest.Tolerance{Abs: 1e-3}
	}
	return featuretest.Tolerance{Abs: 1e-4}
}

func picturesOf(frames []*feature.Frame) []*Picture {
	out := make([]*Picture, len(frames))
	for i, f := range frames {
		p := &Picture{Width: f.Width, Height: f.Height, BitDepth: f.BitDepth, Chroma: Chroma(f.Chroma)}
		for j := 0; j < f.Format.Planes(); j++ {
			p.Planes[j], p.Strides[j] = f.Planes[j].Data, f.Planes[j].Stride
		}
		out[i] = p
	}
	return out
}

func TestGoldenExtra(t *testing.T) {
	if testing.Short() {
		t.Skip("scores every extra golden pair")
	}
	var models []*Model
	for _, spec := range extraModels {
		m, err := ParseModelSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, m)
	}
	worst := map[string]float64{}
	for _, name := range featuretest.Pairs(t) {
		p := featuretest.Load(t, name)
		res := scoreAll(t, Config{Models: models, Features: extraFeatures, Threads: 2}, picturesOf(p.Ref), picturesOf(p.Dist))
		if len(res) != len(p.Frames) {
			t.Fatalf("%s: %d results, %d frames in the log", name, len(res), len(p.Frames))
		}
		checked := 0
		for i, r := range res {
			for _, m := range r.Metrics {
				want, ok := p.Frames[i][m.Name]
				if !ok {
					continue // integer features, which the extra log lacks
				}
				checked++
				if !math.IsNaN(want) {
					worst[m.Name] = max(worst[m.Name], math.Abs(m.Value-want))
				}
				if !extraTolerance(m.Name).OK(m.Value, want) {
					t.Errorf("%s frame %d %s: got %.6f, libvmaf %.6f", name, i, m.Name, m.Value, want)
				}
			}
		}
		// Every metric of the log is reported.
		for k := range p.Frames[0] {
			if _, ok := res[0].Get(k); !ok && !strings.HasPrefix(k, "integer_") && !strings.HasPrefix(k, "VMAF_") &&
				!slices.Contains([]string{"vmaf", "vmaf_neg", "vmaf_4k", "psnr_y", "psnr_cb", "psnr_cr", "float_ssim", "float_ms_ssim"}, k) {
				t.Errorf("%s: libvmaf reports %s, the engine does not", name, k)
			}
		}
		if checked == 0 {
			t.Errorf("%s: nothing compared", name)
		}
	}
	names := make([]string, 0, len(worst))
	for n := range worst {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		t.Logf("worst |diff| %-28s %.3g", n, worst[n])
	}
}

// TestEngineNoAllocsExtra: with the float models and every other
// extractor on, scoring still allocates nothing per frame once warm.
func TestEngineNoAllocsExtra(t *testing.T) {
	p := featuretest.Load(t, "flower_576x324_x264_crf22")
	ref, dist := picturesOf(p.Ref[:4]), picturesOf(p.Dist[:4])
	var models []*Model
	for _, spec := range extraModels {
		m, err := ParseModelSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, m)
	}
	features := append([]string{"psnr=enable_apsnr=true:enable_mse=true", "float_ssim=enable_db=true"}, extraFeatures...)
	ctx, err := NewContext(Config{Models: models, Features: features, Threads: 2, OnResult: func(*Result) {}})
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	i := 0
	submit := func() {
		if err := ctx.Submit(ref[i%4], dist[i%4], nil); err != nil {
			t.Fatal(err)
		}
		i++
	}
	for range 20 {
		submit()
	}
	if n := testing.AllocsPerRun(30, submit); n > 0 {
		t.Errorf("%v allocations per frame", n)
	}
}
