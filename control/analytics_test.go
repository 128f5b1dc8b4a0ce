package control

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vmafsink/vmafsink/analytics"
)

// analyticsFake is a fake whose analytics have windows of 10 frames, a
// median, and drops of 3 frames below 80; it keeps the last keep full
// records (0: all).
func analyticsFake(t *testing.T, keep int) *fakeTarget {
	t.Helper()
	f := newFake()
	mon, err := analytics.New(analytics.Config{WindowFrames: 10, Percentiles: []float64{50}, AlertThreshold: 80, AlertFrames: 3})
	if err != nil {
		t.Fatal(err)
	}
	f.mon, f.keep = mon, keep
	return f
}

// dropScore is the fake stream's score: 95, and 50 for frames 40..49.
func dropScore(i int) float64 {
	if i >= 40 && i < 50 {
		return 50
	}
	return 95
}

func TestHealthAndStatus(t *testing.T) {
	f := analyticsFake(t, 0)
	s := startTest(t, f, Options{})
	cs, _ := connectTest(t, s, "2025-11-25")
	var st Status
	decode(t, callTool(t, cs, toolStatus, nil), &st)
	if st.Health != "no_data" || st.Alert != nil {
		t.Errorf("before any frame: health %q alert %+v", st.Health, st.Alert)
	}
	for i := range 45 {
		f.frame(dropScore(i))
	}
	decode(t, callTool(t, cs, toolStatus, nil), &st)
	if st.Health != "critical" || st.Alert == nil || st.Alert.FirstFrame != 40 || st.Alert.LastFrame != 44 || st.Alert.State != "begin" {
		t.Fatalf("in a drop: health %q alert %+v", st.Health, st.Alert)
	}
	var h Health
	decode(t, callTool(t, cs, toolHealth, nil), &h)
	if h.Verdict != "critical" || h.Active == nil || h.Active.Min != 50 || h.Threshold != 80 || h.AlertFrames != 3 || h.Scored != 45 {
		t.Errorf("health %+v", h)
	}
	if h.Current == nil || h.Current.Frames != 30 || h.Current.LastFrame != 44 || len(h.Worst) != 5 || h.Worst[0].Score != 50 || len(h.Reasons) == 0 {
		t.Errorf("evidence: current %+v worst %+v reasons %q", h.Current, h.Worst, h.Reasons)
	}
	for i := 45; i < 100; i++ {
		f.frame(dropScore(i))
	}
	h = Health{}
	decode(t, callTool(t, cs, toolHealth, nil), &h)
	if h.Verdict != "healthy" || h.Active != nil || h.LastDrop == nil || h.LastDrop.LastFrame != 49 || h.LastDrop.State != "end" || h.Window == nil || h.Window.LastFrame != 99 {
		t.Errorf("after recovery: %+v", h)
	}
}

func TestScoreRange(t *testing.T) {
	f := analyticsFake(t, 20)
	s := startTest(t, f, Options{})
	cs, _ := connectTest(t, s, "2025-11-25")
	for i := range 100 {
		f.frame(dropScore(i))
	}
	var sc Scores
	decode(t, callTool(t, cs, toolScore, map[string]any{"from": 30, "to": 89}), &sc)
	if len(sc.Records) != 60 || sc.History == nil || sc.History.ScoresOnly != 50 || sc.History.FullFrom != 80 || sc.History.KeptFrom != 0 || sc.History.NextFrom != nil {
		t.Fatalf("range 30..89: %d records, history %+v", len(sc.Records), sc.History)
	}
	for i, r := range sc.Records {
		full := r.Frame >= 80
		if r.Frame != int64(30+i) || r.Score != dropScore(int(r.Frame)) || full != (r.PTS >= 0) || full != (len(r.Features) > 0) || r.Model != "vmaf" {
			t.Errorf("record %d: %+v", i, r)
		}
	}
	if sc.Window == nil || sc.Window.FirstFrame != 90 || sc.Window.Mean != 95 || len(sc.Percentiles["vmaf"]) != 1 || sc.Percentiles["vmaf"][0].Value != 95 {
		t.Errorf("window %+v percentiles %+v", sc.Window, sc.Percentiles)
	}

	// Only from: up to maxRange frames from it; a range too long is cut
	// and says where to go on.
	sc = Scores{}
	decode(t, callTool(t, cs, toolScore, map[string]any{"from": 95}), &sc)
	if len(sc.Records) != 5 || sc.History.NextFrom != nil || sc.History.ScoresOnly != 0 {
		t.Errorf("from 95: %d records, %+v", len(sc.Records), sc.History)
	}
	sc = Scores{}
	decode(t, callTool(t, cs, toolScore, map[string]any{"from": 0, "to": 3 * maxRange}), &sc)
	if len(sc.Records) != 100 || sc.History.NextFrom == nil || *sc.History.NextFrom != maxRange || *sc.History.To != maxRange-1 {
		t.Errorf("long range: %d records, %+v", len(sc.Records), sc.History)
	}
	sc = Scores{}
	decode(t, callTool(t, cs, toolScore, map[string]any{"to": 9}), &sc)
	if len(sc.Records) != 10 || *sc.History.From != 0 {
		t.Errorf("to 9: %d records, %+v", len(sc.Records), sc.History)
	}
	// The latest records say what the history holds.
	sc = Scores{}
	decode(t, callTool(t, cs, toolScore, map[string]any{"last": 3}), &sc)
	if len(sc.Records) != 3 || sc.History == nil || sc.History.Frames != 100 || sc.History.KeptTo != 99 {
		t.Errorf("last 3: %+v", sc.History)
	}
	for _, bad := range []map[string]any{{"from": 5, "to": 4}, {"from": 1, "last": 2}, {"from": -1}} {
		res := callTool(t, cs, toolScore, bad)
		if !res.IsError || !strings.Contains(resultText(res), "bad_request") {
			t.Errorf("vmaf_score %v: %s", bad, resultText(res))
		}
	}
}

func TestDiagnoseTool(t *testing.T) {
	f := analyticsFake(t, 60)
	s := startTest(t, f, Options{})
	cs, _ := connectTest(t, s, "2025-11-25")
	for i := range 100 {
		f.frame(dropScore(i))
	}
	var d Diagnosis
	decode(t, callTool(t, cs, toolDiagnose, map[string]any{"from": 40, "to": 49}), &d)
	if d.Frames != 10 || d.Compared != 30 || d.ScoresOnly || d.Score.Inside != 50 || d.Score.Outside == nil || *d.Score.Outside != 95 {
		t.Fatalf("diagnosis %+v", d)
	}
	// The fake's integer_adm2 is score/100: ADM falls as the score does.
	if d.DrivenBy == nil || d.DrivenBy.Extractor != "integer_adm" || d.DrivenBy.ChangePct == nil || *d.DrivenBy.ChangePct > -47 {
		t.Errorf("driven by %+v", d.DrivenBy)
	}
	if len(d.Alerts) != 1 || d.Alerts[0].FirstFrame != 40 || d.Alerts[0].LastFrame != 49 || !strings.Contains(d.Summary, "integer_adm") {
		t.Errorf("alerts %+v summary %q", d.Alerts, d.Summary)
	}
	// Frames older than the full records kept: scores only.
	d = Diagnosis{}
	decode(t, callTool(t, cs, toolDiagnose, map[string]any{"from": 10, "to": 12}), &d)
	if !d.ScoresOnly || d.Frames != 3 || len(d.Components) != 0 || d.History.FullFrom != 40 {
		t.Errorf("old range %+v", d)
	}
	res := callTool(t, cs, toolDiagnose, map[string]any{"from": 0, "to": maxRange})
	if !res.IsError || !strings.Contains(resultText(res), "at most") {
		t.Errorf("too long a range: %s", resultText(res))
	}
}

func TestAlertSubscription(t *testing.T) {
	f := analyticsFake(t, 0)
	s := startTest(t, f, Options{})
	cs, ev := connectTest(t, s, "2025-11-25")
	ctx := context.Background()
	for _, uri := range []string{alertsURI, windowURI} {
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
			t.Fatal(err)
		}
	}
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "warning"}); err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		f.frame(dropScore(i))
	}
	count := func(uri string) (n int) {
		for _, u := range ev.updates {
			if u.URI == uri {
				n++
			}
		}
		return n
	}
	waitFor(t, time.Minute, "2 alert and 10 window notifications", func() bool {
		ev.mu.Lock()
		defer ev.mu.Unlock()
		return count(alertsURI) == 2 && count(windowURI) == 10 && len(ev.logs) == 1
	})
	ev.mu.Lock()
	var states []string
	for _, u := range ev.updates {
		if u.URI != alertsURI {
			continue
		}
		b, _ := json.Marshal(u.Meta["alert"])
		var a Alert
		if err := json.Unmarshal(b, &a); err != nil {
			t.Fatal(err)
		}
		states = append(states, a.State)
		if a.FirstFrame != 40 || a.Threshold != 80 {
			t.Errorf("alert %+v", a)
		}
	}
	// Only the begin reaches a client logging at warning; the end is info.
	if l := ev.logs[0]; l.Level != "warning" || l.Logger != "vmaf.alert" {
		t.Errorf("log %+v", l)
	}
	ev.mu.Unlock()
	if strings.Join(states, ",") != "begin,end" {
		t.Errorf("alert states %v", states)
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: alertsURI})
	if err != nil {
		t.Fatal(err)
	}
	var al Alerts
	if err := json.Unmarshal([]byte(rr.Contents[0].Text), &al); err != nil || len(al.Alerts) != 1 || al.Active != nil || al.Alerts[0].Frames != 10 || al.AlertFrames != 3 {
		t.Errorf("alerts resource %s (%v)", rr.Contents[0].Text, err)
	}
	rr, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: windowURI})
	var w Window
	if err != nil || json.Unmarshal([]byte(rr.Contents[0].Text), &w) != nil || w.FirstFrame != 90 || w.Frames != 10 || w.Percentiles[0].P != 50 {
		t.Errorf("window resource %v (%v)", rr, err)
	}
}

func TestMonitorPromptUsesAlerts(t *testing.T) {
	for _, tc := range []struct {
		f    *fakeTarget
		want string
	}{{analyticsFake(t, 0), alertsURI}, {newFake(), liveURI}} {
		s := startTest(t, tc.f, Options{})
		cs, _ := connectTest(t, s, "2025-11-25")
		res, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "monitor_stream"})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Messages[0].Content.(*mcp.TextContent).Text
		if !strings.Contains(text, "1. Subscribe to "+tc.want) {
			t.Errorf("prompt does not start with %s: %s", tc.want, text)
		}
	}
}

// TestAlertEndBeforeClose: a drop still open when the stream ends is
// ended by the monitor's Finish, and the host closing the server right
// after does not cut that end off.
func TestAlertEndBeforeClose(t *testing.T) {
	f := analyticsFake(t, 0)
	path := t.TempDir() + "/vmaf.sock"
	s, err := Start(path, f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs, ev := connectTest(t, s, "2025-11-25")
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: alertsURI}); err != nil {
		t.Fatal(err)
	}
	for _, sc := range []float64{95, 50, 50, 50} {
		f.frame(sc)
	}
	f.mon.Finish(analytics.NoTime)
	s.Close()
	cs.Wait() // what the server wrote before it closed has been read
	ev.mu.Lock()
	defer ev.mu.Unlock()
	var states []string
	for _, u := range ev.updates {
		b, _ := json.Marshal(u.Meta["alert"])
		var a Alert
		json.Unmarshal(b, &a)
		states = append(states, fmt.Sprintf("%s eos=%v", a.State, a.AtEOS))
	}
	if strings.Join(states, ",") != "begin eos=false,end eos=true" {
		t.Errorf("alerts seen before the close: %v", states)
	}
}

// TestStatusSubscriptionSeesVerdict: a change of verdict or of the open
// drop notifies vmaf://status subscribers, with no other change.
func TestStatusSubscriptionSeesVerdict(t *testing.T) {
	f := analyticsFake(t, 0)
	for range 40 {
		f.frame(95)
	}
	s := startTest(t, f, Options{})
	cs, ev := connectTest(t, s, "2025-11-25")
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: statusURI}); err != nil {
		t.Fatal(err)
	}
	// Changes count from the publisher's first look at the status.
	waitFor(t, time.Minute, "the publisher's first look", func() bool { return s.statusLooks.Load() > 0 })
	for range 3 {
		f.frame(50) // a drop opens: critical
	}
	waitFor(t, time.Minute, "status update", func() bool {
		ev.mu.Lock()
		defer ev.mu.Unlock()
		for _, u := range ev.updates {
			if u.URI == statusURI {
				return true
			}
		}
		return false
	})
}
