package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func touch(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(dir, n)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFindPairs(t *testing.T) {
	dir := t.TempDir()
	touch(t, dir,
		"clips/flower_321x179_ref.y4m.xz", "clips/flower_321x179_x264_crf30.y4m.xz",
		"clips/flower_321x179_blur.y4m", "clips/flower_321x179_blur.y4m.xz",
		"clips/storm422p10_177x177_ref.y4m", "clips/storm422p10_177x177_x264_crf30.y4m",
		"clips/notes.txt", "clips/odd.y4m",
		"scores/flower_321x179_x264_crf30.vmaf.json")
	got, err := findPairs(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := func(n string) string { return filepath.Join(dir, "clips", n) }
	want := []pair{
		{name: "flower_321x179_blur", ref: c("flower_321x179_ref.y4m.xz"), dist: c("flower_321x179_blur.y4m")},
		{name: "flower_321x179_x264_crf30", ref: c("flower_321x179_ref.y4m.xz"), dist: c("flower_321x179_x264_crf30.y4m.xz"),
			scores: filepath.Join(dir, "scores", "flower_321x179_x264_crf30.vmaf.json")},
		{name: "storm422p10_177x177_x264_crf30", ref: c("storm422p10_177x177_ref.y4m"), dist: c("storm422p10_177x177_x264_crf30.y4m")},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pairs:\n got %+v\nwant %+v", got, want)
	}
}

func TestFindPairsErrors(t *testing.T) {
	dir := t.TempDir()
	touch(t, dir, "clips/rain_640x360_scale2.y4m")
	if _, err := findPairs(dir); err == nil || !strings.Contains(err.Error(), "rain_640x360_ref") {
		t.Errorf("missing reference: err = %v", err)
	}
	if _, err := findPairs(filepath.Join(dir, "nowhere")); err == nil {
		t.Error("missing directory: no error")
	}
}
