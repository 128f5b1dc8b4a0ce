package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/control/attach"
	"github.com/vmafsink/vmafsink/pipeline"
)

type nopCloser struct{ closed *bool }

func (n nopCloser) Close() error { *n.closed = true; return nil }

// withControl makes vmaf-score call start in place of starting its
// control plane, for the rest of the test.
func withControl(t *testing.T, start func(attach.Config) (io.Closer, error)) {
	saved := startControl
	startControl = start
	t.Cleanup(func() { startControl = saved })
}

// controlRecorder stands in for the control plane: it keeps the Runner it
// was given and notes that it was closed.
type controlRecorder struct {
	runner *pipeline.Runner
	closed bool
}

func recordControl(t *testing.T) *controlRecorder {
	c := &controlRecorder{}
	withControl(t, func(cfg attach.Config) (io.Closer, error) {
		c.runner = cfg.Runner
		return c, nil
	})
	return c
}

func (c *controlRecorder) Close() error { c.closed = true; return nil }

// Through the Runner (the --mcp-uds path) the scores are the engine's,
// each frame names its model, and the control plane is stopped at the end.
func TestRunnerPathMatchesEngine(t *testing.T) {
	plane := recordControl(t)

	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	want, _ := scoreJSON(t, "-r", ref, "-d", dist)
	out := filepath.Join(t.TempDir(), "out.json")
	res := vmafScore(t, "-r", ref, "-d", dist, "--json", "-o", out, "--feature", "psnr", "--mcp-uds", filepath.Join(t.TempDir(), "s"))
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if plane.runner == nil || !plane.closed {
		t.Fatalf("control plane started %v, closed %v", plane.runner != nil, plane.closed)
	}
	got := readLog(t, out)
	sameScores(t, got, want)
	if data, _ := os.ReadFile(out); strings.Count(string(data), `"model": "vmaf_v0.6.1"`) != 8 {
		t.Error("frames do not name their model")
	}
	if st := plane.runner.Status(); st.Counters.Scored != 8 || st.State != pipeline.Finished {
		t.Errorf("runner: %d scored, state %v", st.Counters.Scored, st.State)
	}
}
