package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A results file plots after the run, without a socket: each model's
// line, its swaps, windows and drops.
func TestPlotResultsFile(t *testing.T) {
	t.Setenv("VMAF_SOCKET", "")
	dir := t.TempDir()
	var frames []string
	for i := range 30 {
		model := "vmaf"
		if i >= 20 {
			model = "vmaf_neg"
		}
		frames = append(frames, fmt.Sprintf(`{"frameNum": %d, "metrics": {"integer_adm2": 0.9, "%s": %d.5, "vmaf_b_bagging": 1}}`, i, model, 70+i%9))
	}
	doc := `{"version": "3.2.0", "frames": [` + strings.Join(frames, ",") + `],
  "pooled_metrics": {}, "aggregate_metrics": {},
  "model_swaps": [{"frameNum": 20, "from": "vmaf", "to": "vmaf_neg"}],
  "windows": [{"first": 0, "last": 9, "mean": 74.0}],
  "alerts": [{"id": 1, "first": 2, "last": 4, "threshold": 73}]}`
	results := filepath.Join(dir, "results.json")
	if err := os.WriteFile(results, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	svg := filepath.Join(dir, "out.svg")
	code, out, e := vmafctl(t, "plot", results, "-o", svg)
	if code != exitOK || !strings.Contains(out, "out.svg: 30 frames, 2 models, 1 drops") {
		t.Fatalf("exit %d: %s%s", code, out, e)
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">results.json — vmaf, vmaf_neg<", ">→ vmaf_neg<", ">window mean<", ">alert threshold 73<"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("plot lacks %q", want)
		}
	}
	if strings.Contains(string(b), "bagging") || strings.Contains(string(b), ">integer_adm2") {
		t.Error("a feature or a bootstrap statistic drawn as a model")
	}
	if code, _, e := vmafctl(t, "plot", filepath.Join(dir, "none.json"), "-o", svg); code != exitError || !strings.Contains(e, "none.json") {
		t.Errorf("missing file: exit %d, %q", code, e)
	}
}
