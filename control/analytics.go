package control

import (
	"time"

	"github.com/vmafsink/vmafsink/analytics"
)

// The wire forms of the run's analytics (package analytics): window
// records, quality drops and the health verdict.

// Window is one window record: statistics over a span of scored frames.
type Window struct {
	FirstFrame   int64        `json:"first_frame" jsonschema:"index of the window's first scored frame"`
	LastFrame    int64        `json:"last_frame" jsonschema:"index of the window's last scored frame"`
	StartNS      int64        `json:"start_ns" jsonschema:"running time of the first frame in nanoseconds, -1 when unknown"`
	EndNS        int64        `json:"end_ns" jsonschema:"running time of the last frame in nanoseconds, -1 when unknown"`
	Frames       int          `json:"frames" jsonschema:"scored frames in the window"`
	Mean         float64      `json:"mean" jsonschema:"mean VMAF score"`
	HarmonicMean float64      `json:"harmonic_mean" jsonschema:"harmonic mean as libvmaf computes it: n / sum(1/(x+1)) - 1"`
	Min          float64      `json:"min"`
	Max          float64      `json:"max"`
	Percentiles  []Percentile `json:"percentiles,omitempty" jsonschema:"the configured percentiles of the window's scores (nearest rank, exact)"`
	Model        string       `json:"model" jsonschema:"key the window's last frame is pooled under (the results file's pooled_metrics name)"`
}

// Percentile is one percentile of the per-frame score.
type Percentile struct {
	P     float64 `json:"p" jsonschema:"the percentile, 0 to 100"`
	Value float64 `json:"value" jsonschema:"the score at that percentile (nearest rank)"`
}

// Alert is a quality drop: alert_frames or more consecutive scored
// frames below the threshold.
type Alert struct {
	ID         uint64  `json:"id" jsonschema:"drop number in this run, from 1"`
	State      string  `json:"state" jsonschema:"begin (the drop is open) or end (quality recovered or the stream ended)"`
	FirstFrame int64   `json:"first_frame" jsonschema:"index of the drop's first low frame"`
	LastFrame  int64   `json:"last_frame" jsonschema:"index of its latest low frame (grows while the drop is open)"`
	StartNS    int64   `json:"start_ns" jsonschema:"running time of the first low frame in nanoseconds, -1 when unknown"`
	EndNS      int64   `json:"end_ns" jsonschema:"running time of the last low frame (for a drop ended by the end of stream, the stream's end) in nanoseconds, -1 when unknown"`
	Frames     int     `json:"frames" jsonschema:"low frames in the drop"`
	Min        float64 `json:"min" jsonschema:"lowest score in the drop"`
	Mean       float64 `json:"mean" jsonschema:"mean score over the drop's frames"`
	Threshold  float64 `json:"threshold" jsonschema:"the alert threshold: frames below it are low"`
	Model      string  `json:"model" jsonschema:"key the drop's latest frame is pooled under"`
	AtEOS      bool    `json:"at_eos,omitempty" jsonschema:"the drop ended because the stream ended, not because quality recovered"`
}

// Health is the reply of vmaf_health: a verdict with its evidence.
type Health struct {
	Verdict     string   `json:"verdict" jsonschema:"healthy, warning, critical (a drop is open) or no_data (nothing scored yet)"`
	Reasons     []string `json:"reasons" jsonschema:"plain sentences that justify the verdict"`
	Threshold   float64  `json:"threshold" jsonschema:"the alert threshold; 0 when alerts are off (the verdict is then healthy or no_data)"`
	AlertFrames int      `json:"alert_frames,omitempty" jsonschema:"consecutive low frames that make a drop"`
	Current     *Window  `json:"current,omitempty" jsonschema:"statistics over the recent frames the verdict looks at: the last max(alert_frames, 30) scored frames"`
	Window      *Window  `json:"window,omitempty" jsonschema:"the latest window record, when windows are on"`
	Active      *Alert   `json:"active,omitempty" jsonschema:"the open drop, if any"`
	LastDrop    *Alert   `json:"last_drop,omitempty" jsonschema:"the latest drop that ended, if any"`
	Worst       []Record `json:"worst,omitempty" jsonschema:"the 5 lowest-scoring frames among the recent ones (frame, model, score)"`
	Scored      int      `json:"frames_scored" jsonschema:"frames the analytics have seen"`
}

// Alerts is the content of vmaf://alerts.
type Alerts struct {
	Active      *Alert  `json:"active,omitempty" jsonschema:"the open drop, if any"`
	Alerts      []Alert `json:"alerts" jsonschema:"the latest drops, oldest first (at most 100), the open one last"`
	Threshold   float64 `json:"threshold" jsonschema:"the alert threshold; 0 when alerts are off"`
	AlertFrames int     `json:"alert_frames,omitempty" jsonschema:"consecutive low frames that make a drop"`
}

func nanos(d time.Duration) int64 {
	if d < 0 {
		return -1
	}
	return int64(d)
}

func wirePercentiles(ps []analytics.Percentile) []Percentile {
	if len(ps) == 0 {
		return nil
	}
	out := make([]Percentile, 0, len(ps))
	for _, p := range ps {
		if finite(p.Value) {
			out = append(out, Percentile{P: p.P, Value: p.Value})
		}
	}
	return out
}

func wireWindow(w *analytics.Window) *Window {
	if w == nil {
		return nil
	}
	return &Window{FirstFrame: int64(w.First), LastFrame: int64(w.Last), StartNS: nanos(w.Start), EndNS: nanos(w.End),
		Frames: w.Frames, Mean: fin(w.Mean), HarmonicMean: fin(w.HarmonicMean), Min: fin(w.Min), Max: fin(w.Max),
		Percentiles: wirePercentiles(w.Percentiles), Model: w.Model}
}

func wireAlert(a *analytics.Alert) *Alert {
	if a == nil {
		return nil
	}
	return &Alert{ID: a.ID, State: a.State.String(), FirstFrame: int64(a.First), LastFrame: int64(a.Last),
		StartNS: nanos(a.Start), EndNS: nanos(a.End), Frames: a.Frames, Min: fin(a.Min), Mean: fin(a.Mean),
		Threshold: a.Threshold, Model: a.Model, AtEOS: a.AtEOS}
}

// scoreOnly is a record from the score history: no timestamp, no features.
// scoreOnly names the model as full records do, by its label.
func scoreOnly(s analytics.Sample) Record {
	model := s.Label
	if model == "" {
		model = s.Model
	}
	return Record{Frame: int64(s.Index), PTS: -1, Model: model, Score: fin(s.Score)}
}

func wireHealth(m *analytics.Monitor) Health {
	h := m.Health()
	cfg := m.Config()
	out := Health{Verdict: string(h.Verdict), Reasons: h.Reasons, Threshold: h.Threshold,
		Current: wireWindow(h.Current), Window: wireWindow(h.Window), Active: wireAlert(h.Active), LastDrop: wireAlert(h.LastDrop),
		Scored: m.Scored()}
	if cfg.AlertThreshold > 0 {
		out.AlertFrames = max(cfg.AlertFrames, 1)
	}
	for _, s := range h.Worst {
		out.Worst = append(out.Worst, scoreOnly(s))
	}
	if out.Reasons == nil {
		out.Reasons = []string{}
	}
	return out
}
