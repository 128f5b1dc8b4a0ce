package pipelines

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// TestElementDebugLog: GST_DEBUG=vmafsink:6 tells what happened to the
// frames (each buffer at LOG, with its pad as the object) and why a pad waited: caps, memory, pairs, a pause that holds
// the streams and gives way, a swap, a control client, unpaired frames at
// EOS. The reference ends 6 frames before the distorted stream, whose
// frames after that are unpaired.
func TestElementDebugLog(t *testing.T) {
	dir := t.TempDir()
	sock, logFile := filepath.Join(dir, "vmaf.sock"), filepath.Join(dir, "gst.log")
	p := gsttest.Start(t, "videotestsrc is-live=true num-buffers=90 ! "+testSrcCaps+" ! v.ref_sink "+
		"videotestsrc is-live=true num-buffers=96 pattern=ball ! "+testSrcCaps+" ! v.dist_sink "+
		"vmafsink name=v threads=1 frame-message=false pairing=order pause-mode=block pause-block-limit=300 mcp-uds="+sock,
		"GST_DEBUG=vmafsink:6", "GST_DEBUG_FILE="+logFile, "GST_DEBUG_NO_COLOR=1")
	waitSocket(t, p, sock)
	cs, _ := mcpConnect(t, sock)
	mcpWaitStatus(t, cs, time.Minute, "5 frames scored", func(st control.Status) bool { return st.FramesScored >= 5 })
	if msg := mcpCall(t, cs, "vmaf_pause", map[string]any{"wait": true}, nil); msg != "" {
		t.Fatal(msg)
	}
	if msg := mcpCall(t, cs, "vmaf_request_model_swap", map[string]any{"model": "vmaf_v0.6.1neg", "wait": true}, nil); msg != "" {
		t.Fatal(msg)
	}
	cs.Close()
	select {
	case err := <-p.Done():
		if err != nil {
			t.Fatalf("gst-launch failed: %v\n%s", err, p.Output())
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("pipeline did not finish:\n%s", p.Output())
	}
	b, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	for _, want := range []string{
		`INFO .* vmafsink .*<v> run started: model vmaf_v0\.6\.1, engine auto, threads 1, pairing order`,
		`INFO .*<v:ref_sink> caps accepted: video/x-raw, format=\(string\)I420, width=\(int\)160`,
		`DEBUG .*<v:dist_sink> allocation query: GstVideoMeta accepted`,
		`LOG .*<v:dist_sink> buffer pts [0-9.]+m?s, mapped in place .*; state running \(pause-mode block\), pending ref \d+ dist \d+`,
		`DEBUG .*<v> \w+_sink: pair 0 formed`,
		`INFO .*control client connected pid=\d+`,
		`INFO .*<v> applying pause at pair \d+ \(pause-mode block\)`,
		`DEBUG .*<v> block pause: streaming threads held until resume, a state change, or pause-block-limit \(300 ms\)`,
		`DEBUG .*<v> \w+_sink: waited [0-9.]+ms in the Runner: held by a block pause`,
		`WARN .*<v> block pause ended by pause-block-limit \(300 ms\) at frame \d+`,
		`INFO .*<v> applying swap at pair \d+`,
		`INFO .*<v> swap \d+ to model vmaf_v0\.6\.1neg applied at pair \d+`,
		`INFO .*<v> ref_sink: EOS; both pads ended: false`,
		`DEBUG .*<v> released 1 unpaired dist_sink frame\(s\): no partner`,
		`INFO .*<v> run stopping: state finished .* pairs 90 scored 90 skipped 0 dropped 0, unpaired ref 0 dist [1-6]`,
	} {
		if !regexp.MustCompile(`(?m)` + want).MatchString(log) {
			t.Errorf("no line matching %q in the debug log", want)
		}
	}
	if t.Failed() {
		t.Logf("debug log:\n%s", tailLines(log, 80))
	}
}

func tailLines(s string, n int) string {
	lines := regexp.MustCompile(`\n`).Split(s, -1)
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	out := ""
	for _, l := range lines {
		out += l + "\n"
	}
	return out
}
