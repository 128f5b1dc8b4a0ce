package pipelines

import (
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// The codec-aware regressors (fr_regressor_v2/v3) in the element take
// the encoder from dist_sink's tags when their options name none: the
// scores must be vmaf-score's with the same encoder named in codec=, on
// the very same encoded file (never a second encode: x264 varies from
// run to run).

// codecEncodes encodes the flower reference once with FFmpeg's libx264
// into Matroska (whose track carries FFmpeg's encoder tag, "Lavc…
// libx264") and MP4 (whose demuxer gives only the video-codec tag,
// "H.264 / AVC").
func codecEncodes(t *testing.T) (ref, mkv, mp4 string) {
	t.Helper()
	ref = gsttest.Clip(t, "flower_576x324_ref")
	dir := t.TempDir()
	mkv, mp4 = filepath.Join(dir, "x264.mkv"), filepath.Join(dir, "x264.mp4")
	out, err := exec.Command("ffmpeg", "-v", "error", "-y", "-i", ref, "-c:v", "libx264", "-preset", "veryfast", "-crf", "30",
		"-threads", "2", mkv).CombinedOutput()
	if err != nil {
		t.Fatalf("ffmpeg: %v\n%s", err, out)
	}
	if out, err := exec.Command("ffmpeg", "-v", "error", "-y", "-i", mkv, "-c", "copy", mp4).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v\n%s", err, out)
	}
	return ref, mkv, mp4
}

// elementCodecScores plays ref against dist (decoded by decodebin, or
// the fragment distSrc) through vmafsink with model spec and returns
// each frame's score of key and gst-launch's output.
func elementCodecScores(t *testing.T, ref, distSrc, spec, key string) ([]float64, string) {
	t.Helper()
	run := gsttest.Launch(t, 5*time.Minute, fmt.Sprintf("%s ! v.ref_sink %s ! v.dist_sink vmafsink name=v threads=2 model=%s",
		gsttest.Source(ref), distSrc, spec))
	run.MustSucceed(t)
	var scores []float64
	for i, m := range run.Frames() {
		if idx := m.Uint(t, "index"); idx != uint64(i) {
			t.Fatalf("message %d has index %d", i, idx)
		}
		scores = append(scores, m.Float(t, key))
	}
	if len(scores) == 0 {
		t.Fatalf("no frame messages:\n%s", run.Output)
	}
	return scores, run.Output
}

// cliCodecScores is vmaf-score's per-frame score of key.
func cliCodecScores(t *testing.T, ref, dist, spec, key string) []float64 {
	t.Helper()
	bin, _ := ffSetup(t)
	out := filepath.Join(t.TempDir(), "scores.json")
	if b, err := exec.Command(bin, "-r", ref, "-d", dist, "-m", spec, "--json", "-o", out, "-q", "--threads", "2").CombinedOutput(); err != nil {
		t.Fatalf("vmaf-score -m %s: %v\n%s", spec, err, b)
	}
	var scores []float64
	for _, f := range ffReadFrames(t, out).Frames {
		v, ok := f.Metrics[key]
		if !ok {
			t.Fatalf("vmaf-score frame %d has no %s", f.FrameNum, key)
		}
		scores = append(scores, v)
	}
	return scores
}

// sameScores checks got against want frame by frame within 1e-6.
func sameScores(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d frames, vmaf-score %d", what, len(got), len(want))
	}
	for i := range got {
		if d := math.Abs(got[i] - want[i]); d > 1e-6 {
			t.Errorf("%s frame %d: %.6f, vmaf-score %.6f", what, i, got[i], want[i])
		}
	}
}

// apart reports whether two score lists differ somewhere by more than
// 1e-3: the encoder named must matter, or the equality above proves
// nothing.
func apart(a, b []float64) bool {
	for i := range min(len(a), len(b)) {
		if math.Abs(a[i]-b[i]) > 1e-3 {
			return true
		}
	}
	return false
}

func TestElementCodecFromTags(t *testing.T) {
	ref, mkv, mp4 := codecEncodes(t)
	tiny := tinyModels(t)
	v2, v3 := filepath.Join(tiny, "fr_regressor_v2.onnx"), filepath.Join(tiny, "fr_regressor_v3.onnx")
	decode := func(path string) string { return "filesrc location=" + path + " ! decodebin" }

	t.Run("encoder tag", func(t *testing.T) {
		got, out := elementCodecScores(t, ref, decode(mkv), "path="+v2, "fr_regressor_v2")
		if strings.Contains(out, "WARNING") {
			t.Errorf("a warning for a stream whose tags name libx264:\n%s", out)
		}
		want := cliCodecScores(t, ref, mkv, "path="+v2+":codec=libx264", "fr_regressor_v2")
		sameScores(t, "fr_regressor_v2 from the Matroska encoder tag", got, want)
		if unknown := cliCodecScores(t, ref, mkv, "path="+v2, "fr_regressor_v2"); !apart(want, unknown) {
			t.Fatal("libx264's block scores as the unknown encoder's: the comparison cannot fail")
		}
	})
	t.Run("video-codec tag", func(t *testing.T) {
		got, _ := elementCodecScores(t, ref, decode(mp4), "path="+v3+":preset=veryfast:crf=30", "fr_regressor_v3")
		want := cliCodecScores(t, ref, mp4, "path="+v3+":codec=libx264:preset=veryfast:crf=30", "fr_regressor_v3")
		sameScores(t, "fr_regressor_v3 from the MP4 video-codec tag", got, want)
	})
	t.Run("options win", func(t *testing.T) {
		got, _ := elementCodecScores(t, ref, decode(mkv), "path="+v2+":codec=libx265:crf=30", "fr_regressor_v2")
		want := cliCodecScores(t, ref, mkv, "path="+v2+":codec=libx265:crf=30", "fr_regressor_v2")
		sameScores(t, "fr_regressor_v2 with codec=libx265 on an x264 stream", got, want)
		if x264 := cliCodecScores(t, ref, mkv, "path="+v2+":codec=libx264:crf=30", "fr_regressor_v2"); !apart(want, x264) {
			t.Fatal("libx265's block scores as libx264's: the comparison cannot fail")
		}
	})
	t.Run("unknown encoder", func(t *testing.T) {
		dist := gsttest.Clip(t, "flower_576x324_x264_crf22")
		got, out := elementCodecScores(t, ref, gsttest.Source(dist)+" ! taginject tags=video-codec=AV1", "path="+v2, "fr_regressor_v2")
		if !strings.Contains(out, `video-codec "AV1"`) || !strings.Contains(out, `"unknown" encoder`) {
			t.Errorf("no warning naming the AV1 tag and the unknown slot:\n%s", out)
		}
		want := cliCodecScores(t, ref, dist, "path="+v2+":codec=unknown", "fr_regressor_v2")
		sameScores(t, "fr_regressor_v2 on an AV1-tagged stream", got, want)
	})
	t.Run("no encoder for a card without an unknown slot", func(t *testing.T) {
		dist := gsttest.Clip(t, "flower_576x324_x264_crf22")
		run := gsttest.Launch(t, 5*time.Minute, fmt.Sprintf("%s ! v.ref_sink %s ! taginject tags=video-codec=AV1 ! v.dist_sink vmafsink name=v threads=2 model=path=%s",
			gsttest.Source(ref), gsttest.Source(dist), v3))
		if run.Err == nil || len(run.Frames()) != 0 {
			t.Fatalf("fr_regressor_v3 scored a stream naming no encoder it knows (%d frames)", len(run.Frames()))
		}
		for _, want := range []string{`video-codec "AV1"`, "no frame can be scored", `no "unknown" slot`} {
			if !strings.Contains(run.Output, want) {
				t.Errorf("the output does not say %q:\n%s", want, run.Output)
			}
		}
	})
}

// TestElementCodecFromEncoder scores a live x264enc branch: x264enc
// tags its output "x264", and the same encoded stream, kept in a file
// beside the reference, scores in vmaf-score with codec=libx264 as the
// element scored it.
func TestElementCodecFromEncoder(t *testing.T) {
	dir := t.TempDir()
	ref, enc := filepath.Join(dir, "ref.y4m"), filepath.Join(dir, "x264.mkv")
	v2 := filepath.Join(tinyModels(t), "fr_regressor_v2.onnx")
	run := gsttest.Launch(t, 5*time.Minute, fmt.Sprintf("videotestsrc num-buffers=40 pattern=ball ! "+
		"video/x-raw,format=I420,width=320,height=240,framerate=25/1 ! tee name=t "+
		"t. ! queue ! v.ref_sink t. ! queue ! y4menc ! filesink location=%s "+
		"t. ! queue ! x264enc speed-preset=veryfast threads=1 ! tee name=e e. ! queue ! avdec_h264 ! v.dist_sink "+
		"e. ! queue ! h264parse ! matroskamux ! filesink location=%s "+
		"vmafsink name=v threads=2 model=path=%s", ref, enc, v2))
	run.MustSucceed(t)
	var got []float64
	for _, m := range run.Frames() {
		got = append(got, m.Float(t, "fr_regressor_v2"))
	}
	want := cliCodecScores(t, ref, enc, "path="+v2+":codec=libx264", "fr_regressor_v2")
	sameScores(t, "fr_regressor_v2 behind x264enc", got, want)
	if unknown := cliCodecScores(t, ref, enc, "path="+v2, "fr_regressor_v2"); !apart(want, unknown) {
		t.Fatal("libx264's block scores as the unknown encoder's: the comparison cannot fail")
	}
}
