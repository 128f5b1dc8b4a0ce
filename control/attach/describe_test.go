package attach

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/vmaf"
)

// TestDescribeModelAndMismatch: vmaf_describe_model refuses what a swap
// refuses, describes built-in models, and on small frames a 4K model gets
// the same mismatched_model_warning in its description, in the swap reply
// and (once it scores) in the status warnings; replies say which engine
// runs and the build's version.
func TestDescribeModelAndMismatch(t *testing.T) {
	r := newRunner(t, pipeline.PauseSkip)
	path := filepath.Join(t.TempDir(), "vmaf.sock")
	p, err := Start(Config{Socket: path, Runner: r, Engine: "auto", ModelDirs: []string{t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cs := client(t, path)

	var d control.ModelDescription
	for _, tt := range []struct{ model, code string }{
		{"vmaf_v7", control.CodeUnknownModel},
		{"/etc/hostname", control.CodeForbiddenPath},
		{"version=vmaf_v0.6.1:nonsense", control.CodeBadRequest},
	} {
		msg := call(t, cs, "vmaf_describe_model", map[string]any{"model": tt.model}, &d)
		var c control.Command
		swapMsg := call(t, cs, "vmaf_request_model_swap", map[string]any{"model": tt.model}, &c)
		if !strings.HasPrefix(msg, tt.code) || code(msg) != code(swapMsg) {
			t.Errorf("describe %s: %q; swap: %q; want %s from both", tt.model, msg, swapMsg, tt.code)
		}
	}

	if msg := call(t, cs, "vmaf_describe_model", map[string]any{"model": "vmaf_b_v0.6.3"}, &d); msg != "" {
		t.Fatal(msg)
	}
	if d.Source != "builtin" || !d.Bootstrap || d.Members != 20 || d.Type != "BOOTSTRAP_LIBSVMNUSVR" || d.Viewing.Resolution != "1920x1080" ||
		d.Clip == nil || d.Clip.Max != 100 || len(d.Features) != 6 || d.MismatchedModelWarning != "" {
		t.Errorf("vmaf_b_v0.6.3: %+v", d)
	}

	// 176x144 frames: a 4K model does not suit them.
	ref, dist := frames(t, 4, 176, 144)
	push(t, r, ref[0], dist[0])
	waitFormat(t, p)
	if msg := call(t, cs, "vmaf_describe_model", map[string]any{"model": "vmaf_4k_v0.6.1"}, &d); msg != "" {
		t.Fatal(msg)
	}
	if d.Viewing.Resolution != "3840x2160" || !strings.Contains(d.MismatchedModelWarning, "on 176x144 input") {
		t.Errorf("vmaf_4k_v0.6.1 on 176x144: %+v", d)
	}
	var c control.Command
	if msg := call(t, cs, "vmaf_request_model_swap", map[string]any{"model": "vmaf_4k_v0.6.1"}, &c); msg != "" {
		t.Fatal(msg)
	}
	if c.MismatchedModelWarning != d.MismatchedModelWarning || c.EngineUsed != "native" || c.Version == "" {
		t.Errorf("swap reply %+v, want the warning %q, engine native and a version", c, d.MismatchedModelWarning)
	}
	for i := 1; i < len(ref); i++ {
		push(t, r, ref[i], dist[i])
	}
	if err := r.Finish(); err != nil {
		t.Fatal(err)
	}
	var st control.Status
	call(t, cs, "vmaf_status", nil, &st)
	if !slices.Contains(st.Warnings, d.MismatchedModelWarning) || st.Engine != "auto" || st.EngineUsed != "native" || st.Version == "" {
		t.Errorf("status warnings %q engine %q used %q version %q", st.Warnings, st.Engine, st.EngineUsed, st.Version)
	}
	var sc control.Scores
	call(t, cs, "vmaf_score", nil, &sc)
	if sc.EngineUsed != "native" || sc.Version != st.Version {
		t.Errorf("vmaf_score engine_used %q version %q", sc.EngineUsed, sc.Version)
	}
	// A fitting model: no warning.
	var fit control.ModelDescription
	if call(t, cs, "vmaf_describe_model", map[string]any{"model": "vmaf_v0.6.1"}, &fit); fit.MismatchedModelWarning != "" || fit.Source != "builtin" || fit.Bootstrap {
		t.Errorf("vmaf_v0.6.1 on 176x144: %+v", fit)
	}
}

func code(msg string) string { c, _, _ := strings.Cut(msg, ":"); return c }

// waitFormat waits until the Runner knows the stream's geometry.
func waitFormat(t *testing.T, p *Plane) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if p.target.r.Status().Format != nil {
			return
		}
	}
	t.Fatal("no stream format after the first pair")
}

func TestMismatch(t *testing.T) {
	for _, tt := range []struct {
		model string
		w, h  int
		want  string // in the warning; "" for none
	}{
		{"vmaf_4k_v0.6.1", 1920, 1080, "meant for 4K"},
		{"vmaf_4k_v0.6.1", 2560, 1440, ""},
		{"vmaf_4k_v0.6.1", 3840, 2160, ""},
		{"vmaf_v0.6.1", 3840, 2160, "meant for 1080p viewing"},
		{"vmaf_v0.6.1", 1920, 1080, ""},
		{"vmaf_b_v0.6.3", 4096, 2160, "vmaf_4k_v0.6.1 fits better"},
		{"version=vmaf_v0.6.1:enable_transform", 3840, 2160, "meant for 1080p viewing"},
		{"vmaf_v0.6.1", 0, 0, ""}, // no frames yet
	} {
		m, err := vmaf.ParseModelSpec(tt.model)
		if err != nil {
			t.Fatal(err)
		}
		got := mismatch(m, tt.w, tt.h)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s on %dx%d: %q, want %q", tt.model, tt.w, tt.h, got, tt.want)
		}
	}
}

func TestEngineFor(t *testing.T) {
	m, err := vmaf.BuiltinModel("vmaf_v0.6.1")
	if err != nil {
		t.Fatal(err)
	}
	ms := []*vmaf.Model{m}
	for _, tt := range []struct{ engine, want string }{{"native", "native"}, {"libvmaf", "libvmaf"}, {"auto", "native"}, {"", "native"}} {
		if got := engineFor(tt.engine, nil, ms); got != tt.want {
			t.Errorf("engineFor(%q) = %q, want %q", tt.engine, got, tt.want)
		}
	}
	if got := engineFor("auto", nil, nil); got != "" {
		t.Errorf("no models: %q", got)
	}
	var c engineCache
	if got := c.get("auto", nil, ms); got != "native" {
		t.Errorf("cache, first call: %q", got)
	}
	// Until the models change the answer is the cached one, which a
	// marker tells from a new one.
	c.engine = "cached"
	if got := c.get("auto", nil, ms); got != "cached" {
		t.Errorf("cache, same models: %q, want the cached answer", got)
	}
	if got := c.get("auto", nil, nil); got != "" {
		t.Errorf("cache, models changed: %q, want a new answer", got)
	}
}

// BenchmarkEngineFor is what a status reply pays once after each model
// change (the answer is cached until the models change again).
func BenchmarkEngineFor(b *testing.B) {
	m, err := vmaf.BuiltinModel("vmaf_v0.6.1")
	if err != nil {
		b.Fatal(err)
	}
	ms := []*vmaf.Model{m}
	for b.Loop() {
		if engineFor("auto", nil, ms) != "native" {
			b.Fatal("not native")
		}
	}
}
