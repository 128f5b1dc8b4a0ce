package pipelines

import (
	"os/exec"
	"path/filepath"
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
// library on GST_PLUGIN_PATH, which it then never loads.
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
// plays the stream again to a new EOS, twice, each pass scored.
func TestGoHostSeekAfterEOS(t *testing.T) {
	out, _ := runGoHost(t, "-frames", "24", "-replays", "2")
	for _, want := range []string{"frames-scored=24 ", "frames-scored=48 ", "frames-scored=72 "} {
		if !strings.Contains(out, want) {
			t.Errorf("gohost printed no %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "eos\n"); n != 3 {
		t.Errorf("%d EOS, want 3:\n%s", n, out)
	}
}
