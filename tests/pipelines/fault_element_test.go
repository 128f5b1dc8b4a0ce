package pipelines

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// teePair is a short pipeline feeding one test source to both pads.
const teePair = "videotestsrc num-buffers=30 ! " + testSrcCaps + " ! tee name=t t. ! queue ! v.ref_sink t. ! queue ! v.dist_sink vmafsink name=v threads=1"

// hostLived fails the test when the host died of a signal (a crash
// takes the host down with SIGABRT or SIGSEGV) rather than exiting.
func hostLived(t *testing.T, err error, out string) {
	t.Helper()
	ee, ok := err.(*exec.ExitError)
	if !ok {
		return
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		t.Fatalf("the host process died of %v:\n%s", ws.Signal(), out)
	}
	if strings.Contains(out, "panic:") || strings.Contains(out, "goroutine ") {
		t.Fatalf("Go panic in the host:\n%s", out)
	}
}

// TestFaultBadSocketPath: an mcp-uds that cannot be served refuses the
// start with an element error naming the path and the reason; the host
// exits normally and whatever was at the path is left as it was.
func TestFaultBadSocketPath(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "regular")
	if err := os.WriteFile(regular, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(regular, link); err != nil {
		t.Fatal(err)
	}
	long := filepath.Join(dir, strings.Repeat("x", 120))
	results := filepath.Join(dir, "earlier.json")
	for _, tc := range []struct {
		name, path, reason string
	}{
		{"regular file", regular, "exists and is not a socket"},
		{"symlink", link, "exists and is not a socket"},
		{"missing directory", filepath.Join(dir, "missing", "vmaf.sock"), "no such directory"},
		{"too long", long, "path too long"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// An earlier run's results must survive a refused start.
			if err := os.WriteFile(results, []byte("earlier"), 0o644); err != nil {
				t.Fatal(err)
			}
			run := gsttest.Launch(t, time.Minute, teePair+" results-filename="+results+" mcp-uds="+tc.path)
			hostLived(t, run.Err, run.Output)
			if run.Err == nil {
				t.Fatalf("pipeline started with mcp-uds=%s:\n%s", tc.path, run.Output)
			}
			if !strings.Contains(run.Output, "ERROR: from element") || !strings.Contains(run.Output, tc.path) ||
				!strings.Contains(run.Output, tc.reason) {
				t.Errorf("want an element error naming %s and %q:\n%s", tc.path, tc.reason, run.Output)
			}
			if n := len(run.Frames()); n != 0 {
				t.Errorf("%d frames scored by a pipeline that must not start", n)
			}
			if b, err := os.ReadFile(regular); err != nil || string(b) != "keep me" {
				t.Errorf("the file at the path was clobbered: %q, %v", b, err)
			}
			if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("the symlink was clobbered: %v, %v", fi, err)
			}
			if b, err := os.ReadFile(results); err != nil || string(b) != "earlier" {
				t.Errorf("the earlier results file was clobbered: %q, %v", b, err)
			}
		})
	}
}

// TestFaultBadSocketReuse: in a Python host, a start refused for a bad
// mcp-uds leaves the element reusable: with a good path it runs to EOS.
func TestFaultBadSocketReuse(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "missing", "vmaf.sock")
	out := pythonHost(t, nil, "bad-socket", bad, filepath.Join(dir, "vmaf.sock"), filepath.Join(dir, "results.json"))
	wantLines(t, out, `^start=failure error vmafsink cannot start: mcp-uds: control socket path ".*": no such directory`,
		`^rerun=eos scored=5 `, `^alive$`)
}

// startPaused starts an endless pipeline whose element serves the control
// plane, waits for a few scored frames, and pauses it in the given mode.
func startPaused(t *testing.T, mode, extra string, launchArgs ...string) (p *gsttest.Process, results string) {
	t.Helper()
	dir := t.TempDir()
	sock, results := filepath.Join(dir, "vmaf.sock"), filepath.Join(dir, "results.json")
	desc := "videotestsrc pattern=ball ! " + testSrcCaps + " ! tee name=t t. ! queue ! v.ref_sink " +
		"t. ! queue ! videoflip method=horizontal-flip ! v.dist_sink vmafsink name=v threads=1 frame-message=false " +
		"results-filename=" + results + " results-format=json pause-mode=" + mode + " mcp-uds=" + sock + " " + extra
	p = gsttest.StartArgs(t, launchArgs, desc)
	waitSocket(t, p, sock)
	cs, _ := mcpConnect(t, sock)
	mcpWaitStatus(t, cs, time.Minute, "5 frames scored", func(st control.Status) bool { return st.FramesScored >= 5 })
	if msg := mcpCall(t, cs, "vmaf_pause", map[string]any{"wait": true}, nil); msg != "" {
		t.Fatal(msg)
	}
	mcpWaitStatus(t, cs, time.Minute, "paused", func(st control.Status) bool { return st.State == control.StatePaused })
	cs.Close()
	return p, results
}

// TestFaultEOSWhileBlockPaused: Ctrl-C on gst-launch-1.0 -e sends EOS,
// which waits behind the frames a block pause holds. The pause gives way
// at pause-block-limit: the process ends after SIGINT, warning that the
// limit resumed scoring, and every frame that reached the element is in
// the results file or counted.
func TestFaultEOSWhileBlockPaused(t *testing.T) {
	p, results := startPaused(t, "block", "", "-e")
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	if err := p.Cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-p.Done():
		hostLived(t, err, p.Output())
		if err != nil {
			t.Fatalf("gst-launch -e failed: %v\n%s", err, p.Output())
		}
	case <-time.After(time.Minute):
		t.Fatalf("gst-launch -e still running a minute after SIGINT with a block pause:\n%s", p.Output())
	}
	t.Logf("ended %v after SIGINT", time.Since(start))
	if !strings.Contains(p.Output(), "pause-block-limit") {
		t.Errorf("no warning that the pause limit resumed scoring:\n%s", p.Output())
	}
	checkAccounted(t, p.Output(), results)
}

// checkAccounted checks the pooled message of a finished run: every frame
// received was paired or counted unpaired, every pair scored, skipped or
// dropped, and the results file holds every scored frame.
func checkAccounted(t *testing.T, out, results string) {
	t.Helper()
	run := &gsttest.Run{Output: out, Messages: gsttest.ParseMessages(out)}
	pooled := run.Pooled(t)
	recv := pooled.Uint(t, "frames-received-ref") + pooled.Uint(t, "frames-received-dist")
	paired, scored := pooled.Uint(t, "frames-paired"), pooled.Uint(t, "frames-scored")
	unpaired := pooled.Uint(t, "frames-unpaired-ref") + pooled.Uint(t, "frames-unpaired-dist")
	if 2*paired+unpaired != recv {
		t.Errorf("%d frames received, %d paired and %d unpaired", recv, paired, unpaired)
	}
	if s := scored + pooled.Uint(t, "frames-skipped") + pooled.Uint(t, "frames-dropped"); s != paired {
		t.Errorf("%d pairs, %d scored, skipped or dropped", paired, s)
	}
	frames := gsttest.ReadResults(t, results, "json")
	if uint64(len(frames)) != scored {
		t.Errorf("results file has %d frames, pooled message %d scored", len(frames), scored)
	}
}

// pythonHost runs testdata/fault_host.py under GStreamer's Python
// bindings, a host process other than gst-launch, and returns its output.
func pythonHost(t *testing.T, env []string, args ...string) string {
	t.Helper()
	const py = "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import gi; gi.require_version('Gst', '1.0')").Run(); err != nil {
		t.Skip("no GStreamer Python bindings (python3-gi, gir1.2-gstreamer-1.0)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, append([]string{filepath.Join("testdata", "fault_host.py")}, args...)...)
	cmd.Env = gsttest.Env(t, env...)
	out, err := cmd.CombinedOutput()
	hostLived(t, err, string(out))
	if err != nil {
		t.Fatalf("python host failed: %v\n%s", err, out)
	}
	return string(out)
}

// wantLines fails the test unless every pattern is on a line of out.
func wantLines(t *testing.T, out string, patterns ...string) {
	t.Helper()
	for _, p := range patterns {
		if !regexp.MustCompile(`(?m)` + p).MatchString(out) {
			t.Errorf("no line matching %q in:\n%s", p, out)
		}
	}
}

// TestFaultPanicHook: a Go panic in the element (the test hook panics on
// a chosen buffer) reaches a Python host as an element error with the
// panic's text; the host lives on, stops the pipeline, the frames scored
// before the panic are in the results file, and the same element then
// runs again to EOS.
func TestFaultPanicHook(t *testing.T) {
	results := filepath.Join(t.TempDir(), "results.json")
	out := pythonHost(t, []string{"VMAFSINK_TEST_PANIC_FRAME=20"}, "panic", results)
	wantLines(t, out,
		`^first=error vmafsink internal error in \w+_sink chain: VMAFSINK_TEST_PANIC_FRAME=20: test panic on buffer 20`,
		`^null=success`, `^rerun=eos scored=5 `, `^alive$`)
	// The other pad's thread goes on until the host stops the pipeline, so
	// how many frames are scored after the panic varies; none scored may be
	// lost, and they are the stream's first frames in order.
	frames := gsttest.ReadResults(t, results, "json")
	if len(frames) == 0 {
		t.Errorf("no frame in the results file of the run that panicked at buffer 20")
	}
	for i, f := range frames {
		if f.Num != i {
			t.Errorf("results file frame %d is frame %d", i, f.Num)
			break
		}
	}
}

// TestFaultPanicEntries: a panic in the other entries from C into Go (a
// state change, a property set, the goroutine that posts frame messages)
// is an element error with the panic's text, and the host lives on.
func TestFaultPanicEntries(t *testing.T) {
	for _, tc := range []struct {
		where string
		want  []string
	}{
		{"state-change", []string{`^play=failure error vmafsink internal error in state change READY->PAUSED: VMAFSINK_TEST_PANIC_AT=state-change: test panic`}},
		{"set-property", []string{`^set=error vmafsink internal error in set-property: VMAFSINK_TEST_PANIC_AT=set-property: test panic`, `^play=success eos`}},
		{"frame-message", []string{`^play=\w+ error vmafsink internal error in frame messages: VMAFSINK_TEST_PANIC_AT=frame-message: test panic`}},
	} {
		t.Run(tc.where, func(t *testing.T) {
			results := filepath.Join(t.TempDir(), "results.json")
			out := pythonHost(t, []string{"VMAFSINK_TEST_PANIC_AT=" + tc.where}, "panic-at", tc.where, results)
			wantLines(t, out, append(tc.want, `^null=success`, `^alive$`)...)
		})
	}
}

// TestFaultNullWhilePaused: PLAYING→NULL while the measurement is paused,
// in either mode, returns at once and keeps what was scored; the same
// element then runs again to EOS in the same host.
func TestFaultNullWhilePaused(t *testing.T) {
	for _, mode := range []string{"skip", "block"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			results := filepath.Join(dir, "results.json")
			out := pythonHost(t, nil, "null-while-paused", mode, filepath.Join(dir, "vmaf.sock"), results)
			wantLines(t, out, `^paused state=paused scored=`, `^null=success took=([0-9]|[1-5][0-9])\.`, `^rerun=eos scored=5 `, `^alive$`)
			var scored int
			if m := regexp.MustCompile(`paused state=paused scored=(\d+)`).FindStringSubmatch(out); m != nil {
				scored, _ = strconv.Atoi(m[1])
			}
			if frames := gsttest.ReadResults(t, results, "json"); len(frames) < scored {
				t.Errorf("results file has %d frames, %d were scored before the stop", len(frames), scored)
			}
		})
	}
}

// TestFaultResultsDiskFull: a results file that cannot be written (a full
// disk: /dev/full) is an element error naming the file and the reason;
// the host lives on, and every frame is still scored and posted. A Python
// host reads the bus to the end (gst-launch stops reading at the error).
func TestFaultResultsDiskFull(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	out := pythonHost(t, nil, "messages", "/dev/full")
	wantLines(t, out, `^error=cannot write the VMAF results file \| .*/dev/full: no space left on device`,
		`^pooled scored=30$`, `^frames=30 pooled=1$`, `^alive$`)
}

// TestFaultKilledResultsParse: SIGKILL mid-run, which no element can
// handle, still leaves a results file that parses, with the frames
// committed before the kill.
func TestFaultKilledResultsParse(t *testing.T) {
	for _, format := range []string{"json", "xml", "csv"} {
		t.Run(format, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "results."+format)
			p := gsttest.Start(t, "videotestsrc is-live=true pattern=ball ! "+testSrcCaps+" ! tee name=t "+
				"t. ! queue ! v.ref_sink t. ! queue ! videoflip method=horizontal-flip ! v.dist_sink "+
				"vmafsink name=v threads=1 frame-message=false results-filename="+path+" results-format="+format)
			deadline := time.Now().Add(time.Minute)
			before := 0
			for before < 10 {
				if time.Now().After(deadline) {
					t.Fatalf("fewer than 10 frames in the results file after a minute:\n%s", p.Output())
				}
				time.Sleep(100 * time.Millisecond)
				if data, err := os.ReadFile(path); err == nil {
					if frames, err := gsttest.ParseResults(data, format); err == nil {
						before = len(frames)
					}
				}
			}
			if err := p.Cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			<-p.Done()
			frames := gsttest.ReadResults(t, path, format)
			if len(frames) < before {
				t.Errorf("%d frames in the file after SIGKILL, %d before", len(frames), before)
			}
			for i, f := range frames {
				if f.Num != i || len(f.Metrics) == 0 {
					t.Fatalf("frame %d: frameNum %d, %d metrics", i, f.Num, len(f.Metrics))
				}
			}
		})
	}
}

// vmafsinkErrors counts the element errors vmafsink posted.
func vmafsinkErrors(out string) int {
	return strings.Count(out, "ERROR: from element /GstPipeline:pipeline0/GstVmafSink:v:")
}

// TestFaultFormatMismatchOnce: pads whose frames cannot be scored
// together are one element error, whose headline names the pad, the frame
// index and both formats, whether the caps differ from the start or the
// reference changes resolution mid-stream; what was scored before stays.
func TestFaultFormatMismatchOnce(t *testing.T) {
	for _, tc := range []struct {
		name, desc, headline string
		scored               int
	}{
		{"at start",
			"videotestsrc num-buffers=10 ! video/x-raw,format=I420,width=160,height=120 ! v.ref_sink " +
				"videotestsrc num-buffers=10 ! video/x-raw,format=I420,width=176,height=144 ! v.dist_sink",
			`(ref_sink: frame 0 is 160x120 I420 but dist_sink's is 176x144 I420|dist_sink: frame 0 is 176x144 I420 but ref_sink's is 160x120 I420): ref_sink and dist_sink must have the same width, height and format`,
			0},
		{"mid-stream",
			"concat name=cr ! v.ref_sink " + capsBranch(false, 10, 160, 120) + " ! cr. " + capsBranch(false, 10, 176, 144) + " ! cr. " +
				capsBranch(true, 20, 160, 120) + " ! v.dist_sink",
			`(ref_sink: frame 10 is 176x144 I420 but dist_sink's is 160x120 I420|dist_sink: frame 10 is 160x120 I420 but ref_sink's is 176x144 I420): ref_sink and dist_sink must have the same width, height and format`,
			10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			results := filepath.Join(t.TempDir(), "results.json")
			run := gsttest.Launch(t, time.Minute, tc.desc+" vmafsink name=v threads=1 pairing=order results-format=json results-filename="+results)
			hostLived(t, run.Err, run.Output)
			if n := vmafsinkErrors(run.Output); n != 1 {
				t.Errorf("%d vmafsink errors, want 1:\n%s", n, run.Output)
			}
			if !regexp.MustCompile(`ERROR: from element /GstPipeline:pipeline0/GstVmafSink:v: ` + tc.headline).MatchString(run.Output) {
				t.Errorf("no headline matching %q:\n%s", tc.headline, run.Output)
			}
			if frames := gsttest.ReadResults(t, results, "json"); len(frames) != tc.scored {
				t.Errorf("%d frames in the results file, want the %d before the mismatch", len(frames), tc.scored)
			}
		})
	}
}

// TestFaultEngineUnavailable: engine=libvmaf in a build without libvmaf
// is a settings error at start, once, naming the engine.
func TestFaultEngineUnavailable(t *testing.T) {
	if gsttest.HasLibvmaf() {
		t.Skip("this build has libvmaf")
	}
	run := gsttest.Launch(t, time.Minute, teePair+" engine=libvmaf")
	hostLived(t, run.Err, run.Output)
	if n := vmafsinkErrors(run.Output); n != 1 {
		t.Errorf("%d vmafsink errors, want 1:\n%s", n, run.Output)
	}
	if !strings.Contains(run.Output, "vmafsink cannot start: engine libvmaf with model \"vmaf_v0.6.1\": vmaf: this build has no libvmaf backend") {
		t.Errorf("want a start error naming the engine:\n%s", run.Output)
	}
	if n := len(run.Frames()); n != 0 {
		t.Errorf("%d frames scored by a pipeline that must not start", n)
	}
}
