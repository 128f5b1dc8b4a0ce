package main

import (
	"fmt"
	"os"
	"strconv"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"github.com/vmafsink/vmafsink/control"
)

// terminalWidth is the columns of the terminal w writes to: its window
// size, else $COLUMNS, else 80.
func terminalWidth(w any) int {
	if f, ok := w.(*os.File); ok {
		if ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ); err == nil && ws.Col > 0 {
			return int(ws.Col)
		}
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return 80
}

// minSpark is the narrowest sparkline worth drawing.
const minSpark = 8

// frameLine lays out a frame's line in at most cols columns (0: no limit):
// the frame, model and score always, then as much sparkline as fits (up
// to sparkWidth), then its range, the mean, drops and the open alert
// while they fit. Nothing ever wraps, so a line redrawn with \r stays one
// line.
func (p *printer) frameLine(rec control.Record, cols int) string {
	head := fmt.Sprintf("frame %6d  %-10s %7.3f", rec.Frame, rec.Model, rec.Score)
	var tail []string
	tail = append(tail, fmt.Sprintf("  mean %7.3f", p.sum/float64(p.n)))
	if d := p.dropped + p.local.Load(); d > 0 {
		tail = append(tail, fmt.Sprintf("  (%d dropped)", d))
	}
	if m := p.alertMark(); m != "" {
		tail = append(tail, m)
	}
	width := sparkWidth
	if cols > 0 {
		room := cols - 1 - utf8.RuneCountInString(head) - 2 // a last column free: no auto-wrap
		for _, t := range tail {
			room -= utf8.RuneCountInString(t)
		}
		room -= len(" [00.00–00.00]") - 2 // the range, written with one multi-byte dash
		width = min(sparkWidth, room)
	}
	line := head
	if width >= minSpark {
		line += "  " + p.sparkOf(width)
	}
	for _, t := range tail {
		line += t
	}
	if cols > 0 && utf8.RuneCountInString(line) > cols-1 {
		r := []rune(line)
		line = string(r[:cols-1])
	}
	return line
}

// sparkOf draws the last width scores, oldest first, and their range.
func (p *printer) sparkOf(width int) string {
	count := min(p.n, width)
	p.ordered = p.ordered[:0]
	for i := p.n - count; i < p.n; i++ {
		p.ordered = append(p.ordered, p.recent[i%sparkWidth])
	}
	p.sparkBuf.Reset()
	lo, hi := sparkline(&p.sparkBuf, p.ordered)
	for range width - count {
		p.sparkBuf.WriteByte(' ')
	}
	fmt.Fprintf(&p.sparkBuf, " [%.2f–%.2f]", lo, hi)
	return p.sparkBuf.String()
}

// event prints a line that stays above the redrawn frame line: a swap,
// a pause, a resume, the end of the stream.
func (p *printer) event(format string, args ...any) {
	if p.json {
		return
	}
	p.end()
	fmt.Fprintf(p.w, format+"\n", args...)
}

// swapSeen notes the model of each record and says when it changes.
func (p *printer) swapSeen(rec control.Record) {
	if p.lastModel != "" && rec.Model != p.lastModel {
		p.event("~ frame %d: model %s → %s", rec.Frame, p.lastModel, rec.Model)
	}
	p.lastModel = rec.Model
}

// stateSeen shows a change of the measurement's state: paused, running
// again, finished. It reports whether the stream has finished.
func (p *printer) stateSeen(st control.Status) bool {
	if st.State == p.state {
		return st.State == control.StateFinished
	}
	prev := p.state
	p.state = st.State
	if prev == "" && (st.State == control.StateRunning || st.State == control.StateIdle) {
		return false // the state at the start is the expected one
	}
	if p.json {
		b := fmt.Sprintf(`{"state":%q,"last_frame":%d}`, st.State, st.LastFrame)
		fmt.Fprintln(p.w, b)
		return st.State == control.StateFinished
	}
	switch {
	case st.State == control.StatePaused:
		p.event("‖ paused after frame %d (%s mode; %d skipped so far)", st.LastFrame, st.PauseMode, st.FramesSkipped)
	case st.State == control.StateRunning && prev == control.StatePaused:
		p.event("▶ resumed")
	case st.State == control.StateFinished:
		p.event("■ stream ended: %d frames scored, %d skipped, %d dropped", st.FramesScored, st.FramesSkipped, st.FramesDropped)
	}
	return st.State == control.StateFinished
}
