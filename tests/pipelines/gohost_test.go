package pipelines

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// runGoHost builds examples/gohost and runs it with args, failing the
// test when it fails; it returns its stdout and stderr.
func runGoHost(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "gohost")
	build := exec.Command("go", "build", "-o", bin, "./examples/gohost")
	build.Dir = gsttest.RepoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./examples/gohost: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(gsttest.Env(t), "GST_REGISTRY="+filepath.Join(t.TempDir(), "registry.bin"))
	var errb strings.Builder
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gohost %v: %v\nstdout:\n%s\nstderr:\n%s", args, err, out, errb.String())
	}
	return string(out), errb.String()
}

// TestGoHostRegister: a Go program that drives GStreamer through go-gst
// registers vmafsink in-process (gstvmafsink.Register) and scores a
// pipeline to EOS without GLib warnings, even with the plugin's shared
// library on GST_PLUGIN_PATH, which it then never loads. The host's
// stream is exactly its first 24 frames (see TestGoHostSeekAfterEOS).
func TestGoHostRegister(t *testing.T) {
	out, stderr := runGoHost(t, "-frames", "24")
	if !strings.Contains(out, "frames-scored=24 ") || !strings.Contains(out, "eos") {
		t.Errorf("gohost printed:\n%s", out)
	}
	if strings.Contains(stderr, "CRITICAL") || strings.Contains(stderr, "WARNING") {
		t.Errorf("gohost's stderr:\n%s", stderr)
	}
}

// TestGoHostSeekAfterEOS: from a Go host, a flushing seek after EOS
// plays the stream again to a new EOS, twice, each pass scoring the
// segment's 24 frames, no more, no fewer. The host gives its first seek
// to the source in READY, so no frame from before it is ever delivered:
// a flushing seek of a prerolled, PAUSED pipeline discards the prerolled
// pair unplayed, as any sink's prerolled buffer, and that pair must then
// not be scored; vmafsink still scores it when the distorted frame
// reached it before the reference prerolled, an order the host cannot
// choose (two queue threads), so the host does not seek in PAUSED.
func TestGoHostSeekAfterEOS(t *testing.T) {
	out, _ := runGoHost(t, "-frames", "24", "-replays", "2")
	var scored []int
	for _, m := range regexp.MustCompile(`frames-scored=(\d+) `).FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[1])
		scored = append(scored, n)
	}
	if want := []int{24, 48, 72}; !slices.Equal(scored, want) {
		t.Errorf("frames scored at each EOS %v, want %v (24 a pass):\n%s", scored, want, out)
	}
	if n := strings.Count(out, "eos\n"); n != 3 {
		t.Errorf("%d EOS, want 3:\n%s", n, out)
	}
}
