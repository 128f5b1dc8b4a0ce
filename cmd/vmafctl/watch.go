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
	opts := &mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
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
	connectCtx, cancel := context.WithTimeout(ctx, g.timeout)
	s, err := connect(connectCtx, g.socket, opts)
	cancel()
	if err != nil {
		return report(stderr, err)
	}
	defer s.close()
	subCtx, cancel := context.WithTimeout(ctx, g.timeout)
	err = s.cs.Subscribe(subCtx, &mcp.SubscribeParams{URI: liveURI})
	cancel()
	if err != nil {
		return report(stderr, fail(exitError, "subscribing to %s: %v", liveURI, err))
	}
	closed := make(chan struct{})
	go func() {
		s.cs.Wait()
		close(closed)
	}()

	p := newPrinter(stdout, g.json, isTerminal(stdout))
	p.local = &localDrops
	defer p.end()
	for n := 0; *limit == 0 || n < *limit; n++ {
		select {
		case l := <-feed:
			p.print(l)
		case <-closed:
			p.end()
			return report(stderr, fail(exitConnect, "the server closed the connection"))
		case <-ctx.Done():
			return exitOK
		}
	}
	return exitOK
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
// frame with a sparkline of the recent scores and the running mean
// (redrawn in place on a terminal).
type printer struct {
	w        io.Writer
	json     bool
	tty      bool
	recent   []float64 // ring of the last len(recent) scores
	n        int
	sum      float64
	dropped  uint64         // reported by the server
	local    *atomic.Uint64 // dropped here, when printing fell behind
	drawn    bool
	sparkBuf strings.Builder
}

const sparkWidth = 40

func newPrinter(w io.Writer, asJSON, tty bool) *printer {
	return &printer{w: w, json: asJSON, tty: tty, recent: make([]float64, sparkWidth), local: new(atomic.Uint64)}
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
	p.recent[p.n%sparkWidth] = l.rec.Score
	p.n++
	p.sum += l.rec.Score
	line := fmt.Sprintf("frame %6d  %-10s %7.3f  %s  mean %7.3f", l.rec.Frame, l.rec.Model, l.rec.Score, p.spark(), p.sum/float64(p.n))
	if d := p.dropped + p.local.Load(); d > 0 {
		line += fmt.Sprintf("  (%d dropped)", d)
	}
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s", line)
		p.drawn = true
	} else {
		fmt.Fprintln(p.w, line)
	}
}

// spark draws the recent scores, oldest first, on a 0..100 scale.
func (p *printer) spark() string {
	const bars = "▁▂▃▄▅▆▇█"
	levels := []rune(bars)
	p.sparkBuf.Reset()
	count := min(p.n, sparkWidth)
	for i := p.n - count; i < p.n; i++ {
		v := p.recent[i%sparkWidth]
		k := int(v / 100 * float64(len(levels)))
		p.sparkBuf.WriteRune(levels[max(0, min(k, len(levels)-1))])
	}
	for range sparkWidth - count {
		p.sparkBuf.WriteByte(' ')
	}
	return p.sparkBuf.String()
}

// end finishes a line drawn in place.
func (p *printer) end() {
	if p.drawn {
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}
