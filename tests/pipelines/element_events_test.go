package pipelines

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

const testSrcCaps = "video/x-raw,format=I420,width=160,height=120,framerate=30/1"

// TestElementOnePadEOS: the reference ends after 10 frames, the distorted
// stream would go on to 25. The run ends, 10 frames are scored, and the
// distorted frames that arrive after the reference's EOS are counted as
// unpaired and refused with EOS, so that its source stops early.
func TestElementOnePadEOS(t *testing.T) {
	for _, pairing := range []string{"timestamp", "order"} {
		t.Run(pairing, func(t *testing.T) {
			run := gsttest.Launch(t, 2*time.Minute, fmt.Sprintf(
				"videotestsrc num-buffers=10 ! %s ! v.ref_sink "+
					"videotestsrc num-buffers=25 pattern=snow ! %s ! v.dist_sink "+
					"vmafsink name=v threads=1 pairing=%s", testSrcCaps, testSrcCaps, pairing))
			run.MustSucceed(t)
			p := run.Pooled(t)
			want := map[string]uint64{"frames-received-ref": 10, "frames-scored": 10, "frames-unpaired-ref": 0}
			for k, v := range want {
				if got := p.Uint(t, k); got != v {
					t.Errorf("%s = %d, want %d", k, got, v)
				}
			}
			// The distorted source learns of the end with its first frame
			// past the last pair; the frames already on their way count too.
			recv, unpaired := p.Uint(t, "frames-received-dist"), p.Uint(t, "frames-unpaired-dist")
			if recv < 11 || recv >= 25 {
				t.Errorf("frames-received-dist = %d, want 11..24 (the source stopped early)", recv)
			}
			if unpaired != recv-10 {
				t.Errorf("frames-unpaired-dist = %d, want %d (received %d, 10 paired)", unpaired, recv-10, recv)
			}
			if n := len(run.Frames()); n != 10 {
				t.Errorf("%d frame messages, want 10", n)
			}
		})
	}
}

// TestElementCapsMismatch: the pads get different sizes; the element
// posts an error naming both caps and gst-launch exits with it.
func TestElementCapsMismatch(t *testing.T) {
	run := gsttest.Launch(t, 2*time.Minute,
		"videotestsrc num-buffers=5 ! video/x-raw,format=I420,width=160,height=120 ! v.ref_sink "+
			"videotestsrc num-buffers=5 ! video/x-raw,format=I420,width=176,height=144 ! v.dist_sink "+
			"vmafsink name=v")
	if run.Err == nil {
		t.Fatalf("gst-launch succeeded with mismatched caps:\n%s", run.Output)
	}
	// gst-launch writes messages to stdout and errors to stderr, which
	// arrive interleaved: the error may start in the middle of a line.
	var line string
	const from = "ERROR: from element /GstPipeline:pipeline0/GstVmafSink:v:"
	if i := strings.Index(run.Output, from); i >= 0 {
		line, _, _ = strings.Cut(run.Output[i:], "\n")
	}
	// The headline names the formats; the details carry both pads' caps.
	if line == "" {
		t.Fatalf("no error line from the element:\n%s", run.Output)
	}
	for _, want := range []string{"frame 0 is", "160x120 I420", "176x144 I420"} {
		if !strings.Contains(line, want) {
			t.Errorf("element error %q does not contain %q", line, want)
		}
	}
	for _, want := range []string{"ref_sink caps video/x-raw", "width=(int)160", "dist_sink caps video/x-raw", "width=(int)176"} {
		if !strings.Contains(run.Output, want) {
			t.Errorf("element error details do not contain %q", want)
		}
	}
	if strings.Contains(run.Output, "panic") || strings.Contains(run.Output, "SIGSEGV") {
		t.Errorf("crash output:\n%s", run.Output)
	}
}

// TestElementFormatMismatch: same size, different sample formats (8-bit
// against 10-bit) is a mismatch too.
func TestElementFormatMismatch(t *testing.T) {
	run := gsttest.Launch(t, 2*time.Minute,
		"videotestsrc num-buffers=5 ! video/x-raw,format=I420,width=160,height=120 ! v.ref_sink "+
			"videotestsrc num-buffers=5 ! video/x-raw,format=I420_10LE,width=160,height=120 ! v.dist_sink "+
			"vmafsink name=v")
	if run.Err == nil || !strings.Contains(run.Output, "I420_10LE") || !strings.Contains(run.Output, "must have the same width, height and format") {
		t.Fatalf("want an element error naming both formats, got err %v:\n%s", run.Err, run.Output)
	}
}

// TestElementFormats: every format in the pad template is accepted and
// scored.
func TestElementFormats(t *testing.T) {
	formats := []string{"I420", "Y42B", "Y444", "GRAY8", "I420_10LE", "I422_10LE", "Y444_10LE", "I420_12LE", "I422_12LE", "Y444_12LE"}
	if testing.Short() {
		formats = []string{"Y444", "I420_10LE"}
	}
	for _, f := range formats {
		t.Run(f, func(t *testing.T) {
			caps := fmt.Sprintf("video/x-raw,format=%s,width=96,height=64,framerate=30/1", f)
			run := gsttest.Launch(t, 2*time.Minute, fmt.Sprintf(
				"videotestsrc num-buffers=3 pattern=smpte ! %s ! v.ref_sink "+
					"videotestsrc num-buffers=3 pattern=smpte horizontal-speed=4 ! %s ! v.dist_sink vmafsink name=v threads=1",
				caps, caps))
			run.MustSucceed(t)
			frames := run.Frames()
			if len(frames) != 3 {
				t.Fatalf("%d frames scored, want 3", len(frames))
			}
			for i, m := range frames {
				if s := m.Float(t, "score"); s <= 0 || s > 100 {
					t.Errorf("frame %d score %v out of range", i, s)
				}
			}
		})
	}
}
