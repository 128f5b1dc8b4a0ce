package control

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	liveURI   = "vmaf://scores/live"
	statusURI = "vmaf://status"

	methodResourceUpdated = "notifications/resources/updated"
	methodLogMessage      = "notifications/message"

	// statusPoll is how often the publisher looks for status changes to
	// announce on vmaf://status (state changes need no frames to happen:
	// a blocking pause stops them).
	statusPoll = 200 * time.Millisecond

	// flushGap spaces the publisher's hand-overs to the clients' writers:
	// every client's notifications of a gap go out in one wake-up and one
	// system call, so a fast stream costs each client at most 1/flushGap
	// wake-ups a second rather than one per frame (waking idle threads
	// costs more than writing), for at most this much delay.
	flushGap = 25 * time.Millisecond
)

// sendingMiddleware diverts resource-updated and log notifications into
// the client's outbox. The SDK writes notifications to its sessions one
// after another with no deadline, so one stalled client would hold up
// every other and the publisher; queued per client, a stall costs only
// that client's oldest records. The SDK still decides who gets what
// (subscriptions, log levels, per-listen ids); the params it hands every
// legacy session for a frame are the same, so their line is encoded once.
func (s *Server) sendingMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	s.sendNext = next
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != methodResourceUpdated && method != methodLogMessage {
			return next(ctx, method, req)
		}
		sess := s.lookup(req.GetSession())
		if sess == nil {
			return nil, nil
		}
		nt := note{method: method, params: req.GetParams()}
		if sh := s.shared.Load(); sh != nil {
			switch nt.params {
			case sh.live:
				nt.line = sh.liveLine
			case sh.log:
				nt.line = sh.logLine
			}
		}
		sess.out.push(nt)
		return nil, nil
	}
}

// logLevels are the syslog levels MCP's logging/setLevel takes.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// sharedLines are the current frame's notifications, encoded once.
type sharedLines struct {
	live, log         mcp.Params
	liveLine, logLine []byte
}

// receivingMiddleware accepts the dotted tool names as aliases and bounds
// each client's concurrent requests.
func (s *Server) receivingMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if strings.HasPrefix(method, "notifications/") {
			return next(ctx, method, req)
		}
		switch r := req.(type) {
		case *mcp.CallToolRequest:
			if r.Params != nil {
				r.Params.Name = canonicalTool(r.Params.Name)
			}
		case *mcp.ServerRequest[*mcp.SetLoggingLevelParams]:
			// The SDK takes any string, and a level it does not know
			// silently stops the client's log notifications.
			if r.Params == nil || !slices.Contains(logLevels, string(r.Params.Level)) {
				lvl := ""
				if r.Params != nil {
					lvl = string(r.Params.Level)
				}
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("invalid params: unknown logging level %q (want one of %s)", lvl, strings.Join(logLevels, ", "))}
			}
		}
		sess := s.lookup(req.GetSession())
		if sl, ok := ctx.Value(slotKey{}).(*httpSlot); ok && sess == nil {
			sess = s.adopt(req.GetSession(), sl)
		}
		if sess != nil {
			if int(sess.inFlight.Add(1)) > s.opts.MaxInFlight {
				sess.inFlight.Add(-1)
				return nil, &jsonrpc.Error{Code: RPCBusy, Message: fmt.Sprintf("%s: more than %d requests in flight; wait for replies", CodeBusy, s.opts.MaxInFlight)}
			}
			defer sess.inFlight.Add(-1)
		}
		return next(ctx, method, req)
	}
}

func (s *Server) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	if uri != liveURI && uri != statusURI && uri != windowURI && uri != alertsURI {
		return fmt.Errorf("unknown resource %q (subscribe to %s, %s, %s or %s)", uri, liveURI, statusURI, windowURI, alertsURI)
	}
	if sess := s.lookup(req.Session); sess != nil {
		first := false
		s.mu.Lock()
		if uri == statusURI && !sess.subs[uri] {
			first = s.statusSub.Add(1) == 1
		}
		sess.subs[uri] = true
		s.mu.Unlock()
		if first {
			// The publisher has not been looking: what the subscriber may
			// read from now on is the baseline a change is measured from,
			// or a change before the publisher's next look goes unnoticed.
			st := s.target.Status()
			s.statusAnalytics(&st)
			sig := statusSignature(st)
			s.statusBase.Store(&sig)
		}
	}
	return nil
}

func (s *Server) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	if sess := s.lookup(req.Session); sess != nil {
		s.mu.Lock()
		if req.Params.URI == statusURI && sess.subs[statusURI] {
			s.statusSub.Add(-1)
		}
		delete(sess.subs, req.Params.URI)
		s.mu.Unlock()
	}
	return nil
}

// publish fans the target's records (the feed Start subscribed to) out
// to the clients, and announces status changes. It runs on its own
// goroutine: nothing here may block on a client.
func (s *Server) publish(records <-chan Record) {
	defer s.wg.Done()
	tick := time.NewTicker(statusPoll)
	defer tick.Stop()
	flush := time.NewTimer(0)
	<-flush.C
	defer flush.Stop()
	var (
		sessions  []*session
		lastSig   string
		lastFlush time.Time
		pending   bool // notifications queued but not yet handed over
	)
	// handOver wakes the writers now if the last hand-over is a gap ago,
	// and otherwise once it is.
	handOver := func() {
		if pending {
			return
		}
		if wait := time.Until(lastFlush.Add(flushGap)); wait > 0 {
			flush.Reset(wait)
			pending = true
			return
		}
		s.kick(sessions)
		lastFlush = time.Now()
	}
	for {
		select {
		case <-s.ctx.Done():
			return
		case r, ok := <-records:
			if !ok {
				records = nil
				continue
			}
			sessions = s.snapshot(sessions)
			s.onRecord(r, sessions)
			handOver()
		case <-flush.C:
			pending = false
			sessions = s.snapshot(sessions)
			s.kick(sessions)
			lastFlush = time.Now()
		case <-tick.C:
			if s.statusSub.Load() == 0 {
				continue
			}
			if base := s.statusBase.Swap(nil); base != nil {
				lastSig = *base
			}
			st := s.target.Status()
			s.statusAnalytics(&st)
			if sig := statusSignature(st); sig != lastSig {
				if lastSig != "" {
					s.mcp.ResourceUpdated(s.ctx, &mcp.ResourceUpdatedNotificationParams{URI: statusURI})
					sessions = s.snapshot(sessions)
					handOver()
				}
				lastSig = sig
			}
			s.statusLooks.Add(1)
		}
	}
}

// kick wakes the writers of clients with notifications queued.
func (s *Server) kick(sessions []*session) {
	for _, sess := range sessions {
		sess.out.kick()
	}
}

func (s *Server) onRecord(r Record, sessions []*session) {
	rec := sanitize(r)
	s.latest.Store(&rec)
	for _, sess := range sessions {
		if r.Dropped > 0 {
			sess.out.addDropped(r.Dropped)
		}
	}
	// Encode the record and the two notifications once for every client.
	raw, err := json.Marshal(&rec)
	if err != nil {
		s.opts.Logger.Warn("control: encoding a record", "frame", rec.Frame, "error", err)
		return
	}
	live := &mcp.ResourceUpdatedNotificationParams{URI: liveURI, Meta: mcp.Meta{"record": json.RawMessage(raw)}}
	msg := &mcp.LoggingMessageParams{Level: "info", Logger: "vmaf", Data: json.RawMessage(raw)}
	// The lines are what encodeNote would write, spliced by hand: this runs
	// for every frame, and reflection over the params costs more than the
	// rest of publishing.
	sh := &sharedLines{live: live, log: msg,
		liveLine: splice(`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"record":`, raw, `},"uri":"vmaf://scores/live"}}`),
		logLine:  splice(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":`, raw, `,"level":"info","logger":"vmaf"}}`),
	}
	s.shared.Store(sh)
	s.mcp.ResourceUpdated(s.ctx, live)
	for _, sess := range sessions {
		// Log drops it unless the client asked for info or lower.
		sess.ss.Log(s.ctx, msg)
	}
}

// splice joins a notification line around an encoded record.
func splice(head string, raw []byte, tail string) []byte {
	b := make([]byte, 0, len(head)+len(raw)+len(tail)+1)
	b = append(b, head...)
	b = append(b, raw...)
	b = append(b, tail...)
	return append(b, '\n')
}

// statusSignature changes whenever something a status subscriber cares
// about changes, and not with every frame counter.
func statusSignature(st Status) string {
	var lastSwap uint64 // the history is bounded: its length stops changing
	if n := len(st.Swaps); n > 0 {
		lastSwap = st.Swaps[n-1].Command
	}
	var alert uint64 // the open drop, 0 when none
	if st.Alert != nil {
		alert = st.Alert.ID
	}
	return fmt.Sprintf("%s|%s|%s|%d|%d|%dx%d|%s|%d|%s|%d", st.State, st.PauseMode, st.Model, lastSwap,
		st.CommandsPending, st.Width, st.Height, st.Format, len(st.Warnings), st.Health, alert)
}
