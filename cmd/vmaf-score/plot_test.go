package main

import (
	"bytes"
	"cmp"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/internal/plot"
)

// worstLabels returns the labels of the n lowest scores over the models,
// a frame counted once with its lowest score, from a results log.
func worstLabels(l *scoreLog, models []string, n int) []string {
	type fs struct {
		frame int
		score float64
	}
	var all []fs
	for _, f := range l.Frames {
		low, ok := 0.0, false
		for _, m := range models {
			if v, has := f.Metrics[m]; has && (!ok || v < low) {
				low, ok = v, true
			}
		}
		if ok {
			all = append(all, fs{f.FrameNum, low})
		}
	}
	slices.SortFunc(all, func(a, b fs) int { return cmp.Or(cmp.Compare(a.score, b.score), cmp.Compare(a.frame, b.frame)) })
	var out []string
	for _, p := range all[:min(n, len(all))] {
		out = append(out, plot.WorstLabel(p.frame, p.score))
	}
	return out
}

// TestPlotGoldenPair: --plot draws the golden pair's two models, their
// means and the five worst frames, as the results file gives them.
func TestPlotGoldenPair(t *testing.T) {
	dir := t.TempDir()
	out, svg := filepath.Join(dir, "out.json"), filepath.Join(dir, "scores.svg")
	res := vmafScore(t, "-r", goldenY4M(t, smallRef), "-d", goldenY4M(t, smallDist), "--threads", "2",
		"-m", "version=vmaf_v0.6.1", "-m", "version=vmaf_v0.6.1neg:name=vmaf_neg", "--feature", "psnr",
		"--json", "-o", out, "--plot", svg)
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	l := readLog(t, out)
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	want := []string{">vmaf<", ">vmaf_neg<",
		fmt.Sprintf(">vmaf mean %.3f<", l.Pooled["vmaf"]["mean"]),
		fmt.Sprintf(">vmaf_neg mean %.3f<", l.Pooled["vmaf_neg"]["mean"]),
		">" + smallDist + " vs " + smallRef + " — vmaf_v0.6.1, vmaf_v0.6.1neg<"}
	labels := worstLabels(l, []string{"vmaf", "vmaf_neg"}, plot.DefaultWorst)
	if len(labels) != plot.DefaultWorst {
		t.Fatalf("worst frames: %v", labels)
	}
	for _, w := range append(want, labels...) {
		if !strings.Contains(doc, w) {
			t.Errorf("plot lacks %q", w)
		}
	}
	// Only model scores are lines: no feature or extra metric is named.
	for _, feature := range []string{"psnr_y", "integer_adm2", "vmaf_neg_"} {
		if strings.Contains(doc, ">"+feature) {
			t.Errorf("plot names %q, which is not a model's score", feature)
		}
	}
	// Nothing happened that a mark would show.
	for _, mark := range []string{"paused", "→"} {
		if strings.Contains(doc, mark) {
			t.Errorf("plot marks %q in a run without swaps or pauses", mark)
		}
	}
}

func TestPlotPNG(t *testing.T) {
	p := filepath.Join(t.TempDir(), "scores.PNG")
	res := vmafScore(t, "-r", goldenY4M(t, smallRef), "-d", goldenY4M(t, smallDist), "--threads", "2", "-q", "--plot", p)
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 960 || b.Dy() != 432 {
		t.Errorf("%dx%d, want 960x432", b.Dx(), b.Dy())
	}
}

// TestPlotRefused: a plot of another format, or of scores the run
// leaves out, is a usage error, found before any scoring.
func TestPlotRefused(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"pdf", []string{"--plot", "scores.pdf"}, "--plot"},
		{"no extension", []string{"--plot", "scores"}, "--plot"},
		{"jpeg", []string{"--plot", "scores.jpg"}, "--plot"},
		{"no prediction", []string{"--plot", "scores.svg", "--no_prediction"}, "--no_prediction"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for i, a := range c.args {
				if strings.HasPrefix(a, "scores") {
					c.args[i] = filepath.Join(dir, a)
				}
			}
			args := append([]string{"-r", goldenY4M(t, smallRef), "-d", goldenY4M(t, smallDist)}, c.args...)
			res := vmafScore(t, args...)
			if res.code != exitUsage {
				t.Errorf("exit %d, want %d", res.code, exitUsage)
			}
			if !strings.Contains(res.stderr, c.want) {
				t.Errorf("stderr %q does not name %s", res.stderr, c.want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("left %d files", len(entries))
			}
		})
	}
}

// TestPlotMarksSwapAndPause: an agent's pause and swap part-way through
// are marked where the results file puts the swap, and the new model's
// scores are a line of their own.
func TestPlotMarksSwapAndPause(t *testing.T) {
	swapped := swapPartWay(t, "vmaf_v0.6.1neg")

	dir := t.TempDir()
	out, svg := filepath.Join(dir, "out.json"), filepath.Join(dir, "scores.svg")
	res := vmafScore(t, "-r", goldenY4M(t, smallRef), "-d", goldenY4M(t, smallDist), "--json", "-o", out,
		"--plot", svg, "--mcp-uds", filepath.Join(dir, "s"))
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if err := <-swapped; err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, w := range []string{">vmaf<", ">vmaf_v0.6.1neg<", ">→ vmaf_v0.6.1neg<", ">paused<"} {
		if !strings.Contains(doc, w) {
			t.Errorf("plot lacks %q", w)
		}
	}
}
