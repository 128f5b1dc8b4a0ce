package pipelines

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// TestMCPElementFloatSwap drives a running vmafsink with extra-metric
// requests over its socket: vmaf_features lists the requests and their
// extractors, vmaf_list_extractors every extractor, and a swap to the
// float model vmaf_float_v0.6.1 is scored natively from its boundary on:
// every frame message after it carries libvmaf's vmaf_float score and
// the float features, every one before it vmaf_v0.6.1's, and the
// requested metrics all along.
func TestMCPElementFloatSwap(t *testing.T) {
	const pair = "flower_576x324_x264_crf22"
	golden := gsttest.Golden(t, pair)
	p, sock := startElement(t, "flower_576x324", "x264_crf22", "threads=2 features=ciede;float_ssim")
	cs, _ := mcpConnect(t, sock)

	var fe control.Features
	mcpCall(t, cs, "vmaf_features", nil, &fe)
	if !slices.Equal(fe.Extra, []string{"ciede", "float_ssim"}) || len(fe.Requests) != 2 || fe.Requests[0].Extractor != "ciede" {
		t.Errorf("vmaf_features extra %v, requests %+v", fe.Extra, fe.Requests)
	}
	var el control.ExtractorList
	mcpCall(t, cs, "vmaf_list_extractors", nil, &el)
	if !slices.ContainsFunc(el.Extractors, func(e control.ExtractorInfo) bool { return e.Name == "float_vif" }) {
		t.Errorf("vmaf_list_extractors lacks float_vif: %d extractors", len(el.Extractors))
	}

	mcpWaitStatus(t, cs, time.Minute, "10 frames scored", func(st control.Status) bool { return st.FramesScored >= 10 })
	var swap control.Command
	if msg := mcpCall(t, cs, "vmaf_request_model_swap", map[string]any{"model": "vmaf_float_v0.6.1", "name": "vmaf_float", "wait": true}, &swap); msg != "" {
		t.Fatal(msg)
	}
	boundary := int(swap.Frame)
	if swap.Status != control.CommandApplied || boundary < 10 || boundary >= len(golden) {
		t.Fatalf("swap to the float model: %+v, want applied mid-stream", swap)
	}
	// vmaf_features reads the latest record: wait for one of the float model's.
	mcpWaitStatus(t, cs, time.Minute, "a frame scored by the float model", func(st control.Status) bool { return st.LastFrame >= int64(boundary) })
	mcpCall(t, cs, "vmaf_features", nil, &fe)
	var float, ciede bool
	for _, e := range fe.Extractors {
		float = float || e.Name == "float_vif" && slices.Contains(e.Outputs, "vif_scale0")
		ciede = ciede || e.Request == "ciede" && slices.Contains(e.Outputs, "ciede2000")
	}
	if !float || !ciede {
		t.Errorf("after the swap vmaf_features lists %+v", fe.Extractors)
	}
	cs.Close()

	waitPipeline(t, p)
	frames, worst := 0, 0.0
	for _, m := range gsttest.ParseMessages(p.Output()) {
		if m.Fields["type"] != "frame" {
			continue
		}
		i, name := swappedFrame(t, m, boundary, scorer{"vmaf_v0.6.1", "vmaf"}, scorer{"vmaf_float_v0.6.1", "vmaf_float"})
		d := math.Abs(m.Float(t, "score") - golden[i][name])
		if i == boundary {
			// The engine starts float_motion, a sequential extractor, only
			// when a model needs it: the first frame it scores has no
			// predecessor, so its motion is 0 where libvmaf, which scored
			// the whole stream with the float model, has the previous
			// frame's (integer motion has no such gap: it always runs).
			t.Logf("frame %d, the swap's first: %s %v, libvmaf %.6f (float motion starts there)", i, name, m.Fields["score"], golden[i][name])
			frames++
			continue
		}
		worst = max(worst, d)
		if d > scoreTolerance(name) {
			t.Errorf("frame %d: %s %v, libvmaf %.6f", i, name, m.Fields["score"], golden[i][name])
		}
		if d := math.Abs(m.Float(t, "float_ssim") - golden[i]["float_ssim"]); d > 1e-5 {
			t.Errorf("frame %d: float_ssim %v, libvmaf %.6f", i, m.Fields["float_ssim"], golden[i]["float_ssim"])
		}
		if c := m.Float(t, "ciede2000"); !(c > 0) {
			t.Errorf("frame %d: ciede2000 %v", i, c)
		}
		if _, ok := m.Fields["vif_scale0"]; ok != (i >= boundary) {
			t.Errorf("frame %d: float vif_scale0 present %v, swap at %d", i, ok, boundary)
		}
		frames++
	}
	if frames != len(golden) {
		t.Errorf("%d frame messages, want %d", frames, len(golden))
	}
	t.Logf("swap to vmaf_float_v0.6.1 at frame %d of %d; worst |score - libvmaf| %.2g", boundary, frames, worst)
}

// floatModelTolerance bounds |ours − libvmaf| for the float models. Float
// ADM divides with x86's RCPSS estimate refined by one Newton-Raphson step,
// as libvmaf does; the estimate is vendor-specific (Intel and AMD use
// different tables within the same 1.5·2⁻¹² bound), so libvmaf itself gives
// a float model's score only to about 1e-5 across x86 CPUs: on
// flower_576x324/x264_crf22, estimates that all meet the bound (Intel's,
// exact, 12-bit truncated, 12-bit midpoint) move vmaf_float by up to 7e-6.
const floatModelTolerance = 1e-5

// scoreTolerance is the bound for a model's score under its output name.
func scoreTolerance(name string) float64 {
	if name == "vmaf_float" {
		return floatModelTolerance
	}
	return mcpTolerance
}
