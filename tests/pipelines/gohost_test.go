package pipelines

import (
	"os/exec"
	"path/filepath"
	"regexp"
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
// library on GST_PLUGIN_PATH, which it then never loads.
func TestGoHostRegister(t *testing.T) {
	out, stderr := runGoHost(t, "-frames", "24")
	// 24 frames, or 25 with the pair prerolled before the host's first
	// flushing seek (see TestGoHostSeekAfterEOS).
	if !regexp.MustCompile(`frames-scored=2[45] `).MatchString(out) || !strings.Contains(out, "eos") {
		t.Errorf("gohost printed:\n%s", out)
	}
	if strings.Contains(stderr, "CRITICAL") || strings.Contains(stderr, "WARNING") {
		t.Errorf("gohost's stderr:\n%s", stderr)
	}
}

// TestGoHostSeekAfterEOS: from a Go host, a flushing seek after EOS
// plays the stream again to a new EOS, twice, each pass scoring the
// segment's 24 frames. The first pass may also count the pair prerolled
// before the host's first flushing seek (it is scored if both branches
// delivered it before the flush), so the passes are told apart by what
// each adds.
func TestGoHostSeekAfterEOS(t *testing.T) {
	out, _ := runGoHost(t, "-frames", "24", "-replays", "2")
	var scored []int
	for _, m := range regexp.MustCompile(`frames-scored=(\d+) `).FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[1])
		scored = append(scored, n)
	}
	if len(scored) != 3 || scored[0] < 24 || scored[0] > 25 || scored[1]-scored[0] != 24 || scored[2]-scored[1] != 24 {
		t.Errorf("frames scored at each EOS %v, want 24 (or 25 with the prerolled pair) and 24 more a pass:\n%s", scored, out)
	}
	if n := strings.Count(out, "eos\n"); n != 3 {
		t.Errorf("%d EOS, want 3:\n%s", n, out)
	}
}
