package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tune"
)

// TestProgress draws two probes in flight with their time left at the
// rate each has scored, then the result line of the one that ends.
func TestProgress(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := t0
	p.now = func() time.Time { return clock }

	p.probe(tune.ProbeEvent{Probe: 1, CRF: 26, Frame: 1, Frames: 48}) // starts probe 1's clock at t0
	clock = t0.Add(time.Second)
	p.probe(tune.ProbeEvent{Probe: 2, CRF: 30, Frame: 1, Frames: 48}) // probe 2's at t0+1s
	clock = t0.Add(4 * time.Second)
	out.Reset()
	p.probe(tune.ProbeEvent{Probe: 1, CRF: 26, Frame: 12, Frames: 48})
	// Probe 1: 12 frames in 4 s, 36 left: 12 s. Probe 2: 1 frame in 3 s,
	// 47 left: 141 s.
	for _, want := range []string{"probe 1 crf 26 [###............] 12/48 ETA 0:12", "probe 2 crf 30 [...............] 1/48 ETA 2:21"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("line %q lacks %q", out.String(), want)
		}
	}
	clock = t0.Add(16 * time.Second)
	out.Reset()
	p.probe(tune.ProbeEvent{Probe: 1, CRF: 26, Frame: 48, Frames: 48, Done: true, Score: 92.29, Bitrate: 84.4})
	got := out.String()
	if !strings.Contains(got, "probe 1  crf 26     vmaf  92.290       84.4 kb/s in 0:16\n") || !strings.HasSuffix(got, "[..............................] 1/48 ETA 11:45") {
		t.Errorf("after probe 1 ended: %q", got)
	}
	if strings.Contains(got[strings.LastIndex(got, "\n"):], "probe 1") {
		t.Errorf("probe 1 still drawn: %q", got)
	}
}

func TestFormatDuration(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{{0, "0:00"}, {1500 * time.Millisecond, "0:02"}, {59 * time.Second, "0:59"}, {61 * time.Second, "1:01"}, {3723 * time.Second, "1:02:03"}} {
		if got := formatDuration(c.d); got != c.want {
			t.Errorf("formatDuration(%v) = %s, want %s", c.d, got, c.want)
		}
	}
}
