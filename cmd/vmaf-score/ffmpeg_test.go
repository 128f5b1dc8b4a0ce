package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scoreJSON runs vmaf-score with --json into a temporary file and returns
// the log, failing the test on a non-zero exit.
func scoreJSON(t *testing.T, args ...string) (*scoreLog, cliResult) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out.json")
	res := vmafScore(t, append([]string{"--json", "-o", out, "--feature", "psnr"}, args...)...)
	if res.code != 0 {
		t.Fatalf("vmaf-score %s: exit %d: %s", strings.Join(args, " "), res.code, res.stderr)
	}
	return readLog(t, out), res
}

// sameScores requires two logs to hold the same frames with identical
// metric values.
func sameScores(t *testing.T, got, want *scoreLog) {
	t.Helper()
	if len(got.Frames) != len(want.Frames) {
		t.Fatalf("%d frames, want %d", len(got.Frames), len(want.Frames))
	}
	for i := range want.Frames {
		g, w := got.Frames[i], want.Frames[i]
		if g.FrameNum != w.FrameNum || len(g.Metrics) != len(w.Metrics) {
			t.Fatalf("frame %d: number %d/%d, %d/%d metrics", i, g.FrameNum, w.FrameNum, len(g.Metrics), len(w.Metrics))
		}
		for name, v := range w.Metrics {
			if g.Metrics[name] != v {
				t.Errorf("frame %d %s: %v, want %v", i, name, g.Metrics[name], v)
			}
		}
	}
}

// A lossless FFmpeg encode scores exactly as the y4m clips do, for each
// layout and depth the goldens carry.
func TestFFmpegLosslessMatchesY4M(t *testing.T) {
	pairs := [][2]string{
		{smallRef, smallDist},
		{"storm422p10_177x177_ref.y4m", "storm422p10_177x177_x264_crf30.y4m"},
		{"storm420p12_177x177_ref.y4m", "storm420p12_177x177_x265_crf28.y4m"},
	}
	for _, p := range pairs {
		t.Run(p[1], func(t *testing.T) {
			ref, dist := goldenY4M(t, p[0]), goldenY4M(t, p[1])
			refMKV := encode(t, ref, strings.TrimSuffix(p[0], ".y4m")+".ffv1.mkv", "-c:v", "ffv1")
			distNUT := encode(t, dist, strings.TrimSuffix(p[1], ".y4m")+".ffv1.nut", "-c:v", "ffv1")
			want, _ := scoreJSON(t, "-r", ref, "-d", dist)
			got, _ := scoreJSON(t, "-r", refMKV, "-d", distNUT)
			sameScores(t, got, want)
		})
	}
}

// A lossy encode decoded by vmaf-score scores exactly as the same encode
// decoded to y4m by the ffmpeg tool.
func TestFFmpegDecodeMatchesDecodedY4M(t *testing.T) {
	// x264 needs even sizes for 4:2:0.
	ref := goldenY4M(t, "flower_576x324_ref.y4m")
	encoded := encode(t, ref, "x264.mp4", "-frames:v", "12", "-c:v", "libx264", "-crf", "35", "-preset", "veryfast")
	decoded := encode(t, encoded, "x264.decoded.y4m", "-f", "yuv4mpegpipe", "-strict", "-1")
	want, _ := scoreJSON(t, "-r", ref, "-d", decoded)
	got, _ := scoreJSON(t, "-r", ref, "-d", encoded)
	sameScores(t, got, want)
	if got.Pooled["vmaf"]["mean"] > 99 {
		t.Errorf("a CRF 35 encode scored %f", got.Pooled["vmaf"]["mean"])
	}
}

func TestScaleDist(t *testing.T) {
	ref := goldenY4M(t, smallRef)
	half := encode(t, goldenY4M(t, smallDist), "half.mkv", "-vf", "scale=160:90", "-c:v", "ffv1")
	res := vmafScore(t, "-r", ref, "-d", half)
	if res.code != exitError || !strings.Contains(res.stderr, "dimensions do not match: reference 321x179, distorted 160x90") {
		t.Errorf("unscaled: exit %d, %q", res.code, res.stderr)
	}
	for _, algo := range []string{"bicubic", "lanczos"} {
		got, _ := scoreJSON(t, "-r", ref, "-d", half, "--scale-dist", algo)
		if len(got.Frames) != 8 || got.Pooled["vmaf"]["mean"] > 90 || got.Pooled["vmaf"]["mean"] < 10 {
			t.Errorf("%s: %d frames, vmaf %f", algo, len(got.Frames), got.Pooled["vmaf"]["mean"])
		}
	}
}

// With a frame missing from the distorted encode, timestamp alignment
// skips its reference frame and scores the rest against the right frames;
// order alignment would pair them one off.
func TestAlignByTimestamp(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	dropped := encode(t, dist, "dropped3.mkv", "-vf", `select=not(eq(n\,3))`, "-fps_mode", "passthrough", "-c:v", "ffv1")
	full, _ := scoreJSON(t, "-r", ref, "-d", dist)

	got, res := scoreJSON(t, "-r", ref, "-d", dropped, "--align", "pts")
	if len(got.Frames) != 7 {
		t.Fatalf("%d frames, want 7", len(got.Frames))
	}
	if !strings.Contains(res.stderr, "1 reference and 0 distorted frame(s) had no partner by timestamp") {
		t.Errorf("stderr %q", res.stderr)
	}
	for i, f := range got.Frames {
		src := i
		if i >= 3 {
			src++
		}
		for _, name := range []string{"psnr_y", "integer_adm2", "integer_vif_scale0"} {
			if f.Metrics[name] != full.Frames[src].Metrics[name] {
				t.Errorf("frame %d %s: %f, want frame %d's %f", i, name, f.Metrics[name], src, full.Frames[src].Metrics[name])
			}
		}
	}

	byOrder, res := scoreJSON(t, "-r", ref, "-d", dropped)
	if len(byOrder.Frames) != 7 || !strings.Contains(res.stderr, "ended before") || !strings.Contains(res.stderr, "(1 reference frame left)") {
		t.Errorf("order: %d frames, stderr %q", len(byOrder.Frames), res.stderr)
	}
	if byOrder.Frames[3].Metrics["psnr_y"] == full.Frames[3].Metrics["psnr_y"] {
		t.Error("order alignment scored frame 3 against its own distorted frame, which was dropped")
	}
}

func TestFFmpegErrors(t *testing.T) {
	dir := t.TempDir()
	ref := goldenY4M(t, smallRef)
	junk := filepath.Join(dir, "junk.mkv")
	os.WriteFile(junk, bytes.Repeat([]byte("junk "), 2000), 0o644)
	tone := ffmpeg(t, "tone.wav", "-f", "lavfi", "-i", "sine=duration=0.5")
	tests := []struct {
		name, dist, want string
	}{
		{"missing", filepath.Join(dir, "none.mp4"), "distorted " + filepath.Join(dir, "none.mp4") + ": cannot open: No such file or directory"},
		{"not a video", junk, "distorted " + junk + ": cannot open: Invalid data found when processing input"},
		{"no video stream", tone, "distorted " + tone + ": no video stream"},
		{"no second video stream", goldenY4M(t, smallDist) + " --dist-stream 1", "no video stream #1 (found 1)"},
	}
	for _, tc := range tests {
		res := vmafScore(t, append([]string{"-r", ref, "--ffmpeg", "-d"}, strings.Fields(tc.dist)...)...)
		msg := strings.TrimSuffix(res.stderr, "\n")
		if res.code != exitError || strings.Contains(msg, "\n") || !strings.Contains(msg, tc.want) {
			t.Errorf("%s: exit %d, stderr %q, want one line containing %q", tc.name, res.code, res.stderr, tc.want)
		}
	}
}

// A stream that breaks part-way ends the run with an error, and the
// output holds the frames scored before the break, on both input paths.
func TestCorruptStream(t *testing.T) {
	ref := goldenY4M(t, smallRef)
	data, err := os.ReadFile(goldenY4M(t, smallDist))
	if err != nil {
		t.Fatal(err)
	}
	// Break the sixth frame's marker.
	at := 0
	for i := 0; i < 6; i++ {
		at += bytes.Index(data[at:], []byte("FRAME")) + 1
	}
	copy(data[at-1:], "FRAMX")
	broken := filepath.Join(t.TempDir(), "broken.y4m")
	os.WriteFile(broken, data, 0o644)
	for _, extra := range [][]string{nil, {"--ffmpeg"}} {
		out := filepath.Join(t.TempDir(), "out.json")
		res := vmafScore(t, append([]string{"-r", ref, "-d", broken, "--json", "-o", out}, extra...)...)
		if res.code != exitError || !strings.Contains(res.stderr, "frame 5") || !strings.Contains(res.stderr, "the output holds the 5 frames scored before") {
			t.Errorf("%v: exit %d, stderr %q", extra, res.code, res.stderr)
		}
		if l := readLog(t, out); len(l.Frames) != 5 {
			t.Errorf("%v: output has %d frames, want 5", extra, len(l.Frames))
		}
	}
}
