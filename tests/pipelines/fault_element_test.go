package pipelines

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// teePair is a short pipeline feeding one test source to both pads.
const teePair = "videotestsrc num-buffers=30 ! " + testSrcCaps + " ! tee name=t t. ! queue ! v.ref_sink t. ! queue ! v.dist_sink vmafsink name=v threads=1"

// hostLived fails the test when gst-launch died of a signal (a crash
// takes the host down with SIGABRT or SIGSEGV) rather than exiting.
func hostLived(t *testing.T, err error, out string) {
	t.Helper()
	ee, ok := err.(*exec.ExitError)
	if !ok {
		return
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		t.Fatalf("gst-launch died of %v:\n%s", ws.Signal(), out)
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
