package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An encode that starts 3 frames into its source: paired in order every
// frame compares different pictures, and the run says so; --sync auto
// finds the offset, says it, and scores as --frame_skip_ref 3 does.
func TestSyncAuto(t *testing.T) {
	ref := goldenY4M(t, "flower_576x324_ref.y4m")
	late := encode(t, ref, "flower_late3.mp4", "-vf", "trim=start_frame=3,setpts=PTS-STARTPTS", "-c:v", "libx264", "-crf", "23")
	dir := t.TempDir()
	out := func(name string) string { return filepath.Join(dir, name) }

	plain := vmafScore(t, "-r", ref, "-d", late, "--json", "-o", out("plain.json"))
	hint := "the inputs look offset: distorted frame 0 shows reference frame 3"
	if plain.code != 0 || !strings.Contains(plain.stderr, "warning: "+hint) || !strings.Contains(plain.stderr, "--sync auto or --frame_skip_ref 3") {
		t.Fatalf("unsynchronised: exit %d, stderr %q", plain.code, plain.stderr)
	}
	if w := readWarnings(t, out("plain.json")); len(w) != 1 || !strings.HasPrefix(w[0], hint) {
		t.Errorf("results warnings %q", w)
	}

	synced := vmafScore(t, "-r", ref, "-d", late, "--sync", "auto", "--json", "-o", out("sync.json"))
	note := "--sync auto=24: distorted frame 0 shows reference frame 3"
	if synced.code != 0 || !strings.Contains(synced.stderr, note) || strings.Contains(synced.stderr, "warning") {
		t.Fatalf("--sync auto: exit %d, stderr %q", synced.code, synced.stderr)
	}
	var doc struct {
		Notes []string `json:"notes"`
	}
	readJSON(t, out("sync.json"), &doc)
	if len(doc.Notes) != 1 || !strings.HasPrefix(doc.Notes[0], note) || !strings.HasSuffix(doc.Notes[0], "the first 3 reference frames are skipped") {
		t.Errorf("results notes %q", doc.Notes)
	}
	skipped := vmafScore(t, "-r", ref, "-d", late, "--frame_skip_ref", "3", "--json", "-o", out("skip.json"))
	if skipped.code != 0 {
		t.Fatalf("--frame_skip_ref 3: exit %d, %s", skipped.code, skipped.stderr)
	}
	got, want := readLog(t, out("sync.json")), readLog(t, out("skip.json"))
	if len(got.Frames) != len(want.Frames) || got.Pooled["vmaf"]["mean"] != want.Pooled["vmaf"]["mean"] {
		t.Errorf("--sync auto: %d frames, mean %f; --frame_skip_ref 3: %d frames, mean %f",
			len(got.Frames), got.Pooled["vmaf"]["mean"], len(want.Frames), want.Pooled["vmaf"]["mean"])
	}
	if got.Pooled["vmaf"]["mean"] < 90 || readLog(t, out("plain.json")).Pooled["vmaf"]["mean"] > 50 {
		t.Errorf("means: synchronised %f, not %f", got.Pooled["vmaf"]["mean"], readLog(t, out("plain.json")).Pooled["vmaf"]["mean"])
	}

	// The other way round: the distorted input's first frames are
	// skipped.
	swapped := vmafScore(t, "-r", late, "-d", ref, "--sync", "auto=8")
	if swapped.code != 0 || !strings.Contains(swapped.stderr, "--sync auto=8: reference frame 0 shows distorted frame 3") ||
		!strings.Contains(swapped.stderr, "the first 3 distorted frames are skipped") {
		t.Errorf("reference late: exit %d, stderr %q", swapped.code, swapped.stderr)
	}

	// Aligned inputs: no hint, and --sync leaves them as they are.
	aligned := encode(t, ref, "flower_aligned.mp4", "-c:v", "libx264", "-crf", "23")
	if res := vmafScore(t, "-r", ref, "-d", aligned); res.code != 0 || res.stderr != "" {
		t.Errorf("aligned: exit %d, stderr %q", res.code, res.stderr)
	}
	if res := vmafScore(t, "-r", ref, "-d", aligned, "--sync", "auto"); res.code != 0 || !strings.Contains(res.stderr, "the inputs are aligned") {
		t.Errorf("aligned with --sync: exit %d, stderr %q", res.code, res.stderr)
	}
}

func TestSyncRefused(t *testing.T) {
	ref := goldenY4M(t, smallRef)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-r", "-", "-d", ref, "--sync", "auto"}, "standard input"},
		{[]string{"-r", ref, "-d", ref, "--sync", "auto", "--frame_skip_ref", "2"}, "--sync finds the frames to skip itself"},
		{[]string{"-r", ref, "-d", ref, "--sync", "auto=0"}, "auto or auto=FRAMES"},
		{[]string{"-r", ref, "-d", ref, "--sync", "manual"}, "auto or auto=FRAMES"},
	}
	for _, tc := range tests {
		if res := vmafScore(t, tc.args...); res.code != exitUsage || !strings.Contains(res.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, res.code, res.stderr, tc.want)
		}
	}
}

// Still pictures match at every offset: none is chosen.
func TestBestOffsetStill(t *testing.T) {
	sigs := make([]signature, 40)
	for i := range sigs {
		for j := range sigs[i] {
			sigs[i][j] = float32(j % 7)
		}
	}
	fit, ok := bestOffset(sigs, sigs[:30], 10, 24)
	if !ok || fit.offset != 0 || fit.clear() {
		t.Errorf("still pictures: %+v, %v", fit, ok)
	}
	if _, ok := bestOffset(sigs[:3], sigs[:3], 10, 24); ok {
		t.Error("three frames judged an offset")
	}
}

// An input that ends long before the frames its container announces is
// said to be cut short, with what was scored.
func TestTruncatedInput(t *testing.T) {
	ref := goldenY4M(t, "flower_576x324_ref.y4m")
	full := encode(t, ref, "flower_full.mkv", "-c:v", "libx264", "-crf", "23")
	data, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	half := filepath.Join(t.TempDir(), "half.mkv")
	if err := os.WriteFile(half, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	res := vmafScore(t, "-q", "-r", ref, "-d", half)
	if res.code != 0 || !strings.Contains(res.stderr, "ended after") || !strings.Contains(res.stderr, "of the 48 it announces: it looks cut short;") {
		t.Errorf("exit %d, stderr %q", res.code, res.stderr)
	}
	if res := vmafScore(t, "-q", "-r", ref, "-d", full); strings.Contains(res.stderr, "cut short") {
		t.Errorf("whole input: stderr %q", res.stderr)
	}
}
