package framerate

import (
	"testing"
	"time"
)

// shown is what FFmpeg's fps filter outputs for frames at pts (each
// lasting dur), stated directly: output frame t, from the first frame's
// tick to the end's, shows the latest frame whose tick is at most t.
func shown(r Rate, pts []time.Duration, dur time.Duration) []int {
	var out []int
	start := r.Tick(pts[0])
	end := r.Tick(pts[len(pts)-1] + dur)
	for t := start; t < end; t++ {
		latest := -1
		for i, p := range pts {
			if r.Tick(p) <= t {
				latest = i
			}
		}
		out = append(out, latest)
	}
	return out
}

// conformed is the same through a Conformer, as a host driving it
// frame by frame sees it.
func conformed(r Rate, pts []time.Duration, dur time.Duration) ([]int, *Conformer) {
	c := NewConformer(r)
	var out []int
	next := int64(-1)
	emit := func(frame, n int, first int64) {
		for k := range n {
			if next >= 0 && first+int64(k) != next {
				panic("output frames not contiguous")
			}
			next = first + int64(k) + 1
			out = append(out, frame)
		}
	}
	for i, p := range pts {
		n, first, ok := c.Frame(p, true, dur)
		if !ok {
			panic("no timestamp")
		}
		emit(i-1, n, first)
	}
	n, first := c.End()
	emit(len(pts)-1, n, first)
	return out, c
}

func TestConformerAsFFmpegFPS(t *testing.T) {
	rates := map[string]Rate{"24": {24, 1}, "30": {30, 1}, "12": {12, 1}, "ntsc": {30000, 1001}, "25": {25, 1}, "60": {60, 1}}
	for inName, in := range rates {
		for outName, out := range rates {
			var pts []time.Duration
			for i := range 50 {
				pts = append(pts, in.Time(int64(i)))
			}
			want := shown(out, pts, in.Time(1))
			got, c := conformed(out, pts, in.Time(1))
			if len(got) != len(want) {
				t.Fatalf("%s to %s: %d frames, want %d", inName, outName, len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("%s to %s: output %d shows %d, want %d", inName, outName, i, got[i], want[i])
				}
			}
			if c.Out != len(want) || c.In != len(pts) || c.Out-c.Repeated+c.Dropped() != c.In {
				t.Errorf("%s to %s: in %d out %d repeated %d dropped %d", inName, outName, c.In, c.Out, c.Repeated, c.Dropped())
			}
		}
	}
}

func TestFirstFrameWithoutTimestamp(t *testing.T) {
	c := NewConformer(Rate{24, 1})
	if _, _, ok := c.Frame(0, false, 0); ok {
		t.Error("a first frame without a timestamp accepted")
	}
	c.Frame(0, true, time.Second/24)
	if n, first, ok := c.Frame(0, false, time.Second/24); !ok || n != 1 || first != 0 {
		t.Errorf("a later frame without a timestamp: %d from %d, %v", n, first, ok)
	}
}
