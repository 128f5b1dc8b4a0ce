package analytics

import "time"

// Sample is one scored frame's primary score (the first model's).
type Sample struct {
	Index       int           // pipeline record index (gaps where frames were not scored)
	RunningTime time.Duration // NoTime when unknown
	Model       string        // key the score is pooled under (report.ModelKeys naming)
	// Label names the model as records do (e.g. vmaf_v0.6.1); "" when
	// the host has no other name for it than Model.
	Label string
	Score float64
}

// Percentile is one percentile's value.
type Percentile struct {
	P     float64 `json:"p"`
	Value float64 `json:"value"`
}

// Window is one window record.
type Window struct {
	First, Last int           // first and last frame index in the window
	Start, End  time.Duration // running time of the first and last frame (NoTime when unknown)
	Frames      int           // scored frames in it
	Mean        float64
	// HarmonicMean is libvmaf's: n / Σ 1/(x+1) − 1.
	HarmonicMean float64
	Min, Max     float64
	Percentiles  []Percentile // Config.Percentiles, exact (nearest-rank) over the window's scores
	Model        string       // model of the window's last frame
}

// AlertState says whether an Alert event opens or closes a drop.
type AlertState int

const (
	AlertBegin AlertState = iota
	AlertEnd
)

func (s AlertState) String() string {
	if s == AlertEnd {
		return "end"
	}
	return "begin"
}

// Alert is a quality drop: AlertFrames or more consecutive scored frames
// below AlertThreshold.
type Alert struct {
	ID          uint64 // 1, 2, ... per run
	State       AlertState
	First, Last int // first and last low frame index (Last grows while open)
	// Start and End are the running times of the first and last low
	// frame; for a drop ended by the end of stream, End is the stream's
	// end when Finish was given it.
	Start, End time.Duration
	Frames     int     // low frames in the drop
	Min, Mean  float64 // over the drop's frames
	Threshold  float64
	Model      string // model of the drop's latest frame
	AtEOS      bool   // ended because the stream ended, not because quality recovered
}

// Event is what Subscribe delivers: exactly one of Window and Alert is set.
type Event struct {
	Window *Window
	Alert  *Alert
}

// Verdict is Health's summary.
type Verdict string

const (
	Healthy  Verdict = "healthy"
	Warning  Verdict = "warning"
	Critical Verdict = "critical"
	NoData   Verdict = "no_data"
)

// Health is a verdict with its evidence (see the package doc for the rules).
type Health struct {
	Verdict  Verdict
	Reasons  []string // plain sentences that justify the verdict
	Window   *Window  // latest window record, if any
	Current  *Window  // the last max(AlertFrames, 30) scored frames, when any
	Active   *Alert   // the open drop, if any
	LastDrop *Alert   // the latest closed drop, if any
	Worst    []Sample // the 5 lowest scores among Current's frames, lowest first
	// Threshold is Config.AlertThreshold (0: alerts off).
	Threshold float64
}
