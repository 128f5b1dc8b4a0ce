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

// Through the Runner (the --mcp-uds path) the scores are the engine's,
// each frame names its model, and the control plane is stopped at the end.
func TestRunnerPathMatchesEngine(t *testing.T) {
	var served *pipeline.Runner
	closed := false
	saved := startControl
	startControl = func(cfg attach.Config) (io.Closer, error) {
		served = cfg.Runner
		return nopCloser{&closed}, nil
	}
	defer func() { startControl = saved }()

	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	want, _ := scoreJSON(t, "-r", ref, "-d", dist)
	out := filepath.Join(t.TempDir(), "out.json")
	res := vmafScore(t, "-r", ref, "-d", dist, "--json", "-o", out, "--feature", "psnr", "--mcp-uds", filepath.Join(t.TempDir(), "s"))
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if served == nil || !closed {
		t.Fatalf("control plane started %v, closed %v", served != nil, closed)
	}
	got := readLog(t, out)
	sameScores(t, got, want)
	if data, _ := os.ReadFile(out); strings.Count(string(data), `"model": "vmaf_v0.6.1"`) != 8 {
		t.Error("frames do not name their model")
	}
	if st := served.Status(); st.Counters.Scored != 8 || st.State != pipeline.Finished {
		t.Errorf("runner: %d scored, state %v", st.Counters.Scored, st.State)
	}
}
