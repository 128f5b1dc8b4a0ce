package pipelines

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// nrHost runs one case of testdata/nr_host.py (vmafsink with
// no-reference=true driven through GStreamer's Python bindings) on the
// flower crf22 clip with nr_metric_v1, and returns its key=value lines
// and its whole output.
func nrHost(t *testing.T, which string) (map[string]string, string) {
	t.Helper()
	// rawvideoparse, not libav's y4m demuxer: after its end that
	// demuxer sometimes answers a flushing seek with EOS and no frames.
	dist := gsttest.RawSource(t, gsttest.Clip(t, "flower_576x324_x264_crf22"))
	model := filepath.Join(tinyModels(t), "nr_metric_v1.onnx")
	return pyHostRun(t, nil, "nr_host.py", which, dist, model)
}

// TestElementNoReferencePlay plays the distorted clip alone through
// dist_sink: the element prerolls on it, answers position, takes a
// flushing seek back to the start after 20 frames and ends at EOS. Every
// frame's nr_metric_v1 is ONNX Runtime's on FFmpeg's area-scaled luma
// (../shared/goldens/tiny) within 0.01, before and after the seek; the
// windows and alerts run on it; nothing warns about the unlinked
// ref_sink and no frame is counted unpaired.
func TestElementNoReferencePlay(t *testing.T) {
	const clipFrames = 48
	oracle := tinyOracle(t, "flower_576x324_x264_crf22", "nr", "nr_metric_v1")
	kv, out := nrHost(t, "play")
	wantKV(t, kv, map[string]string{
		"ref_linked": "False", "ready": "success", "async_done": "True", "position_query": "True",
		"before_seek": "True", "seek": "True", "eos": "True", "warnings": "0",
		"pooled_unpaired_ref": "0", "pooled_unpaired_dist": "0", "null": "success",
	})
	num, _ := strconv.Atoi(kv["fps_num"])
	den, _ := strconv.Atoi(kv["fps_den"])
	if num <= 0 || den <= 0 {
		t.Fatalf("no frame rate: %q/%q", kv["fps_num"], kv["fps_den"])
	}
	before, _ := strconv.Atoi(kv["frames_before_seek"])
	var stamps []uint64
	worst := 0.0
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) != 3 || f[0] != "frame" {
			continue
		}
		ts, err1 := strconv.ParseUint(f[1], 10, 64)
		score, err2 := strconv.ParseFloat(f[2], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad frame line %q", line)
		}
		stamps = append(stamps, ts)
		i := int(math.Round(float64(ts) * float64(num) / (1e9 * float64(den))))
		if i < 0 || i >= len(oracle) {
			t.Fatalf("frame at %d ns is frame %d, outside the clip's %d", ts, i, len(oracle))
		}
		d := math.Abs(score - oracle[i])
		worst = max(worst, d)
		if d > 0.01 {
			t.Errorf("frame %d (%d ns): nr_metric_v1 %.6f, ONNX Runtime %.6f (|d| %.4f > 0.01)", i, ts, score, oracle[i], d)
		}
	}
	t.Logf("%d frame messages, worst |ours - oracle| %.5f", len(stamps), worst)
	restart := -1
	for i := 1; i < len(stamps); i++ {
		if stamps[i] < stamps[i-1] {
			if restart >= 0 {
				t.Fatalf("timestamps went back twice, at %d and %d", restart, i)
			}
			restart = i
		}
	}
	if restart < 20 || before < 20 {
		t.Fatalf("no restart after the seek at 20 frames (restart %d, %d frames before the seek)", restart, before)
	}
	if after := len(stamps) - restart; after != clipFrames {
		t.Errorf("%d frames after the seek, want %d", after, clipFrames)
	}
	if kv["scored"] != strconv.Itoa(len(stamps)) || kv["pooled_scored"] != kv["scored"] {
		t.Errorf("frames-scored %s, pooled %s, frame messages %d", kv["scored"], kv["pooled_scored"], len(stamps))
	}
	if w, _ := strconv.Atoi(kv["windows"]); w < len(stamps)/8-1 {
		t.Errorf("%d window messages for %d frames with window-frames=8", w, len(stamps))
	}
	// Every score is far below 100: the alert fires (and, with two
	// starts of the stream, at least once).
	if a, _ := strconv.Atoi(kv["alerts"]); a < 1 {
		t.Errorf("no alert message with alert-threshold=100")
	}
}

// TestElementNoReferenceLive scores a live source alone, twice from
// NULL: it reaches EOS with every frame scored and no warning.
func TestElementNoReferenceLive(t *testing.T) {
	kv, _ := nrHost(t, "live")
	wantKV(t, kv, map[string]string{
		"first_eos": "True", "first_frames": "30", "first_warnings": "0",
		"second_eos": "True", "second_frames": "30", "second_warnings": "0",
	})
}

// TestElementNoReferenceRefusals: a linked ref_sink and a model that
// needs a reference each refuse the start with an error naming the cause.
func TestElementNoReferenceRefusals(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"ref-linked", "ref_sink is linked"},
		{"fr-model", "needs a no-reference model"},
	} {
		t.Run(c.name, func(t *testing.T) {
			kv, _ := nrHost(t, c.name)
			if kv["paused"] != "failure" || !strings.Contains(kv["error"], c.want) {
				t.Errorf("paused %q, error %q; want failure and an error containing %q", kv["paused"], kv["error"], c.want)
			}
		})
	}
}

// TestElementLearnedProperties: the learned-model properties' defaults
// and round trips.
func TestElementLearnedProperties(t *testing.T) {
	kv, _ := nrHost(t, "props")
	wantKV(t, kv, map[string]string{
		"default_no_reference": "False", "default_tiny_threads": "0", "default_tiny_device": "",
		"default_verify": "False", "default_ort_library": "",
		"no_reference": "True", "tiny_threads": "2", "tiny_device": "cpu", "verify": "True",
		"ort_library": "/nonexistent/libonnxruntime.so.1",
	})
}

// TestElementNoReferenceMCP serves the control plane from a
// no-reference run: the status names the learned model and ONNX Runtime,
// a swap to a model that needs a reference is refused with the reason
// and leaves nr_metric_v1 scoring every frame to the end.
func TestElementNoReferenceMCP(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "vmaf.sock")
	dist := gsttest.Clip(t, "flower_576x324_x264_crf22")
	model := filepath.Join(tinyModels(t), "nr_metric_v1.onnx")
	p := gsttest.Start(t, fmt.Sprintf("%s ! identity sleep-time=60000 ! v.dist_sink vmafsink name=v no-reference=true model=path=%s threads=2 mcp-uds=%s",
		gsttest.Source(dist), model, sock))
	waitSocket(t, p, sock)
	cs, _ := mcpConnect(t, sock)
	st := mcpWaitStatus(t, cs, time.Minute, "5 frames scored", func(st control.Status) bool { return st.FramesScored >= 5 })
	if st.Model != "nr_metric_v1" || !strings.Contains(st.EngineUsed, "onnxruntime") {
		t.Errorf("status: model %q, engine_used %q; want nr_metric_v1 on onnxruntime", st.Model, st.EngineUsed)
	}
	var swap control.Command
	msg := mcpCall(t, cs, "vmaf_request_model_swap", map[string]any{"model": "vmaf_v0.6.1"}, &swap)
	if !strings.Contains(msg, "needs a reference") {
		t.Errorf("swap to vmaf_v0.6.1 in a no-reference run: %q, want a refusal", msg)
	}
	cs.Close()
	waitPipeline(t, p)
	frames := 0
	for _, m := range gsttest.ParseMessages(p.Output()) {
		if m.Fields["type"] != "frame" {
			continue
		}
		if m.Fields["model-name"] != "nr_metric_v1" {
			t.Errorf("frame %s scored by %q", m.Fields["index"], m.Fields["model-name"])
		}
		frames++
	}
	if frames != 48 {
		t.Errorf("%d frame messages, want 48", frames)
	}
}
