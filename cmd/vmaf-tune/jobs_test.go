package main

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/vmafsink/vmafsink/tune"
)

// TestJobsAnswerAsSequential runs a ladder and a per-shot plan with two
// probes at a time into a fresh cache, then again one at a time on that
// cache: every probe of the second run is a cache hit (the same probes,
// with the same keys) and the answers are the same. (Two runs that both
// encode would not do: libx264's output varies from run to run here.)
// One case serves the control plane in its --jobs 2 run, so that one
// probe at a time is scored through its Runner and the others directly.
func TestJobsAnswerAsSequential(t *testing.T) {
	ref := clips.Y4M(t, "flower_576x324_ref.y4m")
	cut := cutClip(t)
	cases := []struct {
		name string
		args []string
		res  func() any
		live bool // the --jobs 2 run serves the control plane: one probe at a time goes through its Runner
	}{
		{"ladder-crfs", []string{"ladder", "-i", ref, "--encoder", "libx264", "--preset", "veryfast",
			"--resolutions", "576x324,384x216", "--crfs", "22,30,38"}, func() any { return &tune.LadderResult{} }, false},
		{"ladder-crfs-mcp", []string{"ladder", "-i", ref, "--encoder", "libx264", "--preset", "veryfast",
			"--resolutions", "576x324,384x216", "--crfs", "24,34"}, func() any { return &tune.LadderResult{} }, true},
		{"ladder-targets", []string{"ladder", "-i", ref, "--encoder", "libx264", "--preset", "veryfast",
			"--resolutions", "576x324,384x216", "--targets", "85,90"}, func() any { return &tune.LadderResult{} }, false},
		{"per-shot", []string{"per-shot", "-i", cut, "--encoder", "libx264", "--preset", "veryfast", "--target", "92"},
			func() any { return &tune.PerShotResult{} }, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			cache := filepath.Join(dir, "cache")
			run := func(jobs string) (any, [2]int) {
				args := append(c.args, "--json", "-q", "--cache-dir", cache, "--jobs", jobs)
				if c.live && jobs != "1" {
					args = append(args, "--mcp-uds", filepath.Join(dir, "s"))
				}
				code, out, errOut := runTune(t, args...)
				if code != exitOK {
					t.Fatalf("--jobs %s: exit %d: %s", jobs, code, errOut)
				}
				r := c.res()
				if err := json.Unmarshal([]byte(out), r); err != nil {
					t.Fatal(err)
				}
				var n struct {
					Encodes   int `json:"encodes"`
					CacheHits int `json:"cache_hits"`
				}
				json.Unmarshal([]byte(out), &n)
				return r, [2]int{n.Encodes, n.CacheHits}
			}
			side, sn := run("2")
			seq, qn := run("1")
			t.Logf("--jobs 2: %d probes, %d cached; --jobs 1: %d probes, %d cached", sn[0], sn[1], qn[0], qn[1])
			if sn[0] == 0 || qn[0] != sn[0] || qn[1] != qn[0] {
				t.Errorf("--jobs 2 made %d probes (%d cached), --jobs 1 on its cache %d (%d cached)", sn[0], sn[1], qn[0], qn[1])
			}
			clearCounts(side)
			clearCounts(seq)
			if !reflect.DeepEqual(side, seq) {
				a, _ := json.Marshal(side)
				b, _ := json.Marshal(seq)
				t.Errorf("answers differ:\n--jobs 2: %s\n--jobs 1: %s", a, b)
			}
		})
	}
}

// clearCounts zeroes what differs between a run that encodes and one the
// cache answers: counts of cache hits and encode times.
func clearCounts(r any) {
	switch r := r.(type) {
	case *tune.LadderResult:
		r.CacheHits = 0
	case *tune.PerShotResult:
		r.CacheHits = 0
	}
}
