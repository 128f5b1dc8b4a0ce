package control

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vmafsink/vmafsink/analytics"
)

// The analytics part of the control plane: vmaf_health, vmaf_diagnose,
// vmaf_score's ranges, windows and percentiles, the vmaf://scores/window
// and vmaf://alerts resources, and alert log messages. vmaf_diagnose's
// reply and its work are in tools_diagnose.go.

const (
	toolHealth   = "vmaf_health"
	toolDiagnose = "vmaf_diagnose"

	windowURI = "vmaf://scores/window"
	alertsURI = "vmaf://alerts"

	// maxRange bounds the frames one vmaf_score from/to or vmaf_diagnose
	// call covers: a whole day's history in one reply would be hundreds
	// of megabytes of JSON.
	maxRange = 10000
	// maxAlertsListed bounds the drops vmaf://alerts lists.
	maxAlertsListed = 100
	// diagnoseContext is the fewest frames on each side of a diagnosed
	// range compared with it.
	diagnoseContext = 30
	// eventBuffer is how many window and alert events may wait for the
	// publisher before the oldest are dropped.
	eventBuffer = 256
	// closeDrain bounds how long Close waits for the analytics events
	// already queued to be written to the clients: a run that ends with
	// a drop open announces its end just before the host closes.
	closeDrain = 250 * time.Millisecond
)

// ScoreHistory says what a vmaf_score reply can reach: the per-frame
// scores kept for the whole run, and the recent span kept in full.
type ScoreHistory struct {
	KeptFrom   int64  `json:"kept_from" jsonschema:"oldest frame whose score is kept, -1 when none"`
	KeptTo     int64  `json:"kept_to" jsonschema:"newest frame whose score is kept"`
	Frames     int    `json:"frames" jsonschema:"per-frame scores kept"`
	FullFrom   int64  `json:"full_from" jsonschema:"oldest frame whose full record (pts, features) is kept, -1 when none; frames before it come back scores-only"`
	From       *int64 `json:"from,omitempty" jsonschema:"for a from/to request: the first frame this reply covers"`
	To         *int64 `json:"to,omitempty" jsonschema:"for a from/to request: the last frame this reply covers"`
	ScoresOnly int    `json:"scores_only,omitempty" jsonschema:"records in this reply taken from the score history: frame, model and score only, pts_ns -1, no features; they come first"`
	NextFrom   *int64 `json:"next_from,omitempty" jsonschema:"the range asked for is longer than max_range frames: ask again with from=next_from for the rest"`
	MaxRange   int    `json:"max_range" jsonschema:"the most frames one from/to request covers"`
}

type healthArgs struct{}

func (s *Server) addAnalyticsTools() {
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        toolHealth,
		Description: "Health verdict a gate or an agent can act on: healthy, warning, critical or no_data, with the reasons and the evidence (statistics over the recent frames, the latest window, the open drop, the last drop, the 5 worst recent frames). Rules: no_data before any scored frame; critical while a drop (alert_frames consecutive frames below the alert threshold) is open; warning when, among the last max(alert_frames, 30) scored frames, one scored below the threshold or a drop ended, or their mean is within 5 of the threshold; healthy otherwise. Without an alert threshold the verdict is healthy or no_data.",
		Annotations: readOnly("VMAF health"),
	}, s.toolHealth)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        toolDiagnose,
		Description: fmt.Sprintf("Structured diagnosis of a quality drop over frames from..to (at most %d frames): the VMAF score and each ingredient (ADM detail loss, VIF scale 0 artefacts, VIF scales 1-3 blur, motion) inside the range against the frames around it, which extractor drove the drop (the largest relative fall), model/resolution mismatches, and the drops that overlap the range. Features are kept for the recent frames only; older ranges are compared by score alone (scores_only).", maxRange),
		Annotations: readOnly("Diagnose a VMAF drop"),
		InputSchema: schemaFor[diagnoseArgs](func(p map[string]*jsonschema.Schema) {
			p["from"].Minimum = ptr(0.0)
			p["to"].Minimum = ptr(0.0)
		}),
	}, s.toolDiagnose)
}

func (s *Server) addAnalyticsResources() {
	s.mcp.AddResource(&mcp.Resource{
		URI:         windowURI,
		Name:        "window_scores",
		Title:       "VMAF window record",
		Description: "The latest window record (first/last frame, running-time span, mean, harmonic mean, min, max, percentiles, model), or null when windows are off or none is complete. Subscribe for one notifications/resources/updated per window record, carrying it in _meta.window.",
		MIMEType:    "application/json",
	}, s.readWindow)
	s.mcp.AddResource(&mcp.Resource{
		URI:         alertsURI,
		Name:        "alerts",
		Title:       "VMAF quality drops",
		Description: "The open quality drop, if any, and the latest drops (frames below the alert threshold for alert_frames or more frames in a row). Subscribe for one notifications/resources/updated when a drop begins and one when it ends, carrying the drop in _meta.alert; clients that set a logging level also get a notifications/message at level warning when a drop begins and info when it ends.",
		MIMEType:    "application/json",
	}, s.readAlerts)
}

func (s *Server) readWindow(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	var w *Window
	if last, ok := s.target.Analytics().LastWindow(); ok {
		w = wireWindow(&last)
	}
	return jsonResource(req.Params.URI, w)
}

func (s *Server) readAlerts(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	return jsonResource(req.Params.URI, alertList(s.target.Analytics()))
}

func alertList(m *analytics.Monitor) Alerts {
	cfg := m.Config()
	out := Alerts{Alerts: []Alert{}, Threshold: cfg.AlertThreshold}
	if cfg.AlertThreshold > 0 {
		out.AlertFrames = max(cfg.AlertFrames, 1)
	}
	for _, a := range m.Alerts(maxAlertsListed) {
		out.Alerts = append(out.Alerts, *wireAlert(&a))
	}
	if a, ok := m.ActiveAlert(); ok {
		out.Active = wireAlert(&a)
	}
	return out
}

// statusAnalytics adds the analytics' verdict and open drop to a
// vmaf_status reply.
func (s *Server) statusAnalytics(st *Status) {
	m := s.target.Analytics()
	if m.Scored() > 0 {
		st.Health = string(m.Health().Verdict)
	} else {
		st.Health = string(analytics.NoData)
	}
	if a, ok := m.ActiveAlert(); ok {
		st.Alert = wireAlert(&a)
	}
}

func (s *Server) toolHealth(context.Context, *mcp.CallToolRequest, healthArgs) (*mcp.CallToolResult, Health, error) {
	return nil, wireHealth(s.target.Analytics()), nil
}

// scoreAnalytics adds what the analytics know to a vmaf_score reply: the
// latest window, the pooled percentiles, and what the history holds.
func (s *Server) scoreAnalytics(sc *Scores) {
	m := s.target.Analytics()
	if w, ok := m.LastWindow(); ok {
		sc.Window = wireWindow(&w)
	}
	if ps := m.Percentiles(); ps != nil {
		sc.Percentiles = make(map[string][]Percentile, len(ps))
		for k, v := range ps {
			sc.Percentiles[k] = wirePercentiles(v)
		}
	}
	if sc.History == nil {
		sc.History = s.historyNote()
	}
}

func (s *Server) historyNote() *ScoreHistory {
	_, have := s.target.Analytics().History(1, 0)
	h := &ScoreHistory{KeptFrom: int64(have[0]), KeptTo: int64(have[1]), Frames: s.target.Analytics().HistoryLen(), FullFrom: -1, MaxRange: maxRange}
	if full := s.target.Range(0, math.MaxInt64, 1); len(full) > 0 {
		h.FullFrom = full[0].Frame
	}
	return h
}

// scoreRange answers vmaf_score {from, to}: the full records still kept,
// and scores-only records from the history before them, over at most
// maxRange frames.
func (s *Server) scoreRange(in scoreArgs) (Scores, error) {
	if in.Last != 0 {
		return Scores{}, Errorf(CodeBadRequest, "last and from/to are exclusive: ask for the latest records or for a range")
	}
	var from, to int64
	switch {
	case in.From != nil && in.To != nil:
		from, to = *in.From, *in.To
	case in.From != nil:
		from = *in.From
		to = from + maxRange - 1
	default:
		to = *in.To
		from = max(to-maxRange+1, 0)
	}
	if from < 0 || to < from {
		return Scores{}, Errorf(CodeBadRequest, "need 0 <= from <= to, got from=%d to=%d", from, to)
	}
	var next *int64
	if to-from >= maxRange {
		to = from + maxRange - 1
		n := to + 1
		next = &n
	}
	sc := sanitizeScores(s.target.Scores(0, min(max(in.Worst, 0), maxWorst)))
	full := s.target.Range(from, to, maxRange)
	olderTo := to
	if len(full) > 0 {
		olderTo = full[0].Frame - 1
	}
	var recs []Record
	if olderTo >= from {
		hist, _ := s.target.Analytics().History(int(from), int(min(olderTo, math.MaxInt32)))
		for _, h := range hist {
			recs = append(recs, scoreOnly(h))
		}
	}
	note := s.historyNote()
	note.From, note.To, note.ScoresOnly, note.NextFrom = &from, &to, len(recs), next
	for _, r := range full {
		recs = append(recs, sanitize(r))
	}
	if recs == nil {
		recs = []Record{}
	}
	sc.Records, sc.History = recs, note
	return sc, nil
}

// startAnalytics follows the target's analytics events (window records,
// drop begin and end) and announces them. Monitor subscribers run on the
// Runner's publishing goroutine, so the subscriber only queues.
func (s *Server) startAnalytics() {
	events := make(chan analytics.Event, eventBuffer)
	var queued atomic.Int64 // events taken and not yet handed to the outboxes
	s.drainAnalytics = func() { s.drainEvents(&queued, closeDrain) }
	cancel := s.target.Analytics().Subscribe(func(e analytics.Event) {
		queued.Add(1)
		select {
		case events <- e:
		default:
			queued.Add(-1)
			// A stalled publisher must not hold up scoring; the
			// resources still answer with the latest state.
		}
	})
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		var sessions []*session
		for {
			select {
			case <-s.ctx.Done():
				return
			case e := <-events:
				sessions = s.snapshot(sessions)
				s.announce(e, sessions)
				s.kick(sessions)
				queued.Add(-1)
			}
		}
	}()
}

func (s *Server) announce(e analytics.Event, sessions []*session) {
	switch {
	case e.Window != nil:
		raw, err := json.Marshal(wireWindow(e.Window))
		if err != nil {
			return
		}
		s.mcp.ResourceUpdated(s.ctx, &mcp.ResourceUpdatedNotificationParams{URI: windowURI, Meta: mcp.Meta{"window": json.RawMessage(raw)}})
	case e.Alert != nil:
		a := wireAlert(e.Alert)
		raw, err := json.Marshal(a)
		if err != nil {
			return
		}
		s.mcp.ResourceUpdated(s.ctx, &mcp.ResourceUpdatedNotificationParams{URI: alertsURI, Meta: mcp.Meta{"alert": json.RawMessage(raw)}})
		level := mcp.LoggingLevel("warning")
		if e.Alert.State == analytics.AlertEnd {
			level = "info"
		}
		msg := &mcp.LoggingMessageParams{Level: level, Logger: "vmaf.alert", Data: json.RawMessage(raw)}
		for _, sess := range sessions {
			// Log drops it unless the client asked for this level or lower.
			sess.ss.Log(s.ctx, msg)
		}
	}
}

// monitorAlertSteps is the monitor_stream prompt's plan when the run has
// an alert threshold: the server detects drops itself.
func monitorAlertSteps(cfg analytics.Config) string {
	return fmt.Sprintf(`
1. Subscribe to %s: a notification arrives when a quality drop begins (%d or more consecutive frames below %.1f) and when it ends, with the drop in _meta.alert. Set a logging level of warning to get the same as notifications/message. Read %s for the open drop and the latest ones.
2. Call %s for the verdict (healthy, warning, critical, no_data) and its evidence whenever you report; vmaf_status also carries the verdict and the open drop.
3. For each drop, call %s with its first_frame and last_frame to name the cause (which extractor drove it, model/resolution mismatch).
4. If vmaf_status warns that the model does not fit the stream (for example a 4K model on small frames, whose scores saturate near 100), suggest vmaf_request_model_swap with a fitting model from vmaf_list_models; ask the user before swapping.
5. Note any frames_unpaired or frames_skipped growth: they mean frames are not being scored.
`, alertsURI, max(cfg.AlertFrames, 1), cfg.AlertThreshold, alertsURI, toolHealth, toolDiagnose)
}

// drainEvents waits, at most d, until the queued analytics events are
// handed over and every client's outbox is empty (a client that lags
// costs the wait), then a little more for the last write to leave.
func (s *Server) drainEvents(queued *atomic.Int64, d time.Duration) {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if queued.Load() == 0 && s.outboxesEmpty() {
			time.Sleep(10 * time.Millisecond)
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (s *Server) outboxesEmpty() bool {
	for _, sess := range s.snapshot(nil) {
		sess.out.mu.Lock()
		n := sess.out.queue.Len()
		sess.out.mu.Unlock()
		if n > 0 {
			return false
		}
	}
	return true
}
