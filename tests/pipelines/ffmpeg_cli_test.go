package pipelines

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const (
	ffRef  = "flower_321x179_ref.y4m"
	ffDist = "flower_321x179_x264_crf30.y4m"
)

// A distorted stream piped from ffmpeg, as y4m, as NUT or as raw YUV,
// scores exactly as the file does.
func TestStdin(t *testing.T) {
	bin, dir := ffSetup(t)
	ref, dist := ffClips.Y4M(t, ffRef), ffClips.Y4M(t, ffDist)
	want := filepath.Join(dir, "stdin-want.json")
	if out, err := exec.Command(bin, "-r", ref, "-d", dist, "--json", "-o", want, "-q").CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	refYUV := ffClips.FFmpeg(t, "ref.yuv", "-i", ref, "-f", "rawvideo")
	tests := []struct{ name, script string }{
		{"y4m", `ffmpeg -loglevel error -i "$DIST" -f yuv4mpegpipe - | $VMAF -r "$REF" -d - --json -o "$OUT" -q`},
		{"nut", `ffmpeg -loglevel error -i "$DIST" -c:v rawvideo -f nut - | $VMAF -r "$REF" -d - --json -o "$OUT" -q`},
		// FFmpeg writes an odd-sized picture's chroma rounded up, which
		// its rawvideo demuxer (--ffmpeg) reads back; the native raw
		// reader follows libvmaf, which rounds down on a pipe. (The MCP
		// test pipes raw frames of an even size to the native reader.)
		{"raw", `ffmpeg -loglevel error -i "$DIST" -f rawvideo - | $VMAF -r "$REFYUV" -d - -w 321 -h 179 -p 420 -b 8 --ffmpeg --json -o "$OUT" -q`},
		{"reference on stdin", `cat "$REF" | $VMAF -r - -d "$DIST" --json -o "$OUT" -q`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.json")
			script := fmt.Sprintf("REF=%q DIST=%q REFYUV=%q OUT=%q; %s", ref, dist, refYUV, out, tc.script)
			code, _, stderr := ffShell(t, script)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			ffSameFrames(t, ffReadFrames(t, out), ffReadFrames(t, want))
		})
	}
}

// SIGINT stops a run at a frame boundary with status 130, and the output
// file is a valid document with the frames scored so far. The reference
// comes through a FIFO the test keeps writing (its frames over and over)
// until vmaf-score exits, so the run cannot end before the signal, however
// fast it scores.
func TestInterruptLeavesValidOutput(t *testing.T) {
	bin, _ := ffSetup(t)
	refFile := ffClips.Y4M(t, "flower_576x324_ref.y4m")
	slow := ffClips.FFmpeg(t, "flower_x264_slow.mkv", "-stream_loop", "20", "-i", refFile, "-c:v", "libx264", "-preset", "ultrafast", "-crf", "30")
	dir := t.TempDir()
	out, ref := filepath.Join(dir, "out.json"), filepath.Join(dir, "ref.y4m")
	if err := syscall.Mkfifo(ref, 0o600); err != nil {
		t.Fatal(err)
	}
	header, frames := splitY4M(t, refFile)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		f, err := os.OpenFile(ref, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		if _, err := f.Write(header); err != nil {
			return
		}
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := f.Write(frames[i%len(frames)]); err != nil {
				return // vmaf-score has gone
			}
		}
	}()
	cmd := exec.Command(bin, "-r", ref, "-d", slow, "--json", "-o", out, "--threads", "1")
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	// Wait until a few frames are on disk, then interrupt.
	deadline := time.Now().Add(60 * time.Second)
	for {
		if data, _ := os.ReadFile(out); strings.Count(string(data), "frameNum") >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no frames written within a minute")
		}
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 130 {
		t.Fatalf("exit %v, stderr %q", err, errb.String())
	}
	l := ffReadFrames(t, out)
	if len(l.Frames) < 3 {
		t.Errorf("%d frames in the output, want at least the 3 seen before the signal", len(l.Frames))
	}
	for i, f := range l.Frames {
		if f.FrameNum != i {
			t.Fatalf("frame %d numbered %d", i, f.FrameNum)
		}
	}
	if _, ok := l.Pooled["vmaf"]; !ok {
		t.Error("no pooled vmaf")
	}
}

// The progress line goes to stderr only when asked for or on a terminal.
func TestProgressLine(t *testing.T) {
	ref, dist := ffClips.Y4M(t, ffRef), ffClips.Y4M(t, ffDist)
	script := fmt.Sprintf("$VMAF -r %q -d %q --progress", ref, dist)
	code, stdout, stderr := ffShell(t, script)
	if code != 0 || !strings.Contains(stderr, "\r8/8 frames") || !strings.HasPrefix(stdout, "vmaf_v0.6.1: ") {
		t.Errorf("--progress: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, _, stderr = ffShell(t, fmt.Sprintf("$VMAF -r %q -d %q", ref, dist))
	if code != 0 || stderr != "" {
		t.Errorf("not a terminal: exit %d, stderr %q", code, stderr)
	}
}
