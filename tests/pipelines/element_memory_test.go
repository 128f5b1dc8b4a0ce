package pipelines

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// TestElementMemoryFlat scores 10,000 frames from videotestsrc and samples
// the process's resident memory: after warm-up it must stay flat, so
// nothing is kept per frame.
func TestElementMemoryFlat(t *testing.T) {
	const (
		frames = 10000
		// Allowed growth from the warmed-up level to the end: allocator
		// and runtime noise, far below what keeping anything per frame
		// would cost over 10,000 frames.
		slack = 12 << 20
	)
	p := gsttest.Start(t, fmt.Sprintf(
		"videotestsrc num-buffers=%d pattern=ball ! %s ! v.ref_sink "+
			"videotestsrc num-buffers=%d pattern=ball horizontal-speed=2 ! %s ! v.dist_sink "+
			"vmafsink name=v threads=2 frame-message=false", frames, testSrcCaps, frames, testSrcCaps))
	type sample struct {
		at  time.Duration
		rss int64
	}
	var samples []sample
	start := time.Now()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	timeout := time.NewTimer(20 * time.Minute)
	defer timeout.Stop()
wait:
	for {
		select {
		case err := <-p.Done():
			if err != nil {
				t.Fatalf("gst-launch failed: %v\n%s", err, p.Output())
			}
			break wait
		case <-tick.C:
			if rss, err := p.RSS(); err == nil {
				samples = append(samples, sample{time.Since(start), rss})
			}
		case <-timeout.C:
			t.Fatalf("10,000 frames not scored in 20 minutes")
		}
	}
	run := &gsttest.Run{Output: p.Output(), Messages: gsttest.ParseMessages(p.Output())}
	if got := run.Pooled(t).Uint(t, "frames-scored"); got != frames {
		t.Fatalf("scored %d frames, want %d", got, frames)
	}
	if len(samples) < 12 {
		t.Fatalf("only %d memory samples: the run was too short to judge", len(samples))
	}
	// Warm-up: the first fifth (pools, the scorer's buffers, the records
	// ring filling). Compare the median of the next fifth with the peak of
	// the last half.
	n := len(samples)
	var warm []int64
	for _, s := range samples[n/5 : 2*n/5] {
		warm = append(warm, s.rss)
	}
	sort.Slice(warm, func(i, j int) bool { return warm[i] < warm[j] })
	base := warm[len(warm)/2]
	var peak int64
	for _, s := range samples[n/2:] {
		peak = max(peak, s.rss)
	}
	t.Logf("%d samples over %v: warmed-up RSS %.1f MB, peak in the second half %.1f MB", n, samples[n-1].at.Round(time.Second), float64(base)/(1<<20), float64(peak)/(1<<20))
	if peak-base > slack {
		t.Errorf("resident memory grew by %.1f MB after warm-up (limit %d MB)", float64(peak-base)/(1<<20), slack>>20)
	}
}
