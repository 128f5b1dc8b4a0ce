package attach

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/swap"
	"github.com/vmafsink/vmafsink/vmaf"
)

// frames makes n synthetic pairs: a textured reference panning right and
// a noisier copy of it.
func frames(t *testing.T, n, w, h int) (ref, dist []*vmaf.Picture) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	tex := make([]byte, (w+n)*h)
	for i := range tex {
		tex[i] = byte(rng.IntN(256))
	}
	for i := range n {
		r, _ := vmaf.NewPicture(w, h, 8, vmaf.Chroma420)
		d, _ := vmaf.NewPicture(w, h, 8, vmaf.Chroma420)
		for y := range h {
			for x := range w {
				v := tex[y*(w+n)+x+i]
				r.Planes[0][y*r.Strides[0]+x] = v
				d.Planes[0][y*d.Strides[0]+x] = byte(min(255, max(0, int(v)+rng.IntN(41)-20)))
			}
		}
		for p := 1; p < 3; p++ {
			for j := range r.Planes[p] {
				r.Planes[p][j], d.Planes[p][j] = 128, 128
			}
		}
		ref, dist = append(ref, r), append(dist, d)
	}
	return ref, dist
}

func newRunner(t *testing.T, mode pipeline.PauseMode) *pipeline.Runner {
	return newRunnerWith(t, pipeline.Config{PauseMode: mode})
}

// newRunnerWith is a Runner of c that scores vmaf_v0.6.1 natively on
// one thread and pairs frames by order.
func newRunnerWith(t *testing.T, c pipeline.Config) *pipeline.Runner {
	t.Helper()
	m, err := vmaf.BuiltinModel("vmaf_v0.6.1")
	if err != nil {
		t.Fatal(err)
	}
	c.Scorer = vmaf.Config{Models: []*vmaf.Model{m}, Engine: "native", Threads: 1}
	c.Pairing = pipeline.PairByOrder
	r, err := pipeline.New(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

func push(t *testing.T, r *pipeline.Runner, ref, dist *vmaf.Picture) {
	t.Helper()
	if err := r.Push(pipeline.Ref, pipeline.Frame{Picture: ref, Timing: pipeline.Untimed}); err != nil {
		t.Fatal(err)
	}
	if err := r.Push(pipeline.Dist, pipeline.Frame{Picture: dist, Timing: pipeline.Untimed}); err != nil {
		t.Fatal(err)
	}
}

func client(t *testing.T, path string) *mcp.ClientSession {
	t.Helper()
	conn, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, out any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		return res.Content[0].(*mcp.TextContent).Text
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
	return ""
}

func TestSwapThroughRunner(t *testing.T) {
	r := newRunner(t, pipeline.PauseSkip)
	path := filepath.Join(t.TempDir(), "vmaf.sock")
	p, err := Start(Config{Socket: path, Runner: r, Engine: "native"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cs := client(t, path)
	ref, dist := frames(t, 8, 176, 144)

	var st control.Status
	call(t, cs, "vmaf_status", nil, &st)
	if st.State != control.StateIdle || st.Model != "vmaf_v0.6.1" || st.Engine != "native" {
		t.Errorf("status before frames: %+v", st)
	}
	for i := range 3 {
		push(t, r, ref[i], dist[i])
	}
	var cmd control.Command
	if msg := call(t, cs, "vmaf_request_model_swap", map[string]any{"model": "vmaf_v0.6.1neg"}, &cmd); msg != "" || cmd.Status != control.CommandEnqueued {
		t.Fatalf("swap: %q %+v", msg, cmd)
	}
	for i := 3; i < 8; i++ {
		push(t, r, ref[i], dist[i])
	}
	if err := r.Finish(); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tg := p.target
	got, err := tg.Wait(wctx, cmd.ID)
	if err != nil || got.Status != control.CommandApplied || got.Frame != 3 || got.Model != "vmaf_v0.6.1neg" {
		t.Fatalf("swap after boundary: %+v, %v", got, err)
	}

	var sc control.Scores
	call(t, cs, "vmaf_score", map[string]any{"last": 8, "worst": 3}, &sc)
	if len(sc.Records) != 8 {
		t.Fatalf("%d records", len(sc.Records))
	}
	for _, rec := range sc.Records {
		want := "vmaf_v0.6.1"
		if rec.Frame >= 3 {
			want = "vmaf_v0.6.1neg"
		}
		if rec.Model != want {
			t.Errorf("frame %d scored by %s, want %s", rec.Frame, rec.Model, want)
		}
		if _, ok := rec.Features["integer_adm2"]; rec.Frame < 3 && !ok {
			t.Errorf("frame %d lacks integer_adm2: %v", rec.Frame, rec.Features)
		}
		if _, ok := rec.Features["integer_adm2_egl_1"]; rec.Frame >= 3 && !ok {
			t.Errorf("frame %d lacks the NEG model's integer_adm2_egl_1: %v", rec.Frame, rec.Features)
		}
	}
	if len(sc.Worst) != 3 || sc.Worst[0].Score > sc.Worst[1].Score || sc.Worst[1].Score > sc.Worst[2].Score {
		t.Errorf("worst = %+v", sc.Worst)
	}
	for _, w := range sc.Worst {
		for _, rec := range sc.Records {
			if rec.Score < w.Score && !containsFrame(sc.Worst, rec.Frame) {
				t.Errorf("frame %d (%.3f) is worse than listed worst frame %d (%.3f)", rec.Frame, rec.Score, w.Frame, w.Score)
			}
		}
	}

	call(t, cs, "vmaf_status", nil, &st)
	if st.State != control.StateFinished || st.FramesScored != 8 || len(st.Swaps) != 1 || st.Swaps[0].FirstFrame != 3 ||
		st.Swaps[0].From != "vmaf_v0.6.1" || st.Swaps[0].To != "vmaf_v0.6.1neg" || st.Format != "I420" || st.Width != 176 {
		t.Errorf("final status %+v", st)
	}
	if msg := call(t, cs, "vmaf_pause", nil, &cmd); !strings.HasPrefix(msg, control.CodeFinished) {
		t.Errorf("pause after finish: %q", msg)
	}
}

func containsFrame(recs []control.Record, f int64) bool {
	for _, r := range recs {
		if r.Frame == f {
			return true
		}
	}
	return false
}

func TestRefusals(t *testing.T) {
	r := newRunner(t, pipeline.PauseSkip)
	path := filepath.Join(t.TempDir(), "vmaf.sock")
	models := t.TempDir()
	p, err := Start(Config{Socket: path, Runner: r, Engine: "native", ModelDirs: []string{models}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cs := client(t, path)
	var cmd control.Command
	for _, tt := range []struct{ model, code string }{
		{"vmaf_v7", control.CodeUnknownModel},
		{"/etc/hostname", control.CodeForbiddenPath},
		{"version=vmaf_v0.6.1:nonsense", control.CodeBadRequest},
	} {
		if msg := call(t, cs, "vmaf_request_model_swap", map[string]any{"model": tt.model}, &cmd); !strings.HasPrefix(msg, tt.code) {
			t.Errorf("swap %s: %q, want %s", tt.model, msg, tt.code)
		}
	}
	// Fill the Runner's command queue: pauses are idempotent but queued.
	full := false
	for range pipeline.DefaultCommandQueue + 1 {
		if msg := call(t, cs, "vmaf_pause", nil, &cmd); msg != "" {
			full = strings.HasPrefix(msg, control.CodeQueueFull)
			break
		}
	}
	if !full {
		t.Error("no queue_full from a flood of pauses")
	}
	var ml control.ModelList
	call(t, cs, "vmaf_list_models", nil, &ml)
	if len(ml.Models) != len(vmaf.BuiltinModelVersions()) || len(ml.Dirs) != 1 {
		t.Errorf("models = %+v", ml)
	}
}

func TestPauseSkip(t *testing.T) {
	r := newRunner(t, pipeline.PauseSkip)
	tg, err := NewTarget(Config{Runner: r, Engine: "native"})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	ref, dist := frames(t, 6, 176, 144)
	ctx := context.Background()
	push(t, r, ref[0], dist[0])
	pc, err := tg.Pause(ctx)
	if err != nil {
		t.Fatal(err)
	}
	push(t, r, ref[1], dist[1])
	push(t, r, ref[2], dist[2])
	if c, err := tg.Wait(ctx, pc.ID); err != nil || c.Status != control.CommandApplied || c.Frame != 1 {
		t.Errorf("pause applied %+v, %v", c, err)
	}
	rc, _ := tg.Resume(ctx)
	push(t, r, ref[3], dist[3])
	if c, _ := tg.Wait(ctx, rc.ID); c.Frame != 3 {
		t.Errorf("resume applied at %d, want 3", c.Frame)
	}
	r.Finish()
	st := tg.Status()
	if st.FramesSkipped != 2 || st.FramesScored != 2 || st.FramesReceived != 4 {
		t.Errorf("counters: %+v", st)
	}
}

func TestConvert(t *testing.T) {
	for _, tt := range []struct {
		c     vmaf.Chroma
		depth int
		want  string
	}{
		{vmaf.Chroma420, 8, "I420"}, {vmaf.Chroma422, 8, "Y42B"}, {vmaf.Chroma444, 8, "Y444"}, {vmaf.Chroma400, 8, "GRAY8"},
		{vmaf.Chroma420, 10, "I420_10LE"}, {vmaf.Chroma422, 12, "I422_12LE"}, {vmaf.Chroma444, 10, "Y444_10LE"}, {vmaf.Chroma400, 16, "GRAY16_LE"},
	} {
		if got := formatName(tt.c, tt.depth); got != tt.want {
			t.Errorf("formatName(%v, %d) = %s, want %s", tt.c, tt.depth, got, tt.want)
		}
	}
	ex := extractors([]string{"integer_adm2_egl_1", "integer_adm_scale0_egl_1", "integer_vif_scale0_egl_1", "integer_motion2", "integer_adm2", "psnr_y", "vmaf_neg"})
	var got []string
	for _, e := range ex {
		got = append(got, e.Name+"("+strings.Join(e.Outputs, ",")+")")
		if strings.HasSuffix(e.Outputs[0], "_egl_1") {
			if len(e.Options) != 1 {
				t.Errorf("%s options %v", e.Name, e.Options)
			}
		} else if e.Options != nil {
			t.Errorf("%s options %v", e.Name, e.Options)
		}
	}
	want := "integer_adm(integer_adm2_egl_1,integer_adm_scale0_egl_1) integer_vif(integer_vif_scale0_egl_1) integer_motion(integer_motion2) integer_adm(integer_adm2) psnr(psnr_y)"
	if strings.Join(got, " ") != want {
		t.Errorf("extractors = %s\nwant %s", strings.Join(got, " "), want)
	}
	if ex[0].Options["adm_enhn_gain_limit"] != 1 || ex[1].Options["vif_enhn_gain_limit"] != 1 {
		t.Errorf("gain limits: %v %v", ex[0].Options, ex[1].Options)
	}

	k4, _ := vmaf.BuiltinModel("vmaf_4k_v0.6.1")
	hd, _ := vmaf.BuiltinModel("vmaf_v0.6.1")
	small := &vmaf.Picture{Width: 576, Height: 324}
	uhd := &vmaf.Picture{Width: 3840, Height: 2160}
	for _, tt := range []struct {
		m    *vmaf.Model
		f    *vmaf.Picture
		want string
	}{
		{k4, small, "saturate near 100"}, {hd, uhd, "vmaf_4k_v0.6.1 fits better"}, {hd, small, ""}, {k4, uhd, ""},
	} {
		w := strings.Join(warnings(pipeline.Status{Models: []*vmaf.Model{tt.m}, Format: tt.f}), "; ")
		if (tt.want == "") != (w == "") || !strings.Contains(w, tt.want) {
			t.Errorf("warnings(%s on %dx%d) = %q, want %q", tt.m.Version, tt.f.Width, tt.f.Height, w, tt.want)
		}
	}
}

func TestSpecFile(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"", ""},
		{"vmaf_v0.6.1", ""},
		{"/m/house.json", "/m/house.json"},
		{"version=vmaf_v0.6.1:name=n", ""},
		{"name=n:path=/m/house.json:disable_clip", "/m/house.json"},
	} {
		if got := specFile(tc.spec); got != tc.want {
			t.Errorf("specFile(%q) = %q, want %q", tc.spec, got, tc.want)
		}
	}
}

// TestSwapCommandLabel: a swap's command names the new model as records
// and status do.
func TestSwapCommandLabel(t *testing.T) {
	for _, tc := range []struct {
		s    swap.Swap
		want string
	}{
		{swap.Swap{Name: "vmaf_neg", Version: "vmaf_v0.6.1neg", State: swap.Applied}, "vmaf_neg"},
		{swap.Swap{Name: "vmaf", Version: "vmaf_v0.6.1neg", State: swap.Applied}, "vmaf_v0.6.1neg"},
		{swap.Swap{Name: "k", State: swap.Failed}, "k"},
	} {
		if got := swapCommand(tc.s).Model; got != tc.want {
			t.Errorf("swap %s (%s): command model %q, want %q", tc.s.Name, tc.s.Version, got, tc.want)
		}
	}
}
