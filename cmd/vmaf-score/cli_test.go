package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The golden pair most command-line tests score: 8 frames of 321x179
// 4:2:0, an odd size, with libvmaf 3.2.0's scores.
const (
	smallRef  = "flower_321x179_ref.y4m"
	smallDist = "flower_321x179_x264_crf30.y4m"
)

type cliResult struct {
	code           int
	stdout, stderr string
}

func vmafScore(t *testing.T, args ...string) cliResult {
	t.Helper()
	return vmafScoreCtx(t, context.Background(), args...)
}

func vmafScoreCtx(t *testing.T, ctx context.Context, args ...string) cliResult {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(ctx, args, &out, &errb)
	return cliResult{code, out.String(), errb.String()}
}

// scoreLog is libvmaf's JSON output.
type scoreLog struct {
	Version string   `json:"version"`
	FPS     *float64 `json:"fps"`
	Frames  []struct {
		FrameNum int                `json:"frameNum"`
		Metrics  map[string]float64 `json:"metrics"`
	} `json:"frames"`
	Pooled map[string]map[string]float64 `json:"pooled_metrics"`
}

func readLog(t *testing.T, path string) *scoreLog {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var l scoreLog
	if err := json.Unmarshal(data, &l); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &l
}

func goldenLog(t *testing.T, pair string) *scoreLog {
	t.Helper()
	for _, dir := range goldenDirs() {
		p := filepath.Join(dir, "scores", pair+".vmaf.json")
		if _, err := os.Stat(p); err == nil {
			return readLog(t, p)
		}
	}
	t.Fatalf("no golden scores for %s", pair)
	return nil
}

// The golden command.
var goldenArgs = []string{"--threads", "2", "-m", "version=vmaf_v0.6.1", "-m", "version=vmaf_v0.6.1neg:name=vmaf_neg",
	"-m", "version=vmaf_4k_v0.6.1:name=vmaf_4k", "-m", "version=vmaf_float_v0.6.1:name=vmaf_float", "--feature", "psnr", "--feature", "float_ssim", "--feature", "float_ms_ssim"}

// compareFrames checks every metric both logs have, frame by frame, with
// got's frame n matching want's frame n+offset.
func compareFrames(t *testing.T, got, want *scoreLog, offset int, tol float64, skip func(string) bool) {
	t.Helper()
	for _, f := range got.Frames {
		w := want.Frames[f.FrameNum+offset].Metrics
		shared := 0
		for name, v := range f.Metrics {
			wv, ok := w[name]
			if !ok || (skip != nil && skip(name)) {
				continue
			}
			shared++
			if math.Abs(v-wv) > tol {
				t.Errorf("frame %d %s: %f, want %f", f.FrameNum, name, v, wv)
			}
		}
		if shared < 10 {
			t.Fatalf("frame %d shares only %d metrics with the reference log", f.FrameNum, shared)
		}
	}
}

func TestGoldenPairJSON(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.json")
	args := append([]string{"-r", goldenY4M(t, smallRef), "-d", goldenY4M(t, smallDist), "--json", "-o", out}, goldenArgs...)
	res := vmafScore(t, args...)
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	got, want := readLog(t, out), goldenLog(t, "flower_321x179_x264_crf30")
	if len(got.Frames) != len(want.Frames) {
		t.Fatalf("%d frames, libvmaf wrote %d", len(got.Frames), len(want.Frames))
	}
	for i, f := range got.Frames {
		if f.FrameNum != i {
			t.Fatalf("frame %d numbered %d", i, f.FrameNum)
		}
	}
	compareFrames(t, got, want, 0, 1e-4, nil)
	for _, m := range []string{"vmaf", "vmaf_neg", "vmaf_4k", "vmaf_float"} {
		if d := math.Abs(got.Pooled[m]["mean"] - want.Pooled[m]["mean"]); d > 0.01 {
			t.Errorf("pooled %s mean %f, libvmaf %f", m, got.Pooled[m]["mean"], want.Pooled[m]["mean"])
		}
	}
	// libvmaf's tool prints each model's mean under its version.
	lines := strings.Split(strings.TrimSpace(res.stdout), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[3], "vmaf_float_v0.6.1: ") || !strings.HasPrefix(lines[0], "vmaf_v0.6.1: ") || !strings.HasPrefix(lines[1], "vmaf_v0.6.1neg: ") {
		t.Errorf("stdout %q", res.stdout)
	}
	// The golden command scores with the 4K model on small frames, which
	// the tool warns of.
	if want := "vmaf-score: warning: model vmaf_4k is meant for 4K (2160p) viewing; on 321x179 input its scores saturate near 100"; !strings.HasPrefix(res.stderr, want) || strings.Count(res.stderr, "\n") != 1 {
		t.Errorf("stderr %q, want one line starting %q", res.stderr, want)
	}
}

func TestFrameSelection(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	want := goldenLog(t, "flower_321x179_x264_crf30")
	motion := func(name string) bool { return strings.Contains(name, "motion") || strings.HasPrefix(name, "vmaf") }
	tests := []struct {
		name    string
		args    []string
		frames  []int
		offset  int // which golden frame the first output frame is
		compare func(string) bool
	}{
		// motion2 of a stream's last frame has no next frame to look at.
		{"frame_cnt", []string{"--frame_cnt", "3"}, []int{0, 1, 2}, 0, motion},
		// Skipped frames are gone for motion too, so it differs at the start.
		{"skip both", []string{"--frame_skip_ref", "2", "--frame_skip_dist", "2", "--frame_cnt", "4"}, []int{0, 1, 2, 3}, 2, motion},
		{"subsample", []string{"--subsample", "3"}, []int{0, 3, 6}, 0, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.json")
			res := vmafScore(t, append([]string{"-r", ref, "-d", dist, "--json", "-o", out, "-q", "--feature", "psnr"}, tc.args...)...)
			if res.code != 0 {
				t.Fatalf("exit %d: %s", res.code, res.stderr)
			}
			got := readLog(t, out)
			var nums []int
			for _, f := range got.Frames {
				nums = append(nums, f.FrameNum)
			}
			if !equalInts(nums, tc.frames) {
				t.Fatalf("frames %v, want %v", nums, tc.frames)
			}
			compareFrames(t, got, want, tc.offset, 1e-4, tc.compare)
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Each output format parses with a standard parser and holds every frame.
func TestOutputFormats(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	dir := t.TempDir()
	for _, format := range []string{"xml", "csv", "sub", ""} {
		out := filepath.Join(dir, "out."+format)
		args := []string{"-r", ref, "-d", dist, "-o", out, "--frame_cnt", "4"}
		if format != "" {
			args = append(args, "--"+format)
		}
		if res := vmafScore(t, args...); res.code != 0 {
			t.Fatalf("%s: exit %d: %s", format, res.code, res.stderr)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		frames := 0
		switch format {
		case "xml", "": // XML is the default, as in libvmaf
			var doc struct {
				Frames []struct{} `xml:"frames>frame"`
				Params struct {
					W int `xml:"qualityWidth,attr"`
				} `xml:"params"`
			}
			if err := xml.Unmarshal(data, &doc); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
			if doc.Params.W != 321 {
				t.Errorf("qualityWidth %d", doc.Params.W)
			}
			frames = len(doc.Frames)
		case "csv":
			rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if rows[0][0] != "Frame" || !strings.Contains(strings.Join(rows[0], ","), ",vmaf,") {
				t.Errorf("CSV header %q", rows[0])
			}
			frames = len(rows) - 1
		case "sub":
			frames = strings.Count(string(data), "frame: ")
		}
		if frames != 4 {
			t.Errorf("%s: %d frames, want 4", format, frames)
		}
	}
}

func TestNoPredictionAndQuiet(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.json")
	res := vmafScore(t, "-r", goldenY4M(t, smallRef), "-d", goldenY4M(t, smallDist), "-n", "-m", "version=vmaf_v0.6.1", "--frame_cnt", "2", "--json", "-o", out)
	if res.code != 0 || res.stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %s", res.code, res.stdout, res.stderr)
	}
	l := readLog(t, out)
	if _, ok := l.Frames[0].Metrics["vmaf"]; ok {
		t.Error("--no_prediction output has a vmaf score")
	}
	if _, ok := l.Frames[0].Metrics["integer_vif_scale0"]; !ok {
		t.Error("--no_prediction output lacks the features")
	}
	// -q with -o prints nothing; -q alone still prints the score.
	res = vmafScore(t, "-r", goldenY4M(t, smallRef), "-d", goldenY4M(t, smallDist), "-q", "--frame_cnt", "2", "-o", out)
	if res.stdout != "" {
		t.Errorf("-q -o printed %q", res.stdout)
	}
	res = vmafScore(t, "-r", goldenY4M(t, smallRef), "-d", goldenY4M(t, smallDist), "-q", "--frame_cnt", "2")
	if !strings.HasPrefix(res.stdout, "vmaf_v0.6.1: ") {
		t.Errorf("-q printed %q", res.stdout)
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	ref := goldenY4M(t, smallRef)
	other := goldenY4M(t, "storm422p10_177x177_ref.y4m")
	empty := filepath.Join(dir, "empty.y4m") // a header and no frame
	if err := os.WriteFile(empty, []byte("YUV4MPEG2 W64 H64 F25:1 Ip A1:1 C420jpeg\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// As libvmaf's tool: 1 for a refused command line, 255 for the rest.
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"usage", []string{"-r", ref}, "vmaf-score: distorted (-d/--distorted) is required (see --help)"},
		{"missing file", []string{"-r", filepath.Join(dir, "nope.y4m"), "-d", ref},
			"vmaf-score: reference " + filepath.Join(dir, "nope.y4m") + ": cannot open: no such file or directory"},
		{"size mismatch", []string{"-r", ref, "-d", other},
			"vmaf-score: dimensions do not match: reference 321x179, distorted 177x177 (use --scale-dist ALGO to scale the distorted video)"},
		{"unknown model", []string{"-r", ref, "-d", ref, "-m", "version=vmaf_v9"}, "vmaf_v9"},
		{"duplicate model name", []string{"-r", ref, "-d", ref, "-m", "version=vmaf_v0.6.1", "-m", "version=vmaf_v0.6.1neg"},
			`"vmaf" is used twice`},
		{"unknown feature", []string{"-r", ref, "-d", ref, "--feature", "banding"}, `unknown feature "banding"`},
		{"bad feature option", []string{"-r", ref, "-d", ref, "--feature", "cambi=topk=2"}, `feature cambi: option topk="2": outside`},
		{"no frames", []string{"-r", empty, "-d", empty}, "vmaf-score: no frames to score: an input ends before the first frame to score"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := vmafScore(t, tc.args...)
			want := exitError
			if strings.HasSuffix(tc.want, "(see --help)") || strings.Contains(tc.name, "feature") {
				want = exitUsage
			}
			if res.code != want {
				t.Errorf("exit %d, want %d", res.code, want)
			}
			msg := strings.TrimSuffix(res.stderr, "\n")
			if strings.Contains(msg, "\n") || !strings.Contains(msg, tc.want) {
				t.Errorf("stderr %q, want one line containing %q", res.stderr, tc.want)
			}
		})
	}
}

// A signal stops the run at a frame boundary; the output is still a
// valid document.
func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := filepath.Join(t.TempDir(), "out.json")
	res := vmafScoreCtx(t, ctx, "-r", goldenY4M(t, smallRef), "-d", goldenY4M(t, smallDist), "--json", "-o", out)
	if res.code != exitInterrupted || !strings.Contains(res.stderr, "interrupted") {
		t.Fatalf("exit %d, stderr %q", res.code, res.stderr)
	}
	if l := readLog(t, out); len(l.Frames) != 0 {
		t.Errorf("%d frames", len(l.Frames))
	}
}

func TestHelpAndVersion(t *testing.T) {
	if res := vmafScore(t, "--help"); res.code != 0 || !strings.Contains(res.stdout, "--reference") {
		t.Errorf("--help: exit %d, %q", res.code, res.stdout)
	}
	if res := vmafScore(t, "-v"); res.code != 0 || !strings.HasPrefix(res.stdout, "vmaf-score ") {
		t.Errorf("-v: exit %d, %q", res.code, res.stdout)
	}
}
