package main

import (
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/report/worstdir"
)

// --worst-dir writes the run's worst frames as PNG at its end, without a
// control socket: the frames the results file scores lowest, each as
// reference, distorted and difference.
func TestWorstDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "worst")
	out := filepath.Join(t.TempDir(), "out.json")
	res := vmafScore(t, "-r", goldenY4M(t, smallRef), "-d", goldenY4M(t, smallDist), "--json", "-o", out,
		"--worst-dir", dir, "--worst-frames", "3")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	l := readLog(t, out)
	type scored struct {
		frame int
		vmaf  float64
	}
	var all []scored
	for _, f := range l.Frames {
		all = append(all, scored{f.FrameNum, f.Metrics["vmaf"]})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].vmaf < all[j].vmaf })
	var want []string
	for _, s := range all[:3] {
		for _, kind := range []string{"reference", "distorted", "difference"} {
			want = append(want, fmt.Sprintf("frame-%06d-%s.png", s.frame, kind))
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("files %v, want %v", got, want)
	}
	// Pictures of the pair's size (321x179: under the 640 bound), and the
	// distorted frame is not the reference.
	pix := map[string][]byte{}
	for _, name := range got {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := img.Bounds(); b.Dx() != 321 || b.Dy() != 179 {
			t.Errorf("%s is %v", name, b)
		}
		var raw []byte
		for y := 0; y < img.Bounds().Dy(); y++ {
			for x := 0; x < img.Bounds().Dx(); x++ {
				r, g, b, _ := img.At(x, y).RGBA()
				raw = append(raw, byte(r>>8), byte(g>>8), byte(b>>8))
			}
		}
		pix[name] = raw
	}
	worst := fmt.Sprintf("frame-%06d-", all[0].frame)
	if slices.Equal(pix[worst+"reference.png"], pix[worst+"distorted.png"]) {
		t.Error("the distorted picture is the reference's")
	}
	if !strings.Contains(res.stderr, fmt.Sprintf("worst 1: frame %d,", all[0].frame)) {
		t.Errorf("stderr does not name the worst frame %d: %s", all[0].frame, res.stderr)
	}
}

func TestWorstDirRefused(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--worst-dir", dir, "--worst-frames", "0"}, "would write nothing"},
		{[]string{"--worst-dir", dir, "-d", ref, "-o", filepath.Join(dir, "{n}.xml")}, "--worst-dir"},
		{[]string{"--worst-dir", dir, "--shard", "0/2", "-o", filepath.Join(dir, "p.xml")}, "--worst-dir belongs to the whole run"},
	} {
		res := vmafScore(t, append([]string{"-r", ref, "-d", dist}, tc.args...)...)
		if res.code != exitUsage || !strings.Contains(res.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q (want %q)", tc.args, res.code, res.stderr, tc.want)
		}
	}
}

// A --worst-dir run's results list the pictures it wrote, worst first,
// so that vmafctl worst RESULTS.json can show them after the run.
func TestWorstDirSection(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "worst")
	for _, format := range []string{"json", "xml"} {
		out := filepath.Join(t.TempDir(), "out."+format)
		res := vmafScore(t, "-r", goldenY4M(t, smallRef), "-d", goldenY4M(t, smallDist), "--"+format, "-o", out,
			"--worst-dir", dir, "--worst-frames", "2")
		if res.code != 0 {
			t.Fatalf("exit %d: %s", res.code, res.stderr)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if format == "xml" {
			if !strings.Contains(string(data), "<worst_frames><![CDATA[[{") {
				t.Errorf("XML results without the worst_frames section")
			}
			continue
		}
		var doc struct {
			Frames []struct {
				FrameNum int                `json:"frameNum"`
				Metrics  map[string]float64 `json:"metrics"`
			} `json:"frames"`
			Worst []worstdir.Frame `json:"worst_frames"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Worst) != 2 || doc.Worst[0].Score > doc.Worst[1].Score {
			t.Fatalf("worst_frames %+v", doc.Worst)
		}
		for _, w := range doc.Worst {
			if got := doc.Frames[w.FrameNum].Metrics["vmaf"]; math.Abs(got-w.Score) > 5e-7 {
				t.Errorf("frame %d: section score %v, the frame's %v", w.FrameNum, w.Score, got)
			}
			for _, kind := range []string{"reference", "distorted", "difference"} {
				if _, err := os.Stat(w.Images[kind]); err != nil {
					t.Errorf("frame %d %s: %v", w.FrameNum, kind, err)
				}
			}
		}
	}
	// Without --worst-dir the file stays libvmaf's.
	out := filepath.Join(t.TempDir(), "plain.json")
	if res := vmafScore(t, "-r", goldenY4M(t, smallRef), "-d", goldenY4M(t, smallDist), "--json", "-o", out); res.code != 0 {
		t.Fatal(res.stderr)
	}
	if data, _ := os.ReadFile(out); strings.Contains(string(data), "worst_frames") {
		t.Error("a plain run's results have a worst_frames section")
	}
}
