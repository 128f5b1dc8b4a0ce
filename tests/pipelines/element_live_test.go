package pipelines

import (
	"fmt"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// liveEncode is the monitoring pipeline of examples/gst-launch: one live
// source, a tee, the raw branch as reference and an x264enc (default
// latency) → avdec_h264 branch as distorted.
func liveEncode(frames int, props string) string {
	return fmt.Sprintf("videotestsrc is-live=true num-buffers=%d pattern=ball ! "+
		"video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! tee name=t "+
		"t. ! queue ! v.ref_sink "+
		"t. ! queue ! x264enc ! avdec_h264 ! v.dist_sink "+
		"vmafsink name=v threads=2 %s", frames, props)
}

// TestElementLiveEncodePairing: the encoder branch lags the raw branch by
// its latency; every frame still pairs with its own reference frame, the
// tee never deadlocks and the pending queue stays bounded.
func TestElementLiveEncodePairing(t *testing.T) {
	const n = 90
	run := gsttest.Launch(t, 3*time.Minute, liveEncode(n, ""))
	run.MustSucceed(t)
	p := run.Pooled(t)
	// A live source is never held at the lead limit: no lead release.
	for k, v := range map[string]uint64{"frames-scored": n, "frames-unpaired-ref": 0, "frames-unpaired-dist": 0, "frames-dropped": 0, "lead-releases": 0} {
		if got := p.Uint(t, k); got != v {
			t.Errorf("%s = %d, want %d", k, got, v)
		}
	}
	// Pairing by running time matched each decoded frame with its source
	// frame: a frame compared with its own encode scores high; paired
	// with a neighbour (the ball moves) it would not.
	frames := run.Frames()
	for i, m := range frames {
		// A live source starts at the clock's time when it starts playing.
		rt := time.Duration(m.Uint(t, "running-time") - frames[0].Uint(t, "running-time"))
		if (rt - time.Duration(i)*time.Second/30).Abs() > time.Millisecond {
			t.Errorf("frame %d at %v after the first", i, rt)
		}
		if s := m.Float(t, "score"); s < 80 {
			t.Errorf("frame %d scored %.2f: paired with the wrong reference frame?", i, s)
		}
	}
}

// TestElementLiveEncodeSmallQueue: with a pending queue smaller than the
// encoder's latency the element cannot pair everything, but it must not
// deadlock the tee: it drops the oldest waiting reference frames and
// counts them.
func TestElementLiveEncodeSmallQueue(t *testing.T) {
	const n = 90
	run := gsttest.Launch(t, 3*time.Minute, liveEncode(n, "max-pending=4"))
	run.MustSucceed(t)
	p := run.Pooled(t)
	if p.Uint(t, "frames-unpaired-ref") == 0 {
		t.Errorf("no reference frame reported unpaired with max-pending=4")
	}
	if got := p.Uint(t, "frames-received-ref"); got != n {
		t.Errorf("received %d reference frames, want %d", got, n)
	}
	if a, b := p.Uint(t, "frames-paired"), p.Uint(t, "frames-unpaired-ref"); a+b != n {
		t.Errorf("paired %d + unpaired %d reference frames != %d", a, b, n)
	}
}

// TestElementGCPressure runs a scoring pipeline with GOGC=1, so the Go
// collector runs constantly while buffers cross the cgo boundary: buffers
// must be neither freed twice nor leaked.
func TestElementGCPressure(t *testing.T) {
	const n = 60
	run := gsttest.Launch(t, 5*time.Minute, liveEncode(n, ""), "GOGC=1")
	run.MustSucceed(t)
	if got := run.Pooled(t).Uint(t, "frames-scored"); got != n {
		t.Errorf("scored %d frames under GOGC=1, want %d", got, n)
	}
}

// TestElementStridedFrames: at 180x100, avdec_h264 hands out frames with
// FFmpeg's padded line sizes, described by GstVideoMeta (the element
// accepts it in the allocation query), while the raw branch has
// GStreamer's default strides. Reading either with the wrong stride would
// wreck the scores.
func TestElementStridedFrames(t *testing.T) {
	const n = 30
	run := gsttest.Launch(t, 3*time.Minute, fmt.Sprintf("videotestsrc num-buffers=%d pattern=ball ! "+
		"video/x-raw,format=I420,width=180,height=100,framerate=30/1 ! tee name=t "+
		"t. ! queue ! v.ref_sink t. ! queue ! x264enc ! avdec_h264 ! v.dist_sink "+
		"vmafsink name=v threads=1", n))
	run.MustSucceed(t)
	frames := run.Frames()
	if len(frames) != n {
		t.Fatalf("%d frames scored, want %d", len(frames), n)
	}
	for i, m := range frames {
		if s := m.Float(t, "score"); s < 80 {
			t.Errorf("frame %d scored %.2f: planes read with the wrong stride?", i, s)
		}
	}
}
