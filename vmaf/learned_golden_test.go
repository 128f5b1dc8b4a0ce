package vmaf

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/internal/testclips"
)

// tinyDir is where the learned models are: $VMAF_MODELS/tiny or the
// shared models beside the checkout. A test that needs them fails when
// they are missing.
func tinyDir(t testing.TB) string {
	t.Helper()
	dirs := []string{filepath.Join(goldenRoot, "..", "shared", "models", "tiny")}
	if d := os.Getenv("VMAF_MODELS"); d != "" {
		dirs = append([]string{filepath.Join(d, "tiny")}, dirs...)
	}
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "registry.json")); err == nil {
			return d
		}
	}
	t.Fatalf("the learned models are not in %v", dirs)
	return ""
}

// tinyOracle reads what ONNX Runtime gave for a pair's frames.
func tinyOracle(t testing.TB, pair, kind string) map[string][]float64 {
	t.Helper()
	path, _, err := testclips.Find(goldenRoot, filepath.Join("tiny", pair+"."+kind+".json"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var o struct {
		Scores map[string][]float64 `json:"scores"`
	}
	if err := json.Unmarshal(data, &o); err != nil {
		t.Fatal(err)
	}
	return o.Scores
}

func tinyPairs(t testing.TB, kind string) []string {
	var names []string
	for _, p := range testclips.Glob(goldenRoot, filepath.Join("tiny", "*."+kind+".json")) {
		names = append(names, strings.TrimSuffix(filepath.Base(p), "."+kind+".json"))
	}
	if len(names) == 0 {
		t.Fatalf("no %s oracles in %v", kind, testclips.Dirs(goldenRoot))
	}
	return names
}

// TestLearnedFROracle checks the full-reference regressors, fed the
// engine's own features, against ONNX Runtime fed libvmaf's: within 5e-4.
// The int8 copies quantise their inputs at run time, so a feature that
// differs from libvmaf's printed six decimals in the seventh can move an
// input across a quantisation step and the score by a few hundredths;
// for them the end-to-end bound is 0.1, and the exact check is the one
// on libvmaf's own printed features (TestLearnedFRPlumbing).
func TestLearnedFROracle(t *testing.T) {
	dir := tinyDir(t)
	files := tinyFRFiles
	worst := map[string]float64{}
	for _, pair := range tinyPairs(t, "fr") {
		oracle := tinyOracle(t, pair, "fr")
		g := loadGolden(t, pair, 0)
		var models []*Model
		for key, file := range files {
			m, err := ParseModelSpec("path=" + filepath.Join(dir, file) + ":name=" + strings.ReplaceAll(key, ".", "_"))
			if err != nil {
				t.Fatal(err)
			}
			models = append(models, m)
		}
		results := scoreAll(t, Config{Models: models, Threads: 2}, g.ref, g.dist)
		for key := range files {
			want := oracle[key]
			if len(want) != len(results) {
				t.Fatalf("%s %s: %d oracle frames, %d results", pair, key, len(want), len(results))
			}
			for i, r := range results {
				got, ok := r.Get(strings.ReplaceAll(key, ".", "_"))
				if !ok {
					t.Fatalf("%s frame %d: no %s", pair, i, key)
				}
				d := math.Abs(got - want[i])
				worst[key] = max(worst[key], d)
				if bound := learnedBound(key); d > bound {
					t.Errorf("%s frame %d %s: %.6f, ONNX Runtime on libvmaf's features %.6f (|d| %.2g > %g)", pair, i, key, got, want[i], d, learnedBound(key))
				}
			}
		}
	}
	for k, w := range worst {
		t.Logf("%-18s worst |d| %.3g", k, w)
	}
}

func learnedBound(key string) float64 {
	if strings.HasSuffix(key, ".int8") {
		return 0.1
	}
	return 5e-4
}

// tinyFRFiles are the full-reference models the oracles hold, by key.
var tinyFRFiles = map[string]string{
	"vmaf_tiny_v2": "vmaf_tiny_v2.onnx", "vmaf_tiny_v3": "vmaf_tiny_v3.onnx", "vmaf_tiny_v4": "vmaf_tiny_v4.onnx",
	"vmaf_tiny_v3.int8": "vmaf_tiny_v3.int8.onnx", "vmaf_tiny_v4.int8": "vmaf_tiny_v4.int8.onnx",
	"fr_regressor_v1": "fr_regressor_v1.onnx",
}

// TestLearnedFRPlumbing feeds each model libvmaf's printed features, as
// the oracle was fed: every model, int8 included, within 5e-4.
func TestLearnedFRPlumbing(t *testing.T) {
	dir := tinyDir(t)
	for _, pair := range tinyPairs(t, "fr") {
		oracle := tinyOracle(t, pair, "fr")
		g := loadGolden(t, pair, 0)
		for key, file := range tinyFRFiles {
			m, err := ParseModelSpec("path=" + filepath.Join(dir, file))
			if err != nil {
				t.Fatal(err)
			}
			out := make([]float64, 1)
			for i, f := range g.frames {
				x := []float64{f["integer_adm2"], f["integer_vif_scale0"], f["integer_vif_scale1"], f["integer_vif_scale2"], f["integer_vif_scale3"], f["integer_motion2"]}
				if err := m.score(x, out); err != nil {
					t.Fatal(err)
				}
				if d := math.Abs(out[0] - oracle[key][i]); d > 5e-4 {
					t.Errorf("%s frame %d %s on libvmaf's features: %.6f, ONNX Runtime %.6f", pair, i, key, out[0], oracle[key][i])
				}
			}
		}
	}
}

// TestLearnedNROracle scores each distorted clip alone with nr_metric_v1
// (and its int8 copy) against ONNX Runtime fed FFmpeg's area-scaled
// luma: within 0.01 MOS. The scaling matches FFmpeg's to a level in a few
// percent of the 224x224 samples (its x86 vertical pass truncates each
// tap); the int8 copy, which quantises its activations at run time,
// turns those into up to two hundredths, so its bound is 0.03.
func TestLearnedNROracle(t *testing.T) {
	dir := tinyDir(t)
	worst := map[string]float64{}
	for _, pair := range tinyPairs(t, "nr") {
		oracle := tinyOracle(t, pair, "nr")
		g := loadGolden(t, pair, 0)
		var models []*Model
		for _, key := range []string{"nr_metric_v1", "nr_metric_v1.int8"} {
			m, err := ParseModelSpec("path=" + filepath.Join(dir, key+".onnx") + ":name=" + strings.ReplaceAll(key, ".", "_"))
			if err != nil {
				t.Fatal(err)
			}
			if !m.NoReference() {
				t.Fatalf("%s: not a no-reference model", key)
			}
			models = append(models, m)
		}
		// No reference: the distorted picture stands in for it.
		results := scoreAll(t, Config{Models: models, Threads: 2}, g.dist, g.dist)
		for _, key := range []string{"nr_metric_v1", "nr_metric_v1.int8"} {
			want := oracle[key]
			if len(want) != len(results) {
				t.Fatalf("%s %s: %d oracle frames, %d results", pair, key, len(want), len(results))
			}
			for i, r := range results {
				got, _ := r.Get(strings.ReplaceAll(key, ".", "_"))
				d := math.Abs(got - want[i])
				worst[key+" "+pair] = max(worst[key+" "+pair], d)
				bound := 0.01
				if strings.HasSuffix(key, ".int8") {
					bound = 0.03
				}
				if d > bound {
					t.Errorf("%s frame %d %s: %.5f, ONNX Runtime on FFmpeg's area-scaled luma %.5f (|d| %.3g > %g)", pair, i, key, got, want[i], d, bound)
				}
			}
		}
		for _, r := range results {
			for _, m := range r.Metrics {
				if strings.HasPrefix(m.Name, "nr_model") {
					t.Fatalf("the picture stage's value %s is reported", m.Name)
				}
			}
		}
	}
	for k, w := range worst {
		t.Logf("%-48s worst |d| %.3g", k, w)
	}
}

// TestLPIPSOracle checks the lpips feature against ONNX Runtime fed the
// card's conversion: within 1e-4.
func TestLPIPSOracle(t *testing.T) {
	model := filepath.Join(tinyDir(t), "lpips_sq.onnx")
	worst := 0.0
	for _, pair := range tinyPairs(t, "lpips") {
		want := tinyOracle(t, pair, "lpips")["lpips_sq"]
		// The network costs tens of milliseconds a frame: twelve frames
		// of each pair (four with -short) keep the suite quick.
		max := min(len(want), 12)
		if testing.Short() {
			max = 4
		}
		g := loadGolden(t, pair, max)
		results := scoreAll(t, Config{Features: []string{"lpips=model_path=" + model}, Threads: 2}, g.ref, g.dist)
		if len(results) != max {
			t.Fatalf("%s: %d results for %d frames", pair, len(results), max)
		}
		for i, r := range results {
			got, ok := r.Get("lpips")
			if !ok {
				t.Fatalf("%s frame %d: no lpips in %v", pair, i, r.Metrics)
			}
			d := math.Abs(got - want[i])
			worst = math.Max(worst, d)
			if d > 1e-4 {
				t.Errorf("%s frame %d: lpips %.6f, ONNX Runtime %.6f (|d| %.2g > 1e-4)", pair, i, got, want[i], d)
			}
		}
	}
	t.Logf("worst |d| %.3g", worst)
}
