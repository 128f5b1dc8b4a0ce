package pipelines

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestMCPFilesTinyTypeScriptClient scores with learned models through
// `vmaf-score mcp`, spawned by the official TypeScript SDK: tiny_model on
// a pair and, with no_reference, on the distorted file alone, each as
// the command line scores it, and the refusals of tiny_device=cuda (not in
// the library) and of tiny_model_verify on a model no registry pins.
func TestMCPFilesTinyTypeScriptClient(t *testing.T) {
	dir := tsClientDir(t)
	bin, _ := ffSetup(t)
	tiny := tinyModels(t)
	allow := t.TempDir()
	copyFile := func(src, name string) string {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(allow, name)
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return dst
	}
	for _, f := range []string{"vmaf_tiny_v2.onnx", "vmaf_tiny_v2.json", "nr_metric_v1.onnx", "nr_metric_v1.json", "registry.json"} {
		copyFile(filepath.Join(tiny, f), f)
	}
	copyFile(filepath.Join(tiny, "vmaf_tiny_v2.onnx"), "unpinned.onnx")
	ref := copyFile(ffClips.Y4M(t, "flower_576x324_ref.y4m"), "ref.y4m")
	dist := copyFile(ffClips.Y4M(t, "flower_576x324_x264_crf22.y4m"), "dist.y4m")

	cliScore := func(args ...string) float64 {
		t.Helper()
		out, err := exec.Command(bin, append(args, "-q")...).Output()
		if err != nil {
			t.Fatalf("vmaf-score %v: %v", args, err)
		}
		_, v, _ := strings.Cut(strings.TrimSpace(string(out)), ": ")
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatalf("vmaf-score printed %q", out)
		}
		return f
	}
	wantFR := cliScore("-r", ref, "-d", dist, "--tiny-model", filepath.Join(allow, "vmaf_tiny_v2.onnx"))
	wantNR := cliScore("-d", dist, "--no-reference", "--tiny-model", filepath.Join(allow, "nr_metric_v1.onnx"))

	cfg, _ := json.Marshal(map[string]any{"bin": bin, "allow": allow, "ref": ref, "dist": dist})
	cmd := exec.Command("node", "score_tiny.mjs", string(cfg))
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node score_tiny.mjs: %v\n%s", err, out)
	}
	type outcome struct {
		Error  string
		Result *struct {
			FramesScored int                `json:"frames_scored"`
			Scores       map[string]float64 `json:"scores"`
		}
	}
	var rep struct {
		Inputs                           []string
		FR, NR, Cuda, Unpinned, NRWithFR outcome
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("report %s: %v", out, err)
	}
	for _, in := range []string{"tiny_model", "no_reference", "tiny_device", "tiny_threads", "tiny_model_verify"} {
		if !strings.Contains(","+strings.Join(rep.Inputs, ",")+",", ","+in+",") {
			t.Errorf("input %s not in the schema (%v)", in, rep.Inputs)
		}
	}
	if r := rep.FR.Result; r == nil || r.FramesScored != 48 || r.Scores["vmaf_tiny_v2"] != wantFR {
		t.Errorf("tiny_model on the pair: %+v %+v, the command line %v", rep.FR.Result, rep.FR.Error, wantFR)
	}
	if r := rep.NR.Result; r == nil || r.FramesScored != 48 || r.Scores["nr_metric_v1"] != wantNR {
		t.Errorf("no_reference: %+v %q, the command line %v", rep.NR.Result, rep.NR.Error, wantNR)
	}
	for name, c := range map[string]struct {
		o    outcome
		want string
	}{"cuda": {rep.Cuda, "cannot run on it"}, "unpinned": {rep.Unpinned, "not pinned"}, "no_reference with a full-reference model": {rep.NRWithFR, "needs a reference"}} {
		if c.o.Result != nil || !strings.Contains(c.o.Error, c.want) {
			t.Errorf("%s: %+v, want a refusal saying %q", name, c.o, c.want)
		}
	}
}
