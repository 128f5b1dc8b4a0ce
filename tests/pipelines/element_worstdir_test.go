package pipelines

import (
	"bytes"
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
	"time"

	"github.com/vmafsink/vmafsink/report/worstdir"
	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// TestElementWorstDir: with worst-dir set and no control plane, the
// element writes the run's worst frames as PNG at EOS, the results file's
// lowest scores, and lists them worst first in its worst_frames section.
func TestElementWorstDir(t *testing.T) {
	ref := gsttest.Clip(t, "flower_576x324_ref")
	dist := gsttest.Clip(t, "flower_576x324_x264_crf22")
	for _, withResults := range []bool{true, false} {
		t.Run(fmt.Sprintf("results=%v", withResults), func(t *testing.T) {
			tmp := t.TempDir()
			dir := filepath.Join(tmp, "worst", "run") // made by the element
			results := filepath.Join(tmp, "results.json")
			props := "threads=2 worst-frames=3 worst-dir=" + dir
			if withResults {
				props += " results-filename=" + results
			}
			run := gsttest.Launch(t, 10*time.Minute, fmt.Sprintf("%s ! v.ref_sink %s ! v.dist_sink vmafsink name=v %s",
				gsttest.RawSource(t, ref), gsttest.RawSource(t, dist), props))
			run.MustSucceed(t)

			type scored struct {
				frame int
				vmaf  float64
			}
			var all []scored
			if withResults {
				for _, f := range gsttest.ReadResults(t, results, "json") {
					all = append(all, scored{f.Num, f.Metrics["vmaf"]})
				}
			} else {
				for _, m := range run.Frames() {
					all = append(all, scored{int(m.Uint(t, "index")), m.Float(t, "vmaf")})
				}
			}
			if len(all) < 4 {
				t.Fatalf("%d frames scored", len(all))
			}
			// Worst first; equal scores in frame order, as the run met them.
			sort.SliceStable(all, func(i, j int) bool { return all[i].vmaf < all[j].vmaf })
			var want []string
			for _, s := range all[:3] {
				for _, kind := range []string{"reference", "distorted", "difference"} {
					want = append(want, fmt.Sprintf("frame-%06d-%s.png", s.frame, kind))
				}
			}
			slices.Sort(want)
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatalf("worst-dir: %v\n%s", err, run.Output)
			}
			var got []string
			for _, e := range entries {
				got = append(got, e.Name())
			}
			if !slices.Equal(got, want) {
				t.Fatalf("files %v, want %v", got, want)
			}
			for _, name := range got {
				data, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				if cfg, err := png.DecodeConfig(bytes.NewReader(data)); err != nil || cfg.Width != 576 || cfg.Height != 324 {
					t.Errorf("%s: %dx%d (%v), want a PNG of the clip's 576x324", name, cfg.Width, cfg.Height, err)
				}
			}
			if !withResults {
				return
			}
			worst := readWorstSection(t, results)
			if len(worst) != 3 {
				t.Fatalf("worst_frames lists %d frames, want 3: %+v", len(worst), worst)
			}
			for i, w := range worst {
				if w.FrameNum != all[i].frame || w.Model != "vmaf_v0.6.1" || math.Abs(w.Score-all[i].vmaf) > 1e-6 {
					t.Errorf("worst_frames[%d] = frame %d %s %v, want frame %d vmaf_v0.6.1 %v",
						i, w.FrameNum, w.Model, w.Score, all[i].frame, all[i].vmaf)
				}
				for _, kind := range []string{"reference", "distorted", "difference"} {
					if p := w.Images[kind]; p != filepath.Join(dir, fmt.Sprintf("frame-%06d-%s.png", w.FrameNum, kind)) {
						t.Errorf("worst_frames[%d] %s image %q", i, kind, p)
					}
				}
			}
		})
	}
}

// TestElementWorstDirRefused: a worst-dir that could hold nothing, or
// cannot be made, fails the start with the property named, as a bad
// results-filename does, instead of losing the pictures at EOS.
func TestElementWorstDirRefused(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, props, want string }{
		{"no frames", "worst-frames=0 worst-dir=" + filepath.Join(tmp, "w"), "worst-frames=0 would write nothing"},
		{"under a file", "worst-dir=" + filepath.Join(file, "w"), "not a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := gsttest.Launch(t, 2*time.Minute, "videotestsrc num-buffers=5 ! "+testSrcCaps+" ! tee name=t "+
				"t. ! queue ! v.ref_sink t. ! queue ! v.dist_sink vmafsink name=v "+tc.props)
			if run.Err == nil {
				t.Fatalf("gst-launch succeeded:\n%s", run.Output)
			}
			if !strings.Contains(run.Output, "worst-dir") || !strings.Contains(run.Output, tc.want) {
				t.Fatalf("output does not name worst-dir and %q:\n%s", tc.want, run.Output)
			}
			if len(run.Frames()) != 0 {
				t.Errorf("%d frames scored", len(run.Frames()))
			}
		})
	}
}

// TestElementWorstDirSeekAfterEOS: a run restarted by a flushing seek
// after EOS writes worst-dir again at its next EOS; the second pass,
// made worse, holds the worst frames then, and the directory holds their
// pictures and no others, as the results file's section lists them.
func TestElementWorstDirSeekAfterEOS(t *testing.T) {
	tmp := t.TempDir()
	kv := appHost(t, "worst-seek", tmp)
	wantKV(t, kv, map[string]string{"first_eos": "True", "seek": "True", "second_eos": "True"})
	first := kvInt(t, kv, "first_scored")
	if n := len(strings.Split(kv["first_files"], ",")); n != 6 {
		t.Fatalf("first EOS: %d files (%s), want 6", n, kv["first_files"])
	}
	worst := readWorstSection(t, filepath.Join(tmp, "results.json"))
	var listed []string
	for _, w := range worst {
		if int64(w.FrameNum) < first {
			t.Errorf("worst frame %d (score %v) is from the first pass (%d frames)", w.FrameNum, w.Score, first)
		}
		for _, path := range w.Images {
			listed = append(listed, filepath.Base(path))
		}
	}
	slices.Sort(listed)
	if got := kv["second_files"]; len(worst) != 2 || got != strings.Join(listed, ",") {
		t.Fatalf("second EOS: worst-dir holds %s; the section lists %d frames: %s", got, len(worst), strings.Join(listed, ","))
	}
}

// readWorstSection is a JSON results file's worst_frames section.
func readWorstSection(t *testing.T, path string) []worstdir.Frame {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Worst []worstdir.Frame `json:"worst_frames"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("results %s: %v", path, err)
	}
	return doc.Worst
}
