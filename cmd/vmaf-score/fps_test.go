package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseFrameRate(t *testing.T) {
	tests := []struct {
		in   string
		want frameRate
		ok   bool
	}{
		{"24", frameRate{24, 1}, true},
		{"30000/1001", frameRate{30000, 1001}, true},
		{"29.97", frameRate{2997, 100}, true},
		{"50/2", frameRate{25, 1}, true},
		{"0", frameRate{}, false},
		{"-24", frameRate{}, false},
		{"fast", frameRate{}, false},
	}
	for _, tc := range tests {
		got, err := parseFrameRate(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseFrameRate(%q) = %v, %v; want %v (ok %v)", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

// FFmpeg rounds a timestamp to the output rate to the nearest frame,
// halves away from zero, on exact rationals; ours arrive in rounded
// nanoseconds and must round the same.
func TestTickOf(t *testing.T) {
	r24, r30 := frameRate{24, 1}, frameRate{30, 1}
	ntsc := frameRate{30000, 1001}
	tests := []struct {
		r    frameRate
		pts  time.Duration
		want int64
	}{
		// 24 fps frame 2 is 2.5 frames at 30 fps: a half, rounded up,
		// though 2/24 s is 83333333 ns, a hair short of it.
		{r30, frameRate{24, 1}.timeOf(2), 3},
		{r30, 83333333, 3},
		{r30, frameRate{24, 1}.timeOf(1), 1},
		{r24, frameRate{30, 1}.timeOf(4), 3},
		{r24, frameRate{30, 1}.timeOf(3), 2},
		{ntsc, frameRate{60000, 1001}.timeOf(3), 2}, // 1.5
		{r24, -frameRate{48, 1}.timeOf(1), -1},      // -0.5: away from zero
		{r24, 0, 0},
	}
	for _, tc := range tests {
		if got := tc.r.tickOf(tc.pts); got != tc.want {
			t.Errorf("%v tickOf(%v) = %d, want %d", tc.r, tc.pts, got, tc.want)
		}
	}
}

// fpsFrames conforms a fake input (timestamps in 40 ms frames) and
// returns which input frame each output frame shows, checking every
// frame is given back.
func fpsFrames(t *testing.T, r frameRate, pts ...int) []int {
	t.Helper()
	src := newFake(pts...)
	f := newFPSSource(src, "fake", r, 4)
	var got []int
	for {
		fr, err := f.next()
		if err != nil {
			break
		}
		got = append(got, fr.pic.Width)
		fr.release()
	}
	f.close()
	if src.released != src.out {
		t.Errorf("%d frames read, %d given back", src.out, src.released)
	}
	return got
}

func TestFPSSourceHoldsAndDrops(t *testing.T) {
	tests := []struct {
		name string
		r    frameRate
		pts  []int
		want []int
	}{
		// 25 fps to 50: each frame twice, the last until the input's end.
		{"double", frameRate{50, 1}, []int{0, 1, 2}, []int{0, 0, 1, 1, 2, 2}},
		// 25 fps to 12.5: every other frame.
		{"halve", frameRate{25, 2}, []int{0, 1, 2, 3}, []int{0, 2}},
		// A gap in the input holds the frame before it.
		{"gap", frameRate{25, 1}, []int{0, 1, 4, 5}, []int{0, 1, 1, 1, 4, 5}},
		// The output starts at the first frame's time.
		{"late start", frameRate{25, 1}, []int{3, 4}, []int{3, 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := fpsFrames(t, tc.r, tc.pts...)
			if len(got) != len(tc.want) {
				t.Fatalf("frames %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("frames %v, want %v", got, tc.want)
				}
			}
		})
	}
}

// --fps gives, frame for frame, what FFmpeg's fps filter gives: the
// filter's output of the reference, scored against the reference
// conformed by --fps, is identical in every frame (PSNR at its cap).
func TestFPSMatchesFFmpegFilter(t *testing.T) {
	ref := goldenY4M(t, "flower_576x324_ref.y4m") // 48 frames at 24 fps
	for _, rate := range []string{"30", "30000/1001", "25", "60", "7", "12"} {
		t.Run(strings.ReplaceAll(rate, "/", "_"), func(t *testing.T) {
			filtered := ffmpeg(t, "fps_"+strings.ReplaceAll(rate, "/", "_")+".y4m", "-i", ref, "-vf", "fps="+rate)
			out := filepath.Join(t.TempDir(), "out.json")
			res := vmafScore(t, "-q", "-r", filtered, "-d", ref, "--fps", rate, "--feature", "psnr", "--json", "-o", out)
			if res.code != 0 {
				t.Fatalf("exit %d: %s", res.code, res.stderr)
			}
			l := readLog(t, out)
			want := ffmpegFrames(t, filtered)
			if len(l.Frames) != want {
				t.Fatalf("%d frames scored, FFmpeg's filter made %d", len(l.Frames), want)
			}
			for _, f := range l.Frames {
				if f.Metrics["psnr_y"] < 60 {
					t.Errorf("frame %d differs from FFmpeg's (psnr_y %f)", f.FrameNum, f.Metrics["psnr_y"])
				}
			}
		})
	}
}

// ffmpegFrames counts a y4m file's frames.
func ffmpegFrames(t *testing.T, path string) int {
	t.Helper()
	src, err := (&settings{}).openInput(path, false, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer src.close()
	n := 0
	for {
		f, err := src.next()
		if err != nil {
			return n
		}
		f.release()
		n++
	}
}

// A 30 fps (or 12 fps) encode of a 24 fps source: paired in order the
// scores collapse, and the run says why; --fps 24 scores what FFmpeg's
// fps=24 filter and then the scorer give.
func TestFrameRateMismatch(t *testing.T) {
	ref := goldenY4M(t, "flower_576x324_ref.y4m")
	for _, rate := range []string{"30", "12"} {
		t.Run(rate, func(t *testing.T) {
			enc := encode(t, ref, "flower_"+rate+"fps.mp4", "-vf", "fps="+rate, "-c:v", "libx264", "-crf", "23")
			filtered := ffmpeg(t, "flower_"+rate+"fps_to24.y4m", "-i", enc, "-vf", "fps=24")

			dir := t.TempDir()
			plain := vmafScore(t, "-r", ref, "-d", enc, "--json", "-o", filepath.Join(dir, "plain.json"))
			if plain.code != 0 || !strings.Contains(plain.stderr, "warning: frame rates differ (reference 24 fps, distorted "+rate+" fps)") ||
				!strings.Contains(plain.stderr, "--fps 24") {
				t.Fatalf("without --fps: exit %d, stderr %q", plain.code, plain.stderr)
			}
			if w := readWarnings(t, filepath.Join(dir, "plain.json")); len(w) != 1 || !strings.Contains(w[0], "frame rates differ") {
				t.Errorf("results warnings %q", w)
			}
			pts := vmafScore(t, "-q", "-r", ref, "-d", enc, "--align", "pts")
			if !strings.Contains(pts.stderr, "--align pts pairs frames shown at the same time and drops") {
				t.Errorf("--align pts: stderr %q", pts.stderr)
			}

			conformed := vmafScore(t, "-r", ref, "-d", enc, "--fps", "24", "--json", "-o", filepath.Join(dir, "fps.json"))
			if conformed.code != 0 || strings.Contains(conformed.stderr, "warning") {
				t.Fatalf("--fps 24: exit %d, stderr %q", conformed.code, conformed.stderr)
			}
			if !strings.Contains(conformed.stderr, "--fps 24: distorted: ") || !strings.Contains(conformed.stderr, " in, 48 out (") {
				t.Errorf("--fps 24: no summary of the conversion in %q", conformed.stderr)
			}
			viaFFmpeg := vmafScore(t, "-r", ref, "-d", filtered, "--json", "-o", filepath.Join(dir, "ffmpeg.json"))
			if viaFFmpeg.code != 0 {
				t.Fatalf("FFmpeg's output: exit %d: %s", viaFFmpeg.code, viaFFmpeg.stderr)
			}
			got, want := readLog(t, filepath.Join(dir, "fps.json")), readLog(t, filepath.Join(dir, "ffmpeg.json"))
			if len(got.Frames) != len(want.Frames) {
				t.Fatalf("%d frames, FFmpeg's filter then the scorer %d", len(got.Frames), len(want.Frames))
			}
			compareFrames(t, got, want, 0, 0, nil)
			g, w := got.Pooled["vmaf"]["mean"], want.Pooled["vmaf"]["mean"]
			if g != w || g < 2*readLog(t, filepath.Join(dir, "plain.json")).Pooled["vmaf"]["mean"] {
				t.Errorf("--fps 24 mean %f, FFmpeg's fps=24 then scored %f", g, w)
			}
		})
	}
}

func readWarnings(t *testing.T, path string) []string {
	t.Helper()
	var doc struct {
		Warnings []string `json:"warnings"`
	}
	readJSON(t, path, &doc)
	return doc.Warnings
}

func TestRateWarningWording(t *testing.T) {
	if w := rateWarning(24, 24, ""); w != "" {
		t.Errorf("equal rates warned: %q", w)
	}
	if w := rateWarning(0, 30, ""); w != "" {
		t.Errorf("unknown rate warned: %q", w)
	}
	if w := rateWarning(24000.0/1001, 30, ""); !strings.Contains(w, "--fps 24000/1001") {
		t.Errorf("NTSC rate suggested as %q", w)
	}
	if math.Abs(frameRate{24000, 1001}.float()-23.976) > 1e-3 {
		t.Error("rate float")
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
