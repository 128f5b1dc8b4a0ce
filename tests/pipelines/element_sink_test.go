package pipelines

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// sinkHost runs one case of testdata/sink_host.py, an application driving
// vmafsink through GStreamer's Python bindings, and returns the key=value
// lines it printed.
func sinkHost(t *testing.T, which string) map[string]string {
	t.Helper()
	ref := gsttest.Clip(t, "flower_321x179_ref")
	dist := gsttest.Clip(t, "flower_321x179_x264_crf30")
	return pyHost(t, "sink_host.py", which, ref, dist)
}

// pyHost runs a script of testdata through GStreamer's Python bindings
// with args and returns the key=value lines it printed.
func pyHost(t *testing.T, script string, args ...string) map[string]string {
	t.Helper()
	return pyHostEnv(t, nil, script, args...)
}

// pyHostEnv is pyHost with more environment variables.
func pyHostEnv(t *testing.T, env []string, script string, args ...string) map[string]string {
	t.Helper()
	kv, _ := pyHostRun(t, env, script, args...)
	return kv
}

// pyHostRun is pyHostEnv that also returns everything the script printed.
func pyHostRun(t *testing.T, env []string, script string, args ...string) (map[string]string, string) {
	t.Helper()
	const py = "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import gi; gi.require_version('Gst', '1.0')").Run(); err != nil {
		t.Fatal("GStreamer's Python bindings are missing (python3-gi, gir1.2-gstreamer-1.0): scripts/deps.sh installs them")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, append([]string{filepath.Join("testdata", script)}, args...)...)
	cmd.Env = gsttest.Env(t, env...)
	out, err := cmd.CombinedOutput()
	hostLived(t, err, string(out))
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", script, args, err, out)
	}
	kv := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok && !strings.ContainsAny(k, " :") {
			kv[k] = v
		}
	}
	t.Logf("%s %v:\n%s", script, args, out)
	return kv, string(out)
}

func wantKV(t *testing.T, kv map[string]string, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if kv[k] != v {
			t.Errorf("%s = %q, want %q", k, kv[k], v)
		}
	}
}

func kvInt(t *testing.T, kv map[string]string, k string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(kv[k], 10, 64)
	if err != nil {
		t.Fatalf("%s = %q: %v", k, kv[k], err)
	}
	return n
}

// TestElementSinkStates checks vmafsink against what an application
// expects of any GStreamer sink, as fakesink behaves.
func TestElementSinkStates(t *testing.T) {
	t.Run("paused prerolls and holds the streams", func(t *testing.T) {
		kv := sinkHost(t, "paused")
		wantKV(t, kv, map[string]string{"paused_return": "async", "async_done": "True", "eos": "True", "scored_end": "8"})
		// The preroll pair waits for its successor (motion), so nothing
		// is scored while PAUSED, however long the pause.
		if n := kvInt(t, kv, "scored_paused"); n > 1 {
			t.Errorf("%d frames scored during a 1 s PAUSED, want at most the preroll pair", n)
		}
	})
	t.Run("a long PAUSED loses no frame", func(t *testing.T) {
		kv := sinkHost(t, "long-pause")
		wantKV(t, kv, map[string]string{"prerolled": "True", "eos": "True", "scored": "60", "unpaired_ref": "0", "unpaired_dist": "0"})
	})
	t.Run("a flushing seek regains state", func(t *testing.T) {
		checkSeekPaused(t, sinkHost(t, "seek"))
	})
	t.Run("a flushing seek forgets the prerolled pair", func(t *testing.T) {
		// The distorted frame 0 reaches the element first, by
		// construction, so it pairs with the reference frame the inner
		// sink prerolls; the seek discards that frame unplayed.
		checkSeekPaused(t, sinkHost(t, "seek-dist-first"))
	})
	t.Run("one stream ends, the other is endless", func(t *testing.T) {
		kv := sinkHost(t, "ref-ends")
		wantKV(t, kv, map[string]string{"eos": "True", "scored": "6"})
	})
	t.Run("only ref_sink linked", func(t *testing.T) {
		kv := sinkHost(t, "one-linked")
		wantKV(t, kv, map[string]string{"eos": "True", "unpaired_ref": "10"})
	})
	t.Run("latency of both branches", func(t *testing.T) {
		kv := sinkHost(t, "latency")
		wantKV(t, kv, map[string]string{"latency_ok": "True", "live": "True"})
		lo, ref, dist := kvInt(t, kv, "min_ms"), kvInt(t, kv, "ref_min_ms"), kvInt(t, kv, "dist_min_ms")
		if lo != max(ref, dist) {
			t.Errorf("element answers a minimum latency of %d ms; the branches have %d and %d ms", lo, ref, dist)
		}
		if dist <= ref {
			t.Errorf("the encoded branch's latency (%d ms) should exceed the raw branch's (%d ms)", dist, ref)
		}
	})
}

// TestElementShortFilesEnd: two short files decoded by decodebin end with
// EOS every time, on a machine kept busy. Two faults made gst-launch wait
// forever there. Before the element prerolled like a sink, its EOS often
// reached the pipeline in the middle of its change to PLAYING (about one
// run in two). And GStreamer 1.22's bin can hold a sink's EOS for good
// when gst-launch sets PLAYING before the bin has recorded its
// READY→PAUSED change (the preroll thread preempted at the wrong moment):
// the element then posts the pipeline's PLAYING state again
// (vs_inner_push_eos). Without that, about one run in eight hung here with
// every CPU busy.
func TestElementShortFilesEnd(t *testing.T) {
	ref := gsttest.Clip(t, "flower_321x179_ref")
	dist := gsttest.Clip(t, "flower_321x179_x264_crf30")
	stop := make(chan struct{})
	defer close(stop)
	for range runtime.NumCPU() {
		go func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
			}
		}()
	}
	var hangs []int
	for i := range 20 {
		// A run ends in about a second, but a loaded machine on top of the
		// loops above can stretch one past ten. The limit only has to
		// tell a run that never ends from a slow one.
		run := gsttest.LaunchTimeout(t, time.Minute,
			"filesrc location="+ref+" ! decodebin ! videoconvert ! video/x-raw,format=I420 ! v.ref_sink "+
				"filesrc location="+dist+" ! decodebin ! videoconvert ! video/x-raw,format=I420 ! v.dist_sink "+
				"vmafsink name=v frame-message=false")
		switch {
		case run == nil:
			hangs = append(hangs, i)
		case run.Err != nil:
			t.Fatalf("run %d failed: %v\n%s", i, run.Err, run.Output)
		}
	}
	if len(hangs) > 0 {
		t.Errorf("runs %v of 20 never ended", hangs)
	}
}

// checkSeekPaused checks a seek_paused run of sink_host.py: a flushing
// seek in PAUSED to a start and a stop, then PLAYING to EOS, scores
// exactly the source's frames from the start to the stop, and none of
// the frames before it (the prerolled pair included) is scored or counted
// as unpaired.
func checkSeekPaused(t *testing.T, kv map[string]string) {
	t.Helper()
	wantKV(t, kv, map[string]string{"prerolled": "True", "seek": "True", "seek_async_done": "True", "eos": "True",
		"unpaired_ref": "0", "unpaired_dist": "0"})
	seek, stop := kvInt(t, kv, "seek_ns"), kvInt(t, kv, "stop_ns")
	num, den := kvInt(t, kv, "fps_n"), kvInt(t, kv, "fps_d")
	if ms := kvInt(t, kv, "position_ms"); ms < seek/1e6-100 || ms > seek/1e6+100 {
		t.Errorf("position after a seek to %d ms reads %d ms", seek/1e6, ms)
	}
	// The source's frame i starts at i*den/num s; the stream holds the
	// frames that start in [seek, stop).
	firstAt := func(ns int64) int64 { return (ns*num + den*1e9 - 1) / (den * 1e9) }
	want := firstAt(stop) - firstAt(seek)
	if n := kvInt(t, kv, "scored_after_seek"); n != want {
		t.Errorf("%d frames scored after a seek to [%d, %d) ns at %d/%d fps, want %d", n, seek, stop, num, den, want)
	}
}
