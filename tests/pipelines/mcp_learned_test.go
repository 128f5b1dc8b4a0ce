package pipelines

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// tinyModels is the directory of the learned models ($VMAF_MODELS/tiny or
// the shared models beside the checkout); a test needing them fails
// without them.
func tinyModels(t testing.TB) string {
	t.Helper()
	dirs := []string{filepath.Join(gsttest.RepoRoot(t), "..", "shared", "models", "tiny")}
	if d := os.Getenv("VMAF_MODELS"); d != "" {
		dirs = append([]string{filepath.Join(d, "tiny")}, dirs...)
	}
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "registry.json")); err == nil {
			abs, _ := filepath.Abs(d)
			return abs
		}
	}
	t.Fatalf("the learned models are not in %v", dirs)
	return ""
}

// tinyOracle is what ONNX Runtime gave for a pair's frames (fr or nr).
func tinyOracle(t testing.TB, pair, kind, model string) []float64 {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(gsttest.RepoRoot(t), "..", "shared", "goldens", "tiny", pair+"."+kind+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Scores map[string][]float64 `json:"scores"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Scores[model]) == 0 {
		t.Fatalf("%s: no %s scores", pair, model)
	}
	return doc.Scores[model]
}

// TestMCPSwapLearned swaps a running measurement from libvmaf's SVM to a
// learned model and back through the control plane, each swap placed by
// pausing first: every frame is scored by exactly one model, the learned
// frames match ONNX Runtime's scores on libvmaf's features, the SVM frames
// libvmaf's, and the engine in use names ONNX Runtime.
func TestMCPSwapLearned(t *testing.T) {
	const pair = "flower_576x324_x264_crf22"
	ref, dist := mcpFrames(t, "flower_576x324_ref"), mcpFrames(t, pair)
	golden := gsttest.Golden(t, pair)
	oracle := tinyOracle(t, pair, "fr", "vmaf_tiny_v2")
	run := mcpStart(t, mcpConfig{modelDirs: []string{tinyModels(t)}, pauseMode: pipeline.PauseBlock})
	cs, _ := mcpConnect(t, run.sock)

	var list struct {
		Models []struct {
			Name  string `json:"name"`
			Error string `json:"error"`
		} `json:"models"`
	}
	mcpCall(t, cs, "vmaf_list_models", nil, &list)
	found := false
	for _, m := range list.Models {
		found = found || m.Name == "vmaf_tiny_v2" && m.Error == ""
		if m.Name == "registry" || strings.HasSuffix(m.Name, "_card") {
			t.Errorf("vmaf_list_models lists %s", m.Name)
		}
	}
	if !found {
		t.Fatalf("vmaf_list_models does not offer vmaf_tiny_v2: %+v", list.Models)
	}
	var desc control.ModelDescription
	if msg := mcpCall(t, cs, "vmaf_describe_model", map[string]any{"model": "vmaf_tiny_v2.onnx"}, &desc); msg != "" {
		t.Fatal(msg)
	}
	if desc.Learned == nil || desc.Learned.Kind != "full-reference" || desc.Learned.License == "" ||
		!strings.HasPrefix(desc.Learned.SHA256, "d7000bf5") || desc.Learned.Pinned == "" || len(desc.Features) != 6 {
		t.Fatalf("vmaf_describe_model: %+v learned %+v", desc, desc.Learned)
	}

	done := run.feed(ref, dist, 40*time.Millisecond, 3)
	swapAt := func(model, name string, after uint64) int {
		mcpWaitStatus(t, cs, time.Minute, "frames scored", func(st control.Status) bool { return st.FramesScored >= after })
		if msg := mcpCall(t, cs, "vmaf_pause", map[string]any{"wait": true}, nil); msg != "" {
			t.Fatal(msg)
		}
		var cmd control.Command
		if msg := mcpCall(t, cs, "vmaf_request_model_swap", map[string]any{"model": model, "name": name}, &cmd); msg != "" {
			t.Fatal(msg)
		}
		if msg := mcpCall(t, cs, "vmaf_resume", map[string]any{"wait": true}, nil); msg != "" {
			t.Fatal(msg)
		}
		// Listed once applied; its first frame is known once scored.
		st := mcpWaitStatus(t, cs, time.Minute, "the swap's first frame scored", func(st control.Status) bool {
			for _, s := range st.Swaps {
				if s.Command == cmd.ID && (s.FirstFrame >= 0 || s.Superseded) {
					return true
				}
			}
			return false
		})
		for _, s := range st.Swaps {
			if s.Command == cmd.ID {
				return int(s.FirstFrame)
			}
		}
		return -1
	}
	toTiny := swapAt("vmaf_tiny_v2.onnx", "vmaf_tiny", 10)
	var st control.Status
	mcpCall(t, cs, "vmaf_status", nil, &st)
	if !strings.Contains(st.EngineUsed, "onnxruntime 1.") {
		t.Errorf("engine used %q while a learned model scores, want it to name onnxruntime", st.EngineUsed)
	}
	toSVM := swapAt("vmaf_v0.6.1", "vmaf", uint64(toTiny)+8)
	if fs := <-done; fs.err != nil {
		t.Fatal(fs.err)
	}
	recs := run.records()
	if len(recs) != 3*len(ref) || toTiny <= 0 || toSVM <= toTiny+1 || toSVM >= len(recs) {
		t.Fatalf("%d records, swaps at %d and %d", len(recs), toTiny, toSVM)
	}
	n := len(ref)
	worst := 0.0
	for i, r := range recs {
		name, version, want := "vmaf", "vmaf_v0.6.1", 0.0
		tiny := i >= toTiny && i < toSVM
		if tiny {
			name = "vmaf_tiny"
		}
		if r.Index != i || r.Model() == nil || r.Model().Name != name || tiny != strings.HasSuffix(r.Model().Version, "vmaf_tiny_v2.onnx") ||
			!tiny && r.Model().Version != version {
			t.Fatalf("record %d (index %d) scored by %+v, want %s", i, r.Index, r.Model(), name)
		}
		// Where the clip loops, motion compares the last frame with the
		// first: those frames have no golden.
		if k := i % n; i >= n-1 && (k == 0 || k == n-1) {
			continue
		}
		if tiny {
			want = oracle[i%n]
		} else {
			want = golden[i%n]["vmaf"]
		}
		d := math.Abs(r.Score - want)
		if tiny {
			worst = max(worst, d)
		}
		if tiny && d > 5e-4 || !tiny && d > mcpTolerance {
			t.Errorf("frame %d (%s): %.6f, want %.6f", i, name, r.Score, want)
		}
	}
	t.Logf("swaps at frames %d and %d of %d; worst |learned - ONNX Runtime| %.2g", toTiny, toSVM, len(recs), worst)
}
