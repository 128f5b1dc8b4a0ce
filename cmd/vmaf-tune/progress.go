package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vmafsink/vmafsink/tune"
)

// progress draws the probes in flight on one terminal line, each with a
// bar, its frames and the time left at the rate it has scored so far;
// each probe's result is printed on a line of its own when it ends.
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	now      func() time.Time
	inFlight map[int]*probeProgress
	drawn    time.Time // when the line was last drawn
}

type probeProgress struct {
	crf           float64
	frame, frames int
	start         time.Time
}

// redrawEvery bounds how often the line is drawn; a probe's start and
// end always draw it.
const redrawEvery = 100 * time.Millisecond

func newProgress(w io.Writer) *progress {
	return &progress{w: w, now: time.Now, inFlight: map[int]*probeProgress{}}
}

func (p *progress) probe(e tune.ProbeEvent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if e.Done {
		how := ""
		if e.Cached {
			how = " (cached)"
		} else if pp := p.inFlight[e.Probe]; pp != nil {
			how = fmt.Sprintf(" in %s", formatDuration(now.Sub(pp.start)))
		}
		delete(p.inFlight, e.Probe)
		fmt.Fprintf(p.w, "\r\033[Kprobe %d  crf %-6g vmaf %7.3f  %9.1f kb/s%s\n", e.Probe, e.CRF, e.Score, e.Bitrate, how)
		p.draw(now)
		return
	}
	pp := p.inFlight[e.Probe]
	if pp == nil {
		pp = &probeProgress{crf: e.CRF, start: now}
		p.inFlight[e.Probe] = pp
	}
	pp.frame, pp.frames = e.Frame, e.Frames
	if now.Sub(p.drawn) >= redrawEvery || e.Frame <= 1 {
		p.draw(now)
	}
}

// draw writes the line of probes in flight (nothing when there are none).
func (p *progress) draw(now time.Time) {
	p.drawn = now
	if len(p.inFlight) == 0 {
		return
	}
	width := 30 / len(p.inFlight)
	var parts []string
	for _, n := range slices.Sorted(maps.Keys(p.inFlight)) {
		parts = append(parts, p.inFlight[n].line(n, width, now))
	}
	fmt.Fprintf(p.w, "\r\033[K%s", strings.Join(parts, "  |  "))
}

// line is one probe's part: its bar, frames and time left.
func (pp *probeProgress) line(n, width int, now time.Time) string {
	filled := 0
	if pp.frames > 0 {
		filled = min(width, pp.frame*width/pp.frames)
	}
	s := fmt.Sprintf("probe %d crf %g [%s%s] %d/%d", n, pp.crf, strings.Repeat("#", filled), strings.Repeat(".", width-filled), pp.frame, pp.frames)
	if eta, ok := pp.eta(now); ok {
		s += " ETA " + formatDuration(eta)
	}
	return s
}

// eta is the time the probe's remaining frames take at the rate of those
// scored so far; unknown before a frame is scored.
func (pp *probeProgress) eta(now time.Time) (time.Duration, bool) {
	elapsed := now.Sub(pp.start)
	if pp.frame <= 0 || pp.frames <= 0 || elapsed <= 0 {
		return 0, false
	}
	left := float64(pp.frames-pp.frame) * float64(elapsed) / float64(pp.frame)
	return time.Duration(left), true
}

// formatDuration prints M:SS (H:MM:SS from an hour), rounded up to the
// second.
func formatDuration(d time.Duration) string {
	s := int64((d + time.Second - 1) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
