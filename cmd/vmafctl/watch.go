package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vmafsink/vmafsink/control"
)

const liveURI = "vmaf://scores/live"

// live is one notification: a record and how many the server dropped
// for this client before it.
type live struct {
	rec     control.Record
	dropped uint64
}

func cmdWatch(ctx context.Context, g globals, args []string, stdout, stderr io.Writer) int {
	fs := flags("watch", &g, stderr)
	limit := fs.Int("n", 0, "stop after N frames (0: until interrupted)")
	if _, err := parse(fs, args); err != nil {
		return report(stderr, err)
	}
	// The handler must not block the session's reader: hand records over
	// through a buffer and count what does not fit.
	feed := make(chan live, 1024)
	var localDrops atomic.Uint64
	alerts := make(chan control.Alert, 64)
	changed := make(chan struct{}, 1)
	opts := &mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
		if req.Params.URI == statusURI {
			select {
			case changed <- struct{}{}:
			default:
			}
			return
		}
		if req.Params.URI == alertsURI {
			if a, ok := decodeAlert(req.Params.Meta); ok {
				select {
				case alerts <- a:
				default:
				}
			}
			return
		}
		if req.Params.URI != liveURI {
			return
		}
		l, ok := decodeLive(req.Params.Meta)
		if !ok {
			return
		}
		select {
		case feed <- l:
		default:
			localDrops.Add(1)
		}
	}}
	s, err := follow(ctx, g, opts)
	if err != nil {
		return report(stderr, err)
	}
	defer s.close()
	if err := s.subscribe(ctx, liveURI, g.timeout); err != nil {
		return report(stderr, fail(exitError, "subscribing to %s: %v", liveURI, err))
	}
	// Drops are marked when the server has alerts (a server without
	// analytics refuses the subscription: nothing to mark).
	s.subscribe(ctx, alertsURI, g.timeout)
	// Pauses, resumes and the end of the stream come as status changes.
	s.subscribe(ctx, statusURI, g.timeout)
	closed := s.ended()

	p := newPrinter(stdout, g.json, isTerminal(stdout))
	p.local = &localDrops
	p.width = func() int { return terminalWidth(stdout) }
	defer p.end()
	status := func() bool {
		var st control.Status
		callCtx, cancel := context.WithTimeout(ctx, g.timeout)
		defer cancel()
		if s.call(callCtx, "vmaf_status", nil, &st) != nil {
			return false
		}
		return p.stateSeen(st)
	}
	if status() {
		return exitOK // nothing more will come: the stream has ended
	}
	for n := 0; *limit == 0 || n < *limit; n++ {
		select {
		case l := <-feed:
			p.print(l)
		case a := <-alerts:
			p.alert(a)
			n--
		case <-changed:
			if status() {
				p.drain(feed)
				return exitOK
			}
			n--
		case <-closed:
			p.drain(feed)
			if p.state == control.StateFinished || p.n > 0 {
				// A server ends its sessions when its stream ends: the
				// end of the stream, not a failure.
				if p.state != control.StateFinished {
					p.event("■ stream ended (the server closed the connection after %d frames)", p.n)
				}
				return exitOK
			}
			p.end()
			return report(stderr, fail(exitConnect, "the server closed the connection"))
		case <-ctx.Done():
			return exitOK
		}
	}
	return exitOK
}

// drain prints the records that arrived before the end.
func (p *printer) drain(feed chan live) {
	for {
		select {
		case l := <-feed:
			p.print(l)
		default:
			return
		}
	}
}

func decodeLive(m mcp.Meta) (live, bool) {
	raw, ok := m["record"]
	if !ok {
		return live{}, false
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return live{}, false
	}
	var l live
	if json.Unmarshal(b, &l.rec) != nil {
		return live{}, false
	}
	if d, ok := m["dropped"].(float64); ok && d > 0 {
		l.dropped = uint64(d)
	}
	return l, true
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// printer shows live records: one JSON object per line, or a line per
// frame with a sparkline of the recent scores, scaled to their range and
// followed by it, and the running mean (redrawn in place on a terminal).
type printer struct {
	w        io.Writer
	json     bool
	tty      bool
	recent   []float64 // ring of the last len(recent) scores
	ordered  []float64 // recent, oldest first, reused
	n        int
	sum      float64
	dropped  uint64         // reported by the server
	local    *atomic.Uint64 // dropped here, when printing fell behind
	drawn    bool
	open     *control.Alert // the drop open, if any
	sparkBuf strings.Builder
	// width gives the columns a line may take (tty only).
	width     func() int
	lastModel string // the model of the last record, to show swaps
	state     string // the measurement's state as last seen
}

const sparkWidth = 40

func newPrinter(w io.Writer, asJSON, tty bool) *printer {
	return &printer{w: w, json: asJSON, tty: tty, recent: make([]float64, sparkWidth), ordered: make([]float64, 0, sparkWidth), local: new(atomic.Uint64)}
}

func (p *printer) print(l live) {
	p.dropped += l.dropped
	if p.json {
		out := struct {
			control.Record
			Dropped uint64 `json:"dropped,omitempty"`
		}{l.rec, l.dropped}
		b, _ := json.Marshal(out)
		fmt.Fprintf(p.w, "%s\n", b)
		return
	}
	p.swapSeen(l.rec)
	p.recent[p.n%sparkWidth] = l.rec.Score
	p.n++
	p.sum += l.rec.Score
	cols := 0
	if p.tty && p.width != nil {
		cols = p.width()
	}
	line := p.frameLine(l.rec, cols)
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s", line)
		p.drawn = true
	} else {
		fmt.Fprintln(p.w, line)
	}
}

// minSparkSpan is the narrowest range a sparkline shows, in score
// points: scores steadier than that draw as a flat middle line instead of
// their noise filling every level.
const minSparkSpan = 1.0

var sparkLevels = []rune("▁▂▃▄▅▆▇█")

// sparkline writes a level per value, from the lowest level for the
// smallest value to the highest for the largest, and returns the range
// the levels span.
func sparkline(b *strings.Builder, vals []float64) (lo, hi float64) {
	if len(vals) == 0 {
		return 0, 0
	}
	lo, hi = sparkScale(vals)
	top := len(sparkLevels) - 1
	for _, v := range vals {
		k := int((v - lo) / (hi - lo) * float64(len(sparkLevels)))
		b.WriteRune(sparkLevels[max(0, min(k, top))])
	}
	return lo, hi
}

// sparkScale returns the values' min and max, widened about their middle
// to minSparkSpan when they are closer.
func sparkScale(vals []float64) (lo, hi float64) {
	lo, hi = vals[0], vals[0]
	for _, v := range vals[1:] {
		lo, hi = min(lo, v), max(hi, v)
	}
	if hi-lo < minSparkSpan {
		mid := (lo + hi) / 2
		lo, hi = mid-minSparkSpan/2, mid+minSparkSpan/2
	}
	return lo, hi
}

// end finishes a line drawn in place.
func (p *printer) end() {
	if p.drawn {
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}
