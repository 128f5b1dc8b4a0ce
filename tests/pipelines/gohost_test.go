package pipelines

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// TestGoHostRegister: a Go program that drives GStreamer through go-gst
// registers vmafsink in-process (gstvmafsink.Register) and scores a
// pipeline to EOS without GLib warnings, even with the plugin's shared
// library on GST_PLUGIN_PATH, which it then never loads.
func TestGoHostRegister(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "gohost")
	build := exec.Command("go", "build", "-o", bin, "./examples/gohost")
	build.Dir = gsttest.RepoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./examples/gohost: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-frames", "24")
	cmd.Env = append(gsttest.Env(t), "GST_REGISTRY="+filepath.Join(t.TempDir(), "registry.bin"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gohost: %v\nstdout:\n%s\nstderr:\n%s", err, out, stderr.String())
	}
	if !strings.Contains(string(out), "frames-scored=24 ") || !strings.Contains(string(out), "eos") {
		t.Errorf("gohost printed:\n%s", out)
	}
	if s := stderr.String(); strings.Contains(s, "CRITICAL") || strings.Contains(s, "WARNING") {
		t.Errorf("gohost's stderr:\n%s", s)
	}
}
