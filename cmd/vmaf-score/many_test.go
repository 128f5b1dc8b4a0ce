package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Several encodes against one reference, read once (here from a pipe,
// which can be read only once): each scores exactly as it does alone,
// with its own results file, and a summary lists them all.
func TestManyDistorted(t *testing.T) {
	ref := goldenY4M(t, "flower_576x324_ref.y4m")
	var dists []string
	for _, crf := range []string{"18", "38"} {
		dists = append(dists, encode(t, ref, "flower_crf"+crf+".mp4", "-c:v", "libx264", "-crf", crf))
	}
	dir := t.TempDir()
	pipe := filepath.Join(dir, "ref.fifo")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(ref)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		if f, err := os.OpenFile(pipe, os.O_WRONLY, 0); err == nil {
			f.Write(data)
			f.Close()
		}
	}()
	summary := filepath.Join(dir, "summary.json")
	res := vmafScore(t, "-r", pipe, "-d", dists[0], "-d", dists[1], "--json", "-o", filepath.Join(dir, "{name}.json"), "--summary", summary)
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	var doc struct {
		Reference string `json:"reference"`
		Runs      []struct {
			Distorted string                        `json:"distorted"`
			Output    string                        `json:"output"`
			Frames    int                           `json:"frames"`
			Pooled    map[string]map[string]float64 `json:"pooled_metrics"`
		} `json:"runs"`
	}
	readJSON(t, summary, &doc)
	if len(doc.Runs) != 2 {
		t.Fatalf("summary %+v", doc)
	}
	lines := strings.Split(strings.TrimSpace(res.stdout), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "distorted") || !strings.Contains(lines[0], "vmaf") {
		t.Errorf("summary table %q", res.stdout)
	}
	for i, d := range dists {
		alone := filepath.Join(dir, "alone.json")
		if r := vmafScore(t, "-q", "-r", ref, "-d", d, "--json", "-o", alone); r.code != 0 {
			t.Fatalf("%s alone: exit %d: %s", d, r.code, r.stderr)
		}
		want := readLog(t, alone)
		out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(d), ".mp4")+".json")
		got := readLog(t, out)
		if doc.Runs[i].Distorted != d || doc.Runs[i].Output != out || doc.Runs[i].Frames != 48 {
			t.Errorf("summary run %d: %+v", i, doc.Runs[i])
		}
		if len(got.Frames) != 48 || got.Pooled["vmaf"]["mean"] != want.Pooled["vmaf"]["mean"] || math.Abs(doc.Runs[i].Pooled["vmaf"]["mean"]-want.Pooled["vmaf"]["mean"]) > 1e-6 {
			t.Errorf("%s: %d frames, mean %f (summary %f); alone %f", d, len(got.Frames), got.Pooled["vmaf"]["mean"], doc.Runs[i].Pooled["vmaf"]["mean"], want.Pooled["vmaf"]["mean"])
		}
		compareFrames(t, got, want, 0, 0, nil)
		if !strings.Contains(lines[i+1], filepath.Base(d)) {
			t.Errorf("table row %d %q", i+1, lines[i+1])
		}
	}
}

// A glob names the distorted inputs; one that fails does not stop the
// others, and the run says which failed.
func TestManyDistortedGlobAndFailure(t *testing.T) {
	ref := goldenY4M(t, smallRef)
	dir := t.TempDir()
	for _, name := range []string{"a.y4m", "b.y4m"} {
		data, err := os.ReadFile(goldenY4M(t, smallDist))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "c.y4m"), []byte("not a video"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := vmafScore(t, "-r", ref, "-d", filepath.Join(dir, "*.y4m"), "--csv", "-o", filepath.Join(dir, "out_{n}.csv"))
	if res.code != exitError || !strings.Contains(res.stderr, "1 of 3 distorted inputs failed") || !strings.Contains(res.stderr, "c.y4m: ") {
		t.Errorf("exit %d, stderr %q", res.code, res.stderr)
	}
	for _, n := range []string{"1", "2"} {
		if st, err := os.Stat(filepath.Join(dir, "out_"+n+".csv")); err != nil || st.Size() == 0 {
			t.Errorf("out_%s.csv: %v", n, err)
		}
	}
	if !strings.Contains(res.stdout, "failed: ") {
		t.Errorf("table %q does not say which failed", res.stdout)
	}
}

// Options that would silently replace one another are refused.
func TestRepeatedOptionsRefused(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-r", ref, "-d", dist, "--json", "-o", "a.json", "--csv", "-o", "b.csv"}, "--json and --csv both given"},
		{[]string{"-r", ref, "-d", dist, "-o", "a.json", "-o", "b.json"}, `-o/--output given twice ("a.json", then "b.json")`},
		{[]string{"-r", ref, "-r", dist, "-d", dist}, "-r/--reference given twice"},
		{[]string{"-r", ref, "-d", dist, "--threads", "2", "--threads", "4"}, "--threads given twice"},
		{[]string{"-r", ref, "-d", dist, "-d", dist}, "given twice"},
		{[]string{"-r", ref, "-d", dist, "-d", ref, "-o", "out.json"}, "would name one file for 2 distorted inputs: put {name}"},
		{[]string{"-r", ref, "-d", dist, "-d", ref, "--plot", "p.svg"}, "--plot serves or draws one run"},
		{[]string{"-r", ref, "-d", dist, "--summary", "s.json"}, "--summary needs several distorted inputs"},
		{[]string{"-r", ref, "-d", filepath.Join(t.TempDir(), "*.mp4")}, "no file matches"},
	}
	for _, tc := range tests {
		res := vmafScore(t, tc.args...)
		if res.code != exitUsage || !strings.Contains(res.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, res.code, res.stderr, tc.want)
		}
	}
	// The same value twice replaces nothing.
	if res := vmafScore(t, "-q", "-r", ref, "-d", dist, "--threads", "2", "--threads", "2", "--json", "--json"); res.code != 0 {
		t.Errorf("repeated equal values: exit %d, stderr %q", res.code, res.stderr)
	}
}
