package pipelines

import (
	"strconv"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// waitPipeline waits for a gst-launch run that ends on its own, failing
// the test if it fails or is still running after two minutes.
func waitPipeline(t *testing.T, p *gsttest.Process) {
	t.Helper()
	select {
	case err := <-p.Done():
		if err != nil {
			t.Fatalf("gst-launch failed: %v\n%s", err, p.Output())
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("pipeline did not finish:\n%s", p.Output())
	}
}

// scorer is a model as a frame message names it: its version and the
// metric name its score is given under.
type scorer struct{ model, name string }

// swappedFrame reads a frame message of a run whose model was swapped at
// frame boundary and checks that it names the model in force there:
// before ahead of the boundary, after from it on. It returns the frame's
// index and the metric name of its score.
func swappedFrame(t *testing.T, m gsttest.Message, boundary int, before, after scorer) (int, string) {
	t.Helper()
	i, _ := strconv.Atoi(m.Fields["index"])
	want := before
	if i >= boundary {
		want = after
	}
	if m.Fields["model"] != want.model || m.Fields["model-name"] != want.name {
		t.Errorf("frame %d names %s (%s), want %s (%s)", i, m.Fields["model"], m.Fields["model-name"], want.model, want.name)
	}
	return i, want.name
}
