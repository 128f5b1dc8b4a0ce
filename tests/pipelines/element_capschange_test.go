package pipelines

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// capsBranch is a test pattern of n frames at one size; the distorted
// one draws the ball in another colour, so the scores are not all 100.
func capsBranch(dist bool, n, w, h int) string {
	fg := ""
	if dist {
		fg = " foreground-color=0xffc0c0c0"
	}
	return fmt.Sprintf("videotestsrc num-buffers=%d pattern=ball%s ! video/x-raw,format=I420,width=%d,height=%d,framerate=30/1", n, fg, w, h)
}

// TestElementCapsChange plays, on both pads, 10 frames of 160x120 then 8
// of 176x144 through concat: the new resolution starts a new scorer at
// frame 10 and nothing scored before is lost. Every frame's score equals
// that of a run over its part alone (so motion starts afresh at the
// boundary), the indices run on, and the pooled message and the results
// file cover all 18 frames.
func TestElementCapsChange(t *testing.T) {
	const n1, n2 = 10, 8
	results := filepath.Join(t.TempDir(), "scores.json")
	run := gsttest.Launch(t, 2*time.Minute, fmt.Sprintf(
		"concat name=cr ! v.ref_sink concat name=cd ! v.dist_sink "+
			"%s ! cr. %s ! cr. %s ! cd. %s ! cd. "+
			"vmafsink name=v threads=2 results-filename=%s results-format=json",
		capsBranch(false, n1, 160, 120), capsBranch(false, n2, 176, 144),
		capsBranch(true, n1, 160, 120), capsBranch(true, n2, 176, 144), results))
	run.MustSucceed(t)

	part := func(n, w, h int) []gsttest.Message {
		r := gsttest.Launch(t, 2*time.Minute, fmt.Sprintf("%s ! v.ref_sink %s ! v.dist_sink vmafsink name=v threads=2",
			capsBranch(false, n, w, h), capsBranch(true, n, w, h)))
		r.MustSucceed(t)
		return r.Frames()
	}
	want := append(part(n1, 160, 120), part(n2, 176, 144)...)
	got := run.Frames()
	if len(got) != n1+n2 || len(want) != n1+n2 {
		t.Fatalf("%d frame messages, parts alone %d, want %d:\n%s", len(got), len(want), n1+n2, run.Output)
	}
	sum := 0.0
	for i, m := range got {
		if idx := m.Uint(t, "index"); idx != uint64(i) {
			t.Errorf("message %d has index %d", i, idx)
		}
		s, w := m.Float(t, "vmaf"), want[i].Float(t, "vmaf")
		if s != w {
			t.Errorf("frame %d: vmaf %v, alone %v", i, s, w)
		}
		if s == 100 {
			t.Errorf("frame %d: vmaf 100, the pads must differ", i)
		}
		sum += s
	}
	p := run.Pooled(t)
	if got := p.Uint(t, "frames-scored"); got != n1+n2 {
		t.Errorf("pooled frames-scored %d, want %d", got, n1+n2)
	}
	if mean := p.Float(t, "vmaf-mean"); math.Abs(mean-sum/(n1+n2)) > 1e-9 {
		t.Errorf("pooled vmaf-mean %v, mean of the frame messages %v", mean, sum/(n1+n2))
	}

	frames := gsttest.ReadResults(t, results, "json")
	if len(frames) != n1+n2 {
		t.Fatalf("results file has %d frames, want %d", len(frames), n1+n2)
	}
	for i, f := range frames {
		if f.Num != i || math.Abs(f.Metrics["vmaf"]-got[i].Float(t, "vmaf")) > 1e-6 {
			t.Errorf("results frame %d: num %d vmaf %v, message says %v", i, f.Num, f.Metrics["vmaf"], got[i].Float(t, "vmaf"))
		}
	}
}
