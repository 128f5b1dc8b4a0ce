package main

import (
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/control"
)

// worstTarget keeps three worst frames, two with 48x27 images.
type worstTarget struct{ *target }

func (worstTarget) WorstFrames(n int) control.WorstFrames {
	var out control.WorstFrames
	out.Kept = 2
	for i := range min(n, 3) {
		f := control.WorstFrame{Record: control.Record{Frame: int64(7 + i), PTS: -1, Model: "vmaf", Score: float64(30 + i)}, RunningTimeNS: -1}
		if i < 2 {
			f.Width, f.Height = 48, 27
			f.Image = func(string, int) (image.Image, error) { return image.NewRGBA(image.Rect(0, 0, 48, 27)), nil }
		}
		out.Frames = append(out.Frames, f)
	}
	return out
}

func TestWorstSavesPNGs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vmaf.sock")
	s, err := control.Start(path, worstTarget{newTarget()}, control.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	dir := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := vmafctl(t, "-s", path, "-json", "worst", "-images", "all", "-o", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out worstOutput
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if len(out.Frames) != 3 || len(out.Files) != 6 {
		t.Fatalf("%d frames, files %v; want 3 frames and 6 files", len(out.Frames), out.Files)
	}
	for _, kind := range []string{"reference", "distorted", "difference"} {
		name := filepath.Join(dir, "frame-000008-"+kind+".png")
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := img.Bounds(); b.Dx() != 48 || b.Dy() != 27 {
			t.Errorf("%s: %v", name, b)
		}
	}
	code, stdout, _ = vmafctl(t, "-s", path, "worst", "-n", "3", "-images", "none")
	if code != exitOK || !strings.Contains(stdout, "30.000") || strings.Count(stdout, "\n") != 4 {
		t.Errorf("exit %d, table:\n%s", code, stdout)
	}
	for _, args := range [][]string{{"worst"}, {"worst", "-n", "40", "-o", dir}, {"worst", "-images", "some", "-o", dir}} {
		if code, _, _ := vmafctl(t, append([]string{"-s", path}, args...)...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}
