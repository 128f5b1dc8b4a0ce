package main

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/vmafsink/vmafsink/tune"
)

// progress draws one line per probe on a terminal: a bar while it
// encodes and scores, its result when it ends.
type progress struct {
	mu sync.Mutex
	w  io.Writer
}

func newProgress(w io.Writer) *progress { return &progress{w: w} }

func (p *progress) probe(e tune.ProbeEvent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e.Done {
		how := ""
		if e.Cached {
			how = " (cached)"
		}
		fmt.Fprintf(p.w, "\r\033[Kprobe %d  crf %-6g vmaf %7.3f  %9.1f kb/s%s\n", e.Probe, e.CRF, e.Score, e.Bitrate, how)
		return
	}
	if e.Frames <= 0 || (e.Frame%4 != 0 && e.Frame != e.Frames) {
		return
	}
	const width = 30
	n := e.Frame * width / e.Frames
	fmt.Fprintf(p.w, "\r\033[Kprobe %d  crf %-6g [%s%s] %d/%d", e.Probe, e.CRF,
		strings.Repeat("#", n), strings.Repeat(".", width-n), e.Frame, e.Frames)
}
