package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/vmafsink/vmafsink/control/attach"
	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/vmaf"
)

// TestFaultSwapSummaryPerModel: when an agent swaps models part-way, the
// output file keeps each model's frames and pooled metrics under a name of
// its own and lists the swap, and the summary prints one line per model,
// each over its own frames.
func TestFaultSwapSummaryPerModel(t *testing.T) {
	swapped := swapPartWay(t, "vmaf_v0.6.1neg")

	ref, dist := goldenY4M(t, "flower_576x324_ref.y4m"), goldenY4M(t, "flower_576x324_x264_crf22.y4m")
	out := filepath.Join(t.TempDir(), "out.json")
	res := vmafScore(t, "-r", ref, "-d", dist, "--json", "-o", out, "--mcp-uds", filepath.Join(t.TempDir(), "s"))
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if err := <-swapped; err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Frames []struct {
			FrameNum int                `json:"frameNum"`
			Metrics  map[string]float64 `json:"metrics"`
		} `json:"frames"`
		Pooled map[string]struct{ Mean float64 } `json:"pooled_metrics"`
		Swaps  []struct {
			FrameNum int    `json:"frameNum"`
			From     string `json:"from"`
			To       string `json:"to"`
		} `json:"model_swaps"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Swaps) != 1 || doc.Swaps[0].From != "vmaf" || doc.Swaps[0].To != "vmaf_v0.6.1neg" {
		t.Fatalf("model_swaps %+v", doc.Swaps)
	}
	at := doc.Swaps[0].FrameNum
	var sums [2]float64
	var counts [2]int
	for _, f := range doc.Frames {
		old, okOld := f.Metrics["vmaf"]
		neu, okNew := f.Metrics["vmaf_v0.6.1neg"]
		switch {
		case f.FrameNum < at && okOld && !okNew:
			sums[0] += old
			counts[0]++
		case f.FrameNum >= at && okNew && !okOld:
			sums[1] += neu
			counts[1]++
		default:
			t.Errorf("frame %d (swap at %d) has vmaf %v and vmaf_v0.6.1neg %v", f.FrameNum, at, okOld, okNew)
		}
	}
	if counts[0] == 0 || counts[1] == 0 {
		t.Fatalf("frames per model %v, want some of each", counts)
	}
	for i, key := range []string{"vmaf", "vmaf_v0.6.1neg"} {
		mean := sums[i] / float64(counts[i])
		if got := doc.Pooled[key].Mean; got < mean-1e-6 || got > mean+1e-6 {
			t.Errorf("pooled %s mean %f, want %f over its own frames", key, got, mean)
		}
	}
	for _, line := range []string{"vmaf_v0.6.1: ", "vmaf_v0.6.1neg: "} {
		if !strings.Contains(res.stdout, line) {
			t.Errorf("summary %q has no line %q", res.stdout, line)
		}
	}
}

// swapPartWay makes the next vmafScore run, as an agent would through the
// control plane, pause after its first record, swap to the built-in model
// named and resume, so the swap lands part-way. The channel gets the
// outcome once the run is resumed.
func swapPartWay(t *testing.T, model string) <-chan error {
	t.Helper()
	m, err := vmaf.BuiltinModel(model)
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	swapped := make(chan error, 1)
	withControl(t, func(cfg attach.Config) (io.Closer, error) {
		r := cfg.Runner
		// Pausing first makes the pushers wait at the next boundary, so
		// the swap cannot land after the last frame.
		r.Subscribe(func(rec *pipeline.Record) {
			once.Do(func() {
				go func() {
					p, err := r.Pause()
					if err == nil {
						<-p.Done()
						var s *pipeline.Ticket
						if s, err = r.RequestSwap(m); err == nil {
							<-s.Done()
							_, err = r.Resume()
						}
					}
					swapped <- err
				}()
			})
		})
		return nopCloser{new(bool)}, nil
	})
	return swapped
}
