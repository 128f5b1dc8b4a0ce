package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tinyModelDir is where the learned models are; the tests that need them
// fail without them.
func tinyModelDir(t *testing.T) string {
	t.Helper()
	dirs := []string{filepath.Join("..", "..", "..", "shared", "models", "tiny")}
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

// TestLearnedCLI runs the learned models as a user would: a no-reference
// run without -r, a full-reference tiny model beside the SVM, and the
// refusals of a no-reference run that lacks what it needs.
func TestLearnedCLI(t *testing.T) {
	tiny := tinyModelDir(t)
	ref, dist := goldenY4M(t, "flower_576x324_ref.y4m"), goldenY4M(t, "flower_576x324_x264_crf22.y4m")
	out := filepath.Join(t.TempDir(), "nr.json")
	res := vmafScore(t, "-d", dist, "--no-reference", "--tiny-model", filepath.Join(tiny, "nr_metric_v1.onnx"), "--json", "-o", out, "--tiny-threads", "2")
	if res.code != 0 {
		t.Fatalf("no-reference run: exit %d: %s", res.code, res.stderr)
	}
	var doc struct {
		Frames []struct {
			Metrics map[string]float64 `json:"metrics"`
		} `json:"frames"`
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Frames) != 48 {
		t.Fatalf("%d frames", len(doc.Frames))
	}
	for i, f := range doc.Frames {
		v, ok := f.Metrics["nr_metric_v1"]
		if !ok || len(f.Metrics) != 1 || v < 1 || v > 5 {
			t.Fatalf("frame %d: %v, want nr_metric_v1 alone, on its 1-5 scale", i, f.Metrics)
		}
	}

	res = vmafScore(t, "-r", ref, "-d", dist, "-m", "version=vmaf_v0.6.1", "--tiny-model", filepath.Join(tiny, "vmaf_tiny_v2.onnx"),
		"-m", "path="+filepath.Join(tiny, "fr_regressor_v2.onnx")+":codec=libx264:preset=medium:crf=22:name=fr2", "--tiny-model-verify")
	if res.code != 0 || !strings.Contains(res.stdout, "vmaf_tiny_v2.onnx: ") || !strings.Contains(res.stdout, "fr_regressor_v2.onnx: ") {
		t.Fatalf("full-reference run: exit %d: %s %s", res.code, res.stdout, res.stderr)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-d", dist, "--no-reference"}, "needs a no-reference model"},
		{[]string{"-d", dist, "--no-reference", "--tiny-model", filepath.Join(tiny, "vmaf_tiny_v2.onnx")}, "needs a reference"},
		{[]string{"-r", ref, "-d", dist, "--no-reference", "--tiny-model", filepath.Join(tiny, "nr_metric_v1.onnx")}, "drop -r"},
		{[]string{"-d", dist, "--no-reference", "--tiny-model", filepath.Join(tiny, "nr_metric_v1.onnx"), "--feature", "psnr"}, "compares against a reference"},
		{[]string{"-d", dist}, "reference (-r/--reference) is required"},
		{[]string{"-r", ref, "-d", dist, "--tiny-model", filepath.Join(tiny, "vmaf_tiny_v2.onnx"), "--tiny-device", "cuda"}, "cannot run on it"},
	} {
		res := vmafScore(t, tc.args...)
		if res.code == 0 || !strings.Contains(res.stderr, tc.want) {
			t.Errorf("vmaf-score %v: exit %d, stderr %q; want a refusal saying %q", tc.args, res.code, res.stderr, tc.want)
		}
	}
}
