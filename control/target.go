package control

import (
	"context"
	"time"

	"github.com/vmafsink/vmafsink/analytics"
)

// Target is the measurement a Server exposes. Its methods are called from
// MCP handler goroutines, never from a streaming thread, and must be safe
// for concurrent use. Snapshot methods must not block on scoring.
type Target interface {
	// Status is a snapshot of the run's state and counters.
	Status() Status
	// Features describes the active feature extractors.
	Features() Features
	// Scores returns up to last recent records (newest last), up to worst
	// lowest-scoring records so far, and the pooled statistics.
	Scores(last, worst int) Scores
	// Models lists the models a swap may name. It must return once ctx
	// ends: the client may cancel, and the server sets a deadline.
	Models(ctx context.Context) (ModelList, error)

	// RequestSwap loads and validates a model (in the calling goroutine) and
	// queues the swap for the next frame boundary. It returns once the
	// command is queued; errors are *Error values where a code applies.
	RequestSwap(ctx context.Context, model, name string) (Command, error)
	// DescribeModel resolves and loads a model as RequestSwap does, with
	// the same refusals, and describes it; nothing is queued.
	DescribeModel(ctx context.Context, model string) (ModelDescription, error)
	// Pause and Resume queue the command for the next frame boundary.
	Pause(ctx context.Context) (Command, error)
	Resume(ctx context.Context) (Command, error)
	// Wait blocks until the command with this id was applied or failed,
	// or ctx ends.
	Wait(ctx context.Context, id uint64) (Command, error)

	// Records delivers each scored frame's record until ctx ends. The
	// target must never block a streaming thread on the channel: when the
	// receiver falls behind it drops the oldest records (the next
	// Record.Dropped says how many).
	Records(ctx context.Context) <-chan Record

	// Analytics is the run's monitor: windows, percentiles, quality
	// drops, health and every scored frame's score. Never nil.
	Analytics() *analytics.Monitor
	// Range returns the full records of frames from..to that are still
	// kept (the recent span), oldest first, at most max of them.
	Range(from, to int64, max int) []Record
}

// Run states.
const (
	StateIdle     = "idle"     // no frames yet (waiting for caps or data)
	StateRunning  = "running"  // scoring
	StatePaused   = "paused"   // paused at a frame boundary
	StateFinished = "finished" // end of stream reached
)

// Pause modes.
const (
	PauseSkip  = "skip"  // frames flow on and are counted as skipped
	PauseBlock = "block" // streaming threads wait, back-pressuring upstream
)

// Command statuses.
const (
	CommandEnqueued = "enqueued"
	CommandApplied  = "applied"
	CommandFailed   = "failed"
)

// Status is the reply of vmaf_status and the content of vmaf://status.
type Status struct {
	State           string      `json:"state" jsonschema:"idle, running, paused or finished"`
	PauseMode       string      `json:"pause_mode" jsonschema:"skip (frames are counted as skipped while paused) or block (the pipeline is held while paused)"`
	Model           string      `json:"model" jsonschema:"name of the model scoring frames now"`
	Models          []string    `json:"models,omitempty" jsonschema:"every active model's name when several are configured"`
	Engine          string      `json:"engine" jsonschema:"scoring engine asked for: auto, native or libvmaf (engine_used says which runs)"`
	EngineUsed      string      `json:"engine_used,omitempty" jsonschema:"scoring engine that runs: native or libvmaf"`
	Version         string      `json:"version,omitempty" jsonschema:"the build's version, as in the server's serverInfo"`
	Width           int         `json:"width" jsonschema:"frame width in pixels (0 before the first frame)"`
	Height          int         `json:"height" jsonschema:"frame height in pixels"`
	Format          string      `json:"format" jsonschema:"pixel format, e.g. I420 or I420_10LE"`
	FramesReceived  uint64      `json:"frames_received" jsonschema:"frame pairs received"`
	FramesScored    uint64      `json:"frames_scored" jsonschema:"frame pairs scored"`
	FramesSkipped   uint64      `json:"frames_skipped" jsonschema:"frame pairs passed over while paused in skip mode or subsampled"`
	FramesUnpaired  uint64      `json:"frames_unpaired" jsonschema:"frames that found no partner on the other pad"`
	FramesDropped   uint64      `json:"frames_dropped" jsonschema:"frame pairs not scored because scoring fell behind a live source (backpressure=drop)"`
	LastFrame       int64       `json:"last_frame" jsonschema:"index of the last scored frame, -1 before any"`
	LastScore       *float64    `json:"last_score,omitempty" jsonschema:"score of the last scored frame"`
	CommandsPending int         `json:"commands_pending" jsonschema:"commands queued for the next frame boundary"`
	Swaps           []SwapEvent `json:"swaps" jsonschema:"the latest model swaps applied, oldest first (at most 16)"`
	SwapsOmitted    int         `json:"swaps_omitted,omitempty" jsonschema:"earlier swaps left out of swaps"`
	UptimeSeconds   float64     `json:"uptime_seconds" jsonschema:"seconds since the measurement started"`
	Socket          string      `json:"socket" jsonschema:"path of this control socket"`
	Warnings        []string    `json:"warnings,omitempty" jsonschema:"conditions an operator should act on, e.g. a model meant for another resolution"`
	Health          string      `json:"health,omitempty" jsonschema:"health verdict: healthy, warning, critical or no_data (see vmaf_health for the evidence)"`
	Alert           *Alert      `json:"alert,omitempty" jsonschema:"the open quality drop, if any"`
	Sweep           *Sweep      `json:"sweep,omitempty" jsonschema:"for an encoding sweep (vmaf-tune): the probe whose frames are scored now; the frames and records are its"`
}

// Sweep is an encoding sweep's progress: the run scores one encode (a
// probe) after another, each a stream of its own.
type Sweep struct {
	Command    string      `json:"command" jsonschema:"the sweep: crf-search, compare, ladder or per-shot"`
	ProbesDone int         `json:"probes_done" jsonschema:"probes scored to their end here so far"`
	Probe      *SweepProbe `json:"probe,omitempty" jsonschema:"the probe being scored; absent between probes"`
}

// SweepProbe is the probe a sweep scores now.
type SweepProbe struct {
	Number       int     `json:"number" jsonschema:"the sweep's probe number, from 1"`
	Encoder      string  `json:"encoder" jsonschema:"FFmpeg encoder, as NAME:PRESET when a preset is set"`
	CRF          float64 `json:"crf"`
	Resolution   string  `json:"resolution" jsonschema:"the encode's WIDTHxHEIGHT; frames are scored at the source's"`
	Frames       int     `json:"frames" jsonschema:"the probe's frames"`
	FramesScored int     `json:"frames_scored" jsonschema:"its frames scored so far"`
	FirstFrame   int64   `json:"first_frame" jsonschema:"index of its first frame in vmaf_score's records (-1 before one is scored): later records are this probe's"`
}

// SwapEvent records one applied model swap.
type SwapEvent struct {
	Command    uint64    `json:"command" jsonschema:"id of the command that asked for the swap"`
	FirstFrame int64     `json:"first_frame" jsonschema:"index of the first frame scored by the new model"`
	Time       time.Time `json:"time" jsonschema:"when the swap was applied (RFC 3339)"`
	From       string    `json:"from" jsonschema:"model name before the swap"`
	To         string    `json:"to" jsonschema:"model name after the swap"`
	Superseded bool      `json:"superseded,omitempty" jsonschema:"a later swap took effect before this one scored a frame (first_frame stays -1)"`
}

// Features is the reply of vmaf_features.
type Features struct {
	Extractors []Extractor      `json:"extractors" jsonschema:"feature extractors the run computes: those the active models need and those the extra-metric requests ask for"`
	Extra      []string         `json:"extra" jsonschema:"extra-metric requests besides the models' features, in libvmaf's --feature grammar, e.g. psnr or cambi=full_ref=true"`
	Requests   []FeatureRequest `json:"requests,omitempty" jsonschema:"each extra-metric request read: its extractor and the options it sets"`
}

// Extractor is one active feature extractor.
type Extractor struct {
	Name    string             `json:"name" jsonschema:"extractor name, e.g. integer_adm"`
	Outputs []string           `json:"outputs,omitempty" jsonschema:"feature names it produces (for a request, known once the first frame is scored)"`
	Options map[string]float64 `json:"options,omitempty" jsonschema:"non-default numeric and boolean (1 or 0) options, e.g. adm_enhn_gain_limit for NEG models"`
	Request string             `json:"request,omitempty" jsonschema:"the extra-metric request (see extra) this extractor computes, when one asked for it"`
}

// FeatureRequest is one extra-metric request as the run read it.
type FeatureRequest struct {
	Request   string            `json:"request" jsonschema:"as given, NAME or NAME=option=value:option=value"`
	Extractor string            `json:"extractor" jsonschema:"the extractor it names, as in extractors"`
	Options   map[string]string `json:"options,omitempty" jsonschema:"the options it sets, as given"`
}

// ExtractorList is the reply of vmaf_list_extractors.
type ExtractorList struct {
	Extractors []ExtractorInfo `json:"extractors" jsonschema:"every extractor this build computes natively, by name"`
}

// ExtractorInfo describes one extractor a feature request may name.
type ExtractorInfo struct {
	Name    string            `json:"name" jsonschema:"libvmaf's extractor name, what a feature request names (e.g. cambi, float_vif, psnr)"`
	Outputs []string          `json:"outputs" jsonschema:"metrics it reports at default options on a 4:2:0 stream"`
	Options []ExtractorOption `json:"options,omitempty" jsonschema:"the options it takes, as NAME=option=value"`
}

// ExtractorOption is one option of an extractor.
type ExtractorOption struct {
	Name        string   `json:"name"`
	Type        string   `json:"type" jsonschema:"bool, int, double or string"`
	Default     string   `json:"default"`
	Min         *float64 `json:"min,omitempty" jsonschema:"least value of an int or double option"`
	Max         *float64 `json:"max,omitempty" jsonschema:"greatest value of an int or double option"`
	Renames     bool     `json:"renames,omitempty" jsonschema:"a value other than the default renames the outputs, as libvmaf does (e.g. integer_adm2_egl_1)"`
	DefaultOnly bool     `json:"default_only,omitempty" jsonschema:"only the default value is supported; another is refused"`
}

// Record is one scored frame.
type Record struct {
	Frame    int64              `json:"frame" jsonschema:"frame index, counting every pair from 0"`
	PTS      int64              `json:"pts_ns" jsonschema:"presentation timestamp in nanoseconds, -1 when unknown"`
	Model    string             `json:"model" jsonschema:"name of the model that scored this frame"`
	Score    float64            `json:"score" jsonschema:"the model's score for this frame"`
	Features map[string]float64 `json:"features,omitempty" jsonschema:"feature values and extra metrics for this frame"`
	// Dropped counts records the target dropped for this subscriber
	// before this one; it is not part of the wire record.
	Dropped uint64 `json:"-"`
}

// Pooled is a running statistic over the scored frames.
type Pooled struct {
	Name         string  `json:"name" jsonschema:"metric name"`
	Count        int     `json:"count" jsonschema:"frames pooled"`
	Min          float64 `json:"min"`
	Max          float64 `json:"max"`
	Mean         float64 `json:"mean"`
	HarmonicMean float64 `json:"harmonic_mean"`
}

// Scores is the reply of vmaf_score.
type Scores struct {
	Records []Record `json:"records" jsonschema:"the latest records, oldest first"`
	Worst   []Record `json:"worst,omitempty" jsonschema:"lowest-scoring frames so far, worst first"`
	Pooled  []Pooled `json:"pooled" jsonschema:"running pooled statistics per metric"`
	Capped  *Capped  `json:"capped,omitempty" jsonschema:"present when fewer records came back than last asked for although more frames were scored"`
	// Window, Percentiles and History are the server's to fill in.
	Window      *Window                 `json:"window,omitempty" jsonschema:"the latest window record, when windows are on"`
	Percentiles map[string][]Percentile `json:"percentiles,omitempty" jsonschema:"whole-run percentiles of the per-frame score per model key, when configured (exact to 0.001)"`
	History     *ScoreHistory           `json:"history,omitempty" jsonschema:"which frames' scores are kept, which in full, and for a from/to request which records are scores-only"`
	// EngineUsed and Version are the server's to fill in.
	EngineUsed string `json:"engine_used,omitempty" jsonschema:"scoring engine that produced these scores: native or libvmaf"`
	Version    string `json:"version,omitempty" jsonschema:"the build's version"`
}

// Capped says that a vmaf_score reply holds fewer records than asked.
type Capped struct {
	Asked    int    `json:"asked" jsonschema:"records asked for (last)"`
	Returned int    `json:"returned" jsonschema:"records returned"`
	Reason   string `json:"reason" jsonschema:"why"`
}

// ModelList is the reply of vmaf_list_models.
type ModelList struct {
	Models []ModelInfo `json:"models"`
	Dirs   []string    `json:"dirs" jsonschema:"directories searched for model files (the model-dirs property)"`
}

// ModelInfo describes one model a swap may name.
type ModelInfo struct {
	Name     string   `json:"name" jsonschema:"what to pass as model to vmaf_request_model_swap"`
	Source   string   `json:"source" jsonschema:"builtin or file"`
	Path     string   `json:"path,omitempty" jsonschema:"file path for file models"`
	Features []string `json:"features,omitempty" jsonschema:"features the model needs"`
	Error    string   `json:"error,omitempty" jsonschema:"why the file cannot be used, if it cannot"`
}

// Command is the state of one queued command.
type Command struct {
	ID     uint64 `json:"id" jsonschema:"command id"`
	Kind   string `json:"kind" jsonschema:"swap, pause or resume"`
	Status string `json:"status" jsonschema:"enqueued, applied or failed"`
	// Frame is the first frame the command affects once applied.
	Frame int64  `json:"frame" jsonschema:"first frame index the command affects once applied, -1 until then"`
	Model string `json:"model,omitempty" jsonschema:"for swaps: the new model's name"`
	Error string `json:"error,omitempty" jsonschema:"why the command failed"`
	// MismatchedModelWarning is set by the target when a swapped-in
	// model does not suit the stream (see vmaf_describe_model).
	MismatchedModelWarning string `json:"mismatched_model_warning,omitempty" jsonschema:"for swaps: why the new model may not suit the stream (e.g. a 4K model on small frames); the swap still goes ahead"`
	// EngineUsed and Version are the server's to fill in.
	EngineUsed string `json:"engine_used,omitempty" jsonschema:"scoring engine that runs: native or libvmaf"`
	Version    string `json:"version,omitempty" jsonschema:"the build's version"`
}
