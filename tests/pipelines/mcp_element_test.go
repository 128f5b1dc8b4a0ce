package pipelines

import (
	"context"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// startElement runs gst-launch with a vmafsink serving the control plane
// on a fresh socket, the reference branch throttled to 30 ms a frame, and
// waits for the socket.
func startElement(t *testing.T, content, dist, props string) (*gsttest.Process, string) {
	t.Helper()
	if _, err := exec.LookPath("gst-launch-1.0"); err != nil {
		t.Skip("gst-launch-1.0 is not installed")
	}
	sock := filepath.Join(t.TempDir(), "vmaf.sock")
	ref, d := gsttest.Clip(t, content+"_ref"), gsttest.Clip(t, content+"_"+dist)
	p := gsttest.Start(t, fmt.Sprintf("%s ! identity sleep-time=30000 ! v.ref_sink %s ! v.dist_sink vmafsink name=v mcp-uds=%s %s",
		gsttest.Source(ref), gsttest.Source(d), sock, props))
	waitSocket(t, p, sock)
	return p, sock
}

// waitSocket waits until the element's control socket accepts
// connections.
func waitSocket(t testing.TB, p *gsttest.Process, sock string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		if c, err := net.Dial("unix", sock); err == nil {
			c.Close()
			return
		}
		select {
		case err := <-p.Done():
			t.Fatalf("gst-launch ended before the socket appeared (%v):\n%s", err, p.Output())
		default:
		}
		if strings.Contains(p.Output(), "no control plane") {
			t.Skip("this build of the plugin has no control plane")
		}
		if time.Now().After(deadline) {
			t.Fatalf("no control socket after a minute:\n%s", p.Output())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestMCPElementSwapAndPause drives a running vmafsink over its socket:
// pause in block mode (the pipeline holds: no frame arrives), swap the
// model while paused, resume. Every frame message before the swap's
// boundary must carry libvmaf's vmaf_v0.6.1 score and name that model,
// every one after it vmaf_v0.6.1neg's; nothing is skipped; the socket is
// gone when the pipeline ends.
func TestMCPElementSwapAndPause(t *testing.T) {
	const pair = "flower_576x324_x264_crf22"
	golden := gsttest.Golden(t, pair)
	p, sock := startElement(t, "flower_576x324", "x264_crf22", "pause-mode=block threads=2")
	cs, _ := mcpConnect(t, sock)

	mcpWaitStatus(t, cs, time.Minute, "10 frames scored", func(st control.Status) bool { return st.FramesScored >= 10 })
	var pause, swap, resume control.Command
	if msg := mcpCall(t, cs, "vmaf_pause", map[string]any{"wait": true}, &pause); msg != "" {
		t.Fatal(msg)
	}
	// Paused once the pairs scored before the pause are published; then
	// nothing more may arrive but the pair whose pushes were already past
	// their boundary when the pause was applied.
	before := mcpWaitStatus(t, cs, time.Minute, "paused", func(st control.Status) bool { return st.State == control.StatePaused })
	time.Sleep(300 * time.Millisecond)
	after := mcpWaitStatus(t, cs, time.Minute, "status", func(control.Status) bool { return true })
	if before.State != control.StatePaused || after.FramesReceived > before.FramesReceived+1 {
		t.Errorf("block pause: %s, %d pairs then %d", before.State, before.FramesReceived, after.FramesReceived)
	}
	if msg := mcpCall(t, cs, "vmaf_request_model_swap", map[string]any{"model": "vmaf_v0.6.1neg", "name": "vmaf_neg"}, &swap); msg != "" {
		t.Fatal(msg)
	}
	if msg := mcpCall(t, cs, "vmaf_resume", map[string]any{"wait": true}, &resume); msg != "" {
		t.Fatal(msg)
	}
	var st control.Status
	mcpWaitStatus(t, cs, time.Minute, "the swap applied", func(s control.Status) bool {
		st = s
		return len(s.Swaps) == 1 && s.Swaps[0].FirstFrame >= 0
	})
	boundary := int(st.Swaps[0].FirstFrame)
	cs.Close()

	waitPipeline(t, p)
	if _, err := os.Lstat(sock); !os.IsNotExist(err) {
		t.Errorf("socket left after the pipeline ended: %v", err)
	}

	frames := 0
	for _, m := range gsttest.ParseMessages(p.Output()) {
		if m.Fields["type"] != "frame" {
			continue
		}
		i, name := swappedFrame(t, m, boundary, scorer{"vmaf_v0.6.1", "vmaf"}, scorer{"vmaf_v0.6.1neg", "vmaf_neg"})
		if d := math.Abs(m.Float(t, "score") - golden[i][name]); d > mcpTolerance {
			t.Errorf("frame %d: %s %v, libvmaf %.6f", i, name, m.Fields["score"], golden[i][name])
		}
		frames++
	}
	if frames != len(golden) {
		t.Errorf("%d frame messages, want %d (block mode skips nothing)", frames, len(golden))
	}
	t.Logf("element: paused at frame %d, swapped at frame %d, resumed at %d; %d frames", pause.Frame, boundary, resume.Frame, frames)
}

// TestMCPElementVmafctl uses the command-line client on a running element.
func TestMCPElementVmafctl(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "vmafctl")
	build := exec.Command("go", "build", "-o", bin, "./cmd/vmafctl")
	build.Dir = gsttest.RepoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building vmafctl: %v\n%s", err, out)
	}
	p, sock := startElement(t, "flower_576x324", "x264_crf22", "pause-mode=skip")
	ctl := func(args ...string) (int, string) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, bin, append([]string{"-s", sock}, args...)...).CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return code, string(out)
	}
	if code, out := ctl("watch", "-n", "3", "-json"); code != 0 || strings.Count(out, `"model":"vmaf_v0.6.1"`) != 3 {
		t.Errorf("watch: %d %s", code, out)
	}
	if code, out := ctl("swap", "nope"); code != 4 || !strings.Contains(out, "unknown_model") {
		t.Errorf("swap nope: %d %s", code, out)
	}
	if code, out := ctl("swap", "vmaf_v0.6.1neg", "-wait"); code != 0 || !strings.Contains(out, "applied at frame") {
		t.Errorf("swap: %d %s", code, out)
	}
	if code, out := ctl("status"); code != 0 || !strings.Contains(out, "vmaf_v0.6.1neg") {
		t.Errorf("status: %d %s", code, out)
	}
	<-p.Done()
	if code, out := ctl("status"); code != 3 {
		t.Errorf("status after the pipeline ended: %d %s", code, out)
	}
}
