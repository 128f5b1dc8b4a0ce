package pipelines

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// upstreamRun scores the short flower pair with the given element
// properties and returns the run and its results file's frames.
func upstreamRun(t *testing.T, props string) (*gsttest.Run, []gsttest.ResultFrame) {
	t.Helper()
	ref := gsttest.Clip(t, "flower_321x179_ref")
	dist := gsttest.Clip(t, "flower_321x179_x264_crf30")
	out := filepath.Join(t.TempDir(), "scores.json")
	run := gsttest.Launch(t, 2*time.Minute,
		"filesrc location="+ref+" ! decodebin ! videoconvert ! vmaf.ref_sink "+
			"filesrc location="+dist+" ! decodebin ! videoconvert ! vmaf.dist_sink "+
			"vmafsink name=vmaf results-filename="+out+" "+props)
	run.MustSucceed(t)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(data) {
		t.Fatalf("results-filename ending in .json without results-format is not JSON:\n%.200s", data)
	}
	return run, gsttest.ReadResults(t, out, "json")
}

// TestElementUpstreamNames: a pipeline written for GStreamer's vmaf
// element runs with only the factory name changed: its properties, the
// harmonic_mean nick, a results format chosen by the file's extension and
// frame messages with the index as a gint.
func TestElementUpstreamNames(t *testing.T) {
	run, frames := upstreamRun(t, "frame-message=true psnr=true ssim=true ms-ssim=true pool-method=harmonic_mean "+
		"model-filename=vmaf_v0.6.1 phone-model=true")
	if len(frames) != 8 {
		t.Fatalf("%d frames in the results file, want 8", len(frames))
	}
	if !strings.Contains(run.Output, "index=(int)0,") {
		t.Errorf("frame messages do not carry the index as a gint:\n%.600s", run.Output)
	}
	for _, f := range []string{"psnr-y=", "ssim=", "ms-ssim=", "timestamp=", "stream-time=", "running-time=", "duration="} {
		if !strings.Contains(run.Output, f) {
			t.Errorf("frame messages lack %s", f)
		}
	}
	if p := run.Pooled(t); p.Fields["pool-method"] != "harmonic_mean" {
		t.Errorf("pooled message's pool-method: %q", p.Fields["pool-method"])
	}
	// phone-model is the model's score transform, as the spec option.
	_, spec := upstreamRun(t, "model=version=vmaf_v0.6.1:enable_transform=true")
	_, plain := upstreamRun(t, "")
	for i := range frames {
		if frames[i].Metrics["vmaf"] != spec[i].Metrics["vmaf"] {
			t.Errorf("frame %d: phone-model %v, enable_transform %v", i, frames[i].Metrics["vmaf"], spec[i].Metrics["vmaf"])
		}
		if frames[i].Metrics["vmaf"] <= plain[i].Metrics["vmaf"] {
			t.Errorf("frame %d: phone-model %v not above the untransformed %v", i, frames[i].Metrics["vmaf"], plain[i].Metrics["vmaf"])
		}
	}
}

// TestElementConfInterval: conf-interval asks for a bootstrap model and
// says so at start; with one, each frame carries the interval.
func TestElementConfInterval(t *testing.T) {
	ref := gsttest.Clip(t, "flower_321x179_ref")
	dist := gsttest.Clip(t, "flower_321x179_x264_crf30")
	bad := gsttest.Launch(t, time.Minute,
		"filesrc location="+ref+" ! decodebin ! videoconvert ! v.ref_sink "+
			"filesrc location="+dist+" ! decodebin ! videoconvert ! v.dist_sink vmafsink name=v conf-interval=true")
	if bad.Err == nil || !strings.Contains(bad.Output, "conf-interval needs a bootstrap model") {
		t.Errorf("conf-interval with vmaf_v0.6.1: err %v\n%s", bad.Err, bad.Output)
	}
	_, frames := upstreamRun(t, "conf-interval=true model=vmaf_b_v0.6.3")
	for _, k := range []string{"vmaf_ci_p95_lo", "vmaf_ci_p95_hi"} {
		if _, ok := frames[0].Metrics[k]; !ok {
			t.Errorf("frame 0 lacks %s: %v", k, frames[0].Metrics)
		}
	}
}

// TestElementUpstreamDocExample runs the example of GStreamer's vmaf
// element's documentation with only the factory name replaced (by
// vmafpass, which has the src pad the example links to a video sink):
// two raw 1080p files, a frame message per frame, a JSON results file.
// The example's autovideosink needs a display: on a headless machine it
// picks DirectFB's sink, which crashes, so the test shows the reference
// to a fakesink instead.
func TestElementUpstreamDocExample(t *testing.T) {
	dir := t.TempDir()
	for i, extra := range []string{"", "! videobalance saturation=0.5 "} {
		gsttest.LaunchQuiet(t, time.Minute, "videotestsrc num-buffers=10 ! video/x-raw,format=I420,width=1920,height=1080 "+
			extra+"! filesink location="+filepath.Join(dir, []string{"test1.yuv", "test2.yuv"}[i])).MustSucceed(t)
	}
	// The example's words, with the files in the test's directory.
	example := "filesrc location=test1.yuv ! rawvideoparse width=1920 height=1080 ! v.ref_sink " +
		"filesrc location=test2.yuv ! rawvideoparse width=1920 height=1080 ! v.dist_sink " +
		"vmafpass name=v frame-message=true results-filename=scores.json psnr=true ssim=true ms-ssim=true ! fakesink"
	for _, f := range []string{"test1.yuv", "test2.yuv", "scores.json"} {
		example = strings.ReplaceAll(example, "="+f, "="+filepath.Join(dir, f))
	}
	run := gsttest.Launch(t, 2*time.Minute, example)
	run.MustSucceed(t)
	if n := len(run.Frames()); n != 10 {
		t.Errorf("%d frame messages, want 10", n)
	}
	p := run.Pooled(t)
	for _, f := range []string{"score", "psnr-y", "ssim", "ms-ssim", "timestamp", "duration"} {
		if _, ok := p.Fields[f]; !ok {
			t.Errorf("pooled message lacks %s", f)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "scores.json"))
	if err != nil || !json.Valid(data) {
		t.Fatalf("scores.json: %v\n%.200s", err, data)
	}
}
