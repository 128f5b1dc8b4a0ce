package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// progress draws one status line on a terminal: frames done, the rate,
// and the time left when the frame count is known.
type progress struct {
	w     io.Writer // nil when disabled
	total int
	start time.Time
	last  time.Time
	now   func() time.Time
	// report, when set, is told of every frame (vmaf-score mcp's
	// progress notifications); it must not block.
	report func(done, total int)
	// note, when set, adds to the line (the open quality drop); mu
	// keeps the alert lines printed from the scoring goroutine whole.
	note func() string
	mu   sync.Mutex
}

func newProgress(w io.Writer, total int) *progress {
	t := time.Now()
	return &progress{w: w, total: total, start: t, now: time.Now}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

// update redraws the line, at most ten times a second.
func (p *progress) update(done int) {
	if p.report != nil {
		p.report(done, p.total)
	}
	if p.w == nil {
		return
	}
	t := p.now()
	if t.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last = t
	p.mu.Lock()
	fmt.Fprintf(p.w, "\r%s\033[K", p.line(done, t))
	p.mu.Unlock()
}

// finish draws the final line and ends it.
func (p *progress) finish(done int) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	fmt.Fprintf(p.w, "\r%s\033[K\n", p.line(done, p.now()))
	p.mu.Unlock()
}

func (p *progress) line(done int, t time.Time) string {
	if p.note != nil {
		return p.bareLine(done, t) + p.note()
	}
	return p.bareLine(done, t)
}

func (p *progress) bareLine(done int, t time.Time) string {
	el := t.Sub(p.start).Seconds()
	fps := 0.0
	if el > 0 {
		fps = float64(done) / el
	}
	if p.total <= 0 || done > p.total {
		return fmt.Sprintf("%d frames  %.2f fps", done, fps)
	}
	s := fmt.Sprintf("%d/%d frames  %3.0f%%  %.2f fps", done, p.total, 100*float64(done)/float64(p.total), fps)
	if fps > 0 && done < p.total {
		left := time.Duration(float64(p.total-done) / fps * float64(time.Second))
		s += "  ETA " + clock(left)
	}
	return s
}

// clock formats d as m:ss or h:mm:ss.
func clock(d time.Duration) string {
	sec := int(d.Round(time.Second).Seconds())
	if sec >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", sec/3600, sec/60%60, sec%60)
	}
	return fmt.Sprintf("%d:%02d", sec/60, sec%60)
}
