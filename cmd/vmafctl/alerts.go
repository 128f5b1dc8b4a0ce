package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vmafsink/vmafsink/control"
)

const (
	alertsURI = "vmaf://alerts"
	statusURI = "vmaf://status"
)

// cmdWaitAlert blocks until a quality drop begins (exit 0, the drop
// printed), the stream ends first (exitFinished) or --timeout passes
// (exitTimeout): a CI gate's building block. A drop already open when it
// connects counts as begun. The --timeout counts from when the wait is
// armed: connecting and subscribing are bounded by the command's own
// timeout (g.timeout), so a slow connection is not mistaken for a quiet
// stream.
func cmdWaitAlert(ctx context.Context, g globals, args []string, stdout, stderr io.Writer) int {
	fs := flags("wait-alert", &g, stderr)
	wait := fs.Duration("timeout", 0, "give up when no drop begins within D of the wait starting (exit 6; default: wait until the stream ends)")
	if _, err := parse(fs, args); err != nil {
		return report(stderr, err)
	}
	begun := make(chan control.Alert, 1)
	changed := make(chan struct{}, 1)
	opts := &mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
		switch req.Params.URI {
		case alertsURI:
			if a, ok := decodeAlert(req.Params.Meta); ok && a.State == "begin" {
				select {
				case begun <- a:
				default:
				}
			}
		case statusURI:
			select {
			case changed <- struct{}{}:
			default:
			}
		}
	}}
	s, err := follow(ctx, g, opts)
	if err != nil {
		return report(stderr, err)
	}
	defer s.close()
	for _, uri := range []string{alertsURI, statusURI} {
		if err := s.subscribe(ctx, uri, g.timeout); err != nil {
			return report(stderr, fail(exitError, "subscribing to %s: %v", uri, err))
		}
	}
	closed := s.ended()
	// Subscribed first, then looked: a drop that begins in between is
	// both seen here and notified, never missed.
	var h control.Health
	callCtx, cancel := context.WithTimeout(ctx, g.timeout)
	err = s.call(callCtx, "vmaf_health", nil, &h)
	cancel()
	if err != nil {
		return report(stderr, err)
	}
	if h.Threshold == 0 {
		return report(stderr, fail(exitRefused, "the run has no alert threshold (alert-threshold, --alert-threshold): no drop can begin"))
	}
	if h.Active != nil {
		printAlert(stdout, g.json, *h.Active)
		return exitOK
	}
	finished := func() (bool, error) {
		var st control.Status
		callCtx, cancel := context.WithTimeout(ctx, g.timeout)
		defer cancel()
		if err := s.call(callCtx, "vmaf_status", nil, &st); err != nil {
			return false, err
		}
		return st.State == control.StateFinished, nil
	}
	if done, err := finished(); err != nil {
		return report(stderr, err)
	} else if done {
		return report(stderr, fail(exitFinished, "the stream has ended without a quality drop"))
	}
	// A drop that began with the last frames is notified before the
	// state changes, and before the server goes: take it if it is here.
	takeBegun := func() (int, bool) {
		select {
		case a := <-begun:
			printAlert(stdout, g.json, a)
			return exitOK, true
		default:
			return 0, false
		}
	}
	gone := func() int {
		if code, ok := takeBegun(); ok {
			return code
		}
		return report(stderr, fail(exitFinished, "the server closed the connection without a quality drop (the stream ended)"))
	}
	// From here on every drop that begins is notified: say so, for a
	// script (or a test) that starts the stream once the gate is armed.
	fmt.Fprintf(stderr, "vmafctl: waiting for a quality drop below %.2f\n", h.Threshold)
	var expired <-chan time.Time
	if *wait > 0 {
		t := time.NewTimer(*wait)
		defer t.Stop()
		expired = t.C
	}
	for {
		select {
		case a := <-begun:
			printAlert(stdout, g.json, a)
			return exitOK
		case <-changed:
			done, err := finished()
			if err != nil && ctx.Err() != nil {
				return exitOK // interrupted
			}
			if err != nil {
				// A server that ends with its stream (vmaf-score) can go
				// while the status call is in flight: the connection's
				// end then says what the reply would have. A tool's own
				// error, or a connection still up, is reported.
				if !errors.As(err, new(noReply)) || !endsWithin(closed, g.timeout) {
					return report(stderr, err)
				}
				return gone()
			}
			if done {
				if code, ok := takeBegun(); ok {
					return code
				}
				return report(stderr, fail(exitFinished, "the stream has ended without a quality drop"))
			}
		case <-closed:
			return gone()
		case <-expired:
			return report(stderr, fail(exitTimeout, "no quality drop within %v", *wait))
		case <-ctx.Done():
			return exitOK // interrupted
		}
	}
}

func decodeAlert(m mcp.Meta) (control.Alert, bool) {
	raw, ok := m["alert"]
	if !ok {
		return control.Alert{}, false
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return control.Alert{}, false
	}
	var a control.Alert
	return a, json.Unmarshal(b, &a) == nil
}

// alertLine describes a drop in one line.
func alertLine(a control.Alert) string {
	switch {
	case a.State == "begin":
		return fmt.Sprintf("drop %d began at frame %d: %d frames below %.2f (min %.3f)", a.ID, a.FirstFrame, a.Frames, a.Threshold, a.Min)
	case a.AtEOS:
		return fmt.Sprintf("drop %d ended with the stream: frames %d..%d (%d frames, min %.3f, mean %.3f)", a.ID, a.FirstFrame, a.LastFrame, a.Frames, a.Min, a.Mean)
	}
	return fmt.Sprintf("drop %d ended: frames %d..%d (%d frames, min %.3f, mean %.3f)", a.ID, a.FirstFrame, a.LastFrame, a.Frames, a.Min, a.Mean)
}

func printAlert(w io.Writer, asJSON bool, a control.Alert) {
	if asJSON {
		b, _ := json.Marshal(a)
		fmt.Fprintf(w, "%s\n", b)
		return
	}
	fmt.Fprintln(w, alertLine(a))
}

// cmdHealth prints the verdict and its evidence. Its exit status is 0
// whatever the verdict: a gate reads the verdict (first word, or -json).
func cmdHealth(ctx context.Context, g globals, args []string, stdout, stderr io.Writer) int {
	fs := flags("health", &g, stderr)
	if _, err := parse(fs, args); err != nil {
		return report(stderr, err)
	}
	var h control.Health
	if err := withSession(ctx, g, func(ctx context.Context, s *session) error {
		return s.call(ctx, "vmaf_health", nil, &h)
	}); err != nil {
		return report(stderr, err)
	}
	if g.json {
		printJSON(stdout, h)
		return exitOK
	}
	fmt.Fprintln(stdout, h.Verdict)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for _, r := range h.Reasons {
		fmt.Fprintf(tw, "reason\t%s\n", r)
	}
	if h.Threshold > 0 {
		fmt.Fprintf(tw, "threshold\t%.2f over %d frames\n", h.Threshold, h.AlertFrames)
	}
	if c := h.Current; c != nil {
		fmt.Fprintf(tw, "recent\tframes %d..%d: mean %.3f min %.3f max %.3f\n", c.FirstFrame, c.LastFrame, c.Mean, c.Min, c.Max)
	}
	if w := h.Window; w != nil {
		fmt.Fprintf(tw, "window\tframes %d..%d: mean %.3f min %.3f max %.3f\n", w.FirstFrame, w.LastFrame, w.Mean, w.Min, w.Max)
	}
	if a := h.Active; a != nil {
		fmt.Fprintf(tw, "open drop\t%s\n", alertLine(*a))
	}
	if a := h.LastDrop; a != nil {
		fmt.Fprintf(tw, "last drop\t%s\n", alertLine(*a))
	}
	for _, r := range h.Worst {
		fmt.Fprintf(tw, "worst\tframe %d: %.3f\n", r.Frame, r.Score)
	}
	tw.Flush()
	return exitOK
}

// alert shows a drop's begin or end in vmafctl watch: a line of its own,
// and while the drop is open a marker on each frame's line.
func (p *printer) alert(a control.Alert) {
	if a.State == "begin" {
		p.open = &a
	} else {
		p.open = nil
	}
	if p.json {
		b, _ := json.Marshal(struct {
			Alert control.Alert `json:"alert"`
		}{a})
		fmt.Fprintf(p.w, "%s\n", b)
		return
	}
	p.end()
	fmt.Fprintf(p.w, "! %s\n", alertLine(a))
}

// alertMark is what a frame's line ends with while a drop is open.
func (p *printer) alertMark() string {
	if p.open == nil {
		return ""
	}
	return fmt.Sprintf("  [drop %d open]", p.open.ID)
}

// endsWithin reports whether closed is closed now or within guard. A
// call that failed because the connection broke sees it closed at once;
// guard only bounds the wait when the connection is still up.
func endsWithin(closed <-chan struct{}, guard time.Duration) bool {
	t := time.NewTimer(guard)
	defer t.Stop()
	select {
	case <-closed:
		return true
	case <-t.C:
		return false
	}
}
