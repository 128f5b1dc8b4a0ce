package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// worst RESULTS.json ranks a results file's frames by the model's score
// without a socket: lowest first, ties by frame number, -model picking
// another model; pictures are refused with the way to get them.
func TestWorstFromResultsFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "results.json")
	doc := `{"version":"3.2.0","frames":[
		{"frameNum":0,"metrics":{"integer_adm2":0.9,"vmaf":91.5,"vmaf_neg":90.1}},
		{"frameNum":1,"metrics":{"integer_adm2":0.8,"vmaf":70.25,"vmaf_neg":88.0}},
		{"frameNum":2,"metrics":{"integer_adm2":0.7,"vmaf":80,"vmaf_neg":60.5}},
		{"frameNum":3,"metrics":{"integer_adm2":0.8,"vmaf":70.25,"vmaf_neg":99}}],
		"pooled_metrics":{},
		"worst_frames":[{"frameNum":3,"model":"vmaf_v0.6.1","score":70.25,
			"images":{"difference":"w/frame-000003-difference.png","distorted":"w/frame-000003-distorted.png","reference":"w/frame-000003-reference.png"}}]}`
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, e := vmafctl(t, "worst", path, "-n", "3")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, e)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{"frame  model  score      files",
		"1      vmaf   70.250000  ",
		"3      vmaf   70.250000  w/frame-000003-reference.png w/frame-000003-distorted.png w/frame-000003-difference.png",
		"2      vmaf   80.000000  ",
		"(3 worst of 4 frames scored in " + path + ")"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", out, strings.Join(want, "\n"))
	}

	code, out, e = vmafctl(t, "-json", "worst", path, "-n", "1", "-model", "vmaf_neg")
	var w fileWorst
	if code != exitOK || json.Unmarshal([]byte(out), &w) != nil {
		t.Fatalf("exit %d: %s %s", code, out, e)
	}
	if len(w.Frames) != 1 || w.Frames[0].Frame != 2 || w.Frames[0].Score != 60.5 || w.Frames[0].Metrics["integer_adm2"] != 0.7 || w.Scored != 4 {
		t.Errorf("-model vmaf_neg -n 1: %+v", w)
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"worst", path, "-o", dir}, exitUsage, "vmaf-score --worst-dir"},
		{[]string{"worst", path, "-model", "vmaf_4k"}, exitError, `no frame of`},
		{[]string{"worst", filepath.Join(dir, "none.json")}, exitError, "no such file"},
		{[]string{"worst", path, path}, exitUsage, "one results file"},
	} {
		code, _, e := vmafctl(t, tc.args...)
		if code != tc.code || !strings.Contains(e, tc.want) {
			t.Errorf("%v: exit %d, %q; want %d, %q", tc.args, code, e, tc.code, tc.want)
		}
	}
}
