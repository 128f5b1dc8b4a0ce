package pipelines

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// TestElementFlushingSeek plays the flower pair (48 frames, raw files)
// and seeks the pipeline back to the start after 20 frame messages. The
// seek must reach both branches and reset pairing: every frame after it
// is paired with its own partner (its VIF and ADM equal a plain run's for
// the same timestamp), none is left unpaired, all 48 are scored again,
// and indices, counters and pooled statistics carry on across the seek.
func TestElementFlushingSeek(t *testing.T) {
	const clipFrames = 48
	ref := gsttest.RawSource(t, gsttest.Clip(t, "flower_576x324_ref"))
	dist := gsttest.RawSource(t, gsttest.Clip(t, "flower_576x324_x264_crf22"))
	desc := fmt.Sprintf("%s ! v.ref_sink %s ! v.dist_sink vmafsink name=v threads=2", ref, dist)

	plain := gsttest.Launch(t, 2*time.Minute, desc)
	plain.MustSucceed(t)
	want := plain.Frames()
	if len(want) != clipFrames {
		t.Fatalf("plain run: %d frames, want %d", len(want), clipFrames)
	}

	run := gsttest.SeekRun(t, 2*time.Minute, 20, desc)
	if run.Err != nil {
		t.Fatalf("seekrun: %v\n%s", run.Err, run.Output)
	}
	frames := run.Frames()
	restart := -1
	sum := 0.0
	for i, m := range frames {
		if idx := m.Uint(t, "index"); idx != uint64(i) {
			t.Fatalf("message %d has index %d", i, idx)
		}
		sum += m.Float(t, "vmaf")
		if i > 0 && m.Uint(t, "timestamp") < frames[i-1].Uint(t, "timestamp") {
			if restart >= 0 {
				t.Fatalf("timestamps went back twice, at %d and %d", restart, i)
			}
			restart = i
		}
	}
	if restart < 20 {
		t.Fatalf("no restart after the seek at 20 frames (restart %d):\n%s", restart, run.Output)
	}
	after := frames[restart:]
	if len(after) != clipFrames {
		t.Errorf("%d frames after the seek, want %d", len(after), clipFrames)
	}
	for i, m := range after {
		if i >= len(want) {
			break
		}
		ts, w := m.Uint(t, "timestamp"), want[i]
		if wt := w.Uint(t, "timestamp"); ts != wt {
			t.Errorf("frame %d after the seek has timestamp %d, want %d", i, ts, wt)
			continue
		}
		// A seek starts a new stream: motion too is the plain run's.
		for _, k := range []string{"integer_vif_scale0", "integer_adm2", "integer_motion2", "vmaf"} {
			if got, want := m.Float(t, k), w.Float(t, k); got != want {
				t.Errorf("frame at %d ns after the seek: %s %v, plain run %v", ts, k, got, want)
			}
		}
	}
	p := run.Pooled(t)
	for k, want := range map[string]uint64{
		"frames-scored": uint64(len(frames)), "frames-paired": uint64(len(frames)),
		"frames-unpaired-ref": 0, "frames-unpaired-dist": 0,
	} {
		if got := p.Uint(t, k); got != want {
			t.Errorf("pooled %s = %d, want %d", k, got, want)
		}
	}
	if mean := p.Float(t, "vmaf-mean"); math.Abs(mean-sum/float64(len(frames))) > 1e-9 {
		t.Errorf("pooled vmaf-mean %v, mean of all frame messages %v", mean, sum/float64(len(frames)))
	}
}
