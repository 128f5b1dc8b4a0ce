package pipeline

import (
	"fmt"
	"time"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/vmaf"
)

// Backpressure selects what a pusher does when the scorer is saturated.
type Backpressure int

const (
	// Block makes the pusher wait until the scorer takes the pair, which
	// slows upstream to scoring speed: no frame is lost.
	Block Backpressure = iota
	// Drop discards the pair and counts it, so upstream never waits on
	// scoring: right for live sources that must not stall.
	Drop
)

func (b Backpressure) String() string {
	if b == Drop {
		return "drop"
	}
	return "block"
}

// ParseBackpressure reads "block" or "drop".
func ParseBackpressure(s string) (Backpressure, error) {
	switch s {
	case "block":
		return Block, nil
	case "drop":
		return Drop, nil
	}
	return 0, fmt.Errorf("pipeline: unknown backpressure %q (want block or drop)", s)
}

// PauseMode selects what a paused Runner does with the frames it receives.
type PauseMode int

const (
	// PauseSkip keeps frames flowing and counts the pairs as skipped.
	PauseSkip PauseMode = iota
	// PauseBlock holds the pushers until resume, so back-pressure pauses
	// the whole upstream pipeline.
	PauseBlock
)

func (m PauseMode) String() string {
	if m == PauseBlock {
		return "block"
	}
	return "skip"
}

// ParsePauseMode reads "skip" or "block".
func ParsePauseMode(s string) (PauseMode, error) {
	switch s {
	case "skip":
		return PauseSkip, nil
	case "block":
		return PauseBlock, nil
	}
	return 0, fmt.Errorf("pipeline: unknown pause mode %q (want skip or block)", s)
}

// Defaults for the zero values of Config's bounds.
const (
	// DefaultMaxPending covers the default latency of a live x264enc →
	// decoder branch (rc-lookahead 40 plus frame threads and decoder
	// delay) with room to spare.
	DefaultMaxPending = 120
	// DefaultPendingTimeout is long enough for any real stream to deliver
	// a frame, short enough for a live source to recover.
	DefaultPendingTimeout = time.Second
	// DefaultMaxLead lets a side run a few frames ahead of the other, so
	// that two independent sources rarely wait on each other.
	DefaultMaxLead = 8
	// DefaultLeadProbe is the shortest time a side over MaxLead waits for
	// the other stream before concluding that the other stream needs its
	// frames first.
	DefaultLeadProbe = 500 * time.Millisecond
	// DefaultMaxHeld bounds the waiting frames per side that keep memory
	// from a bounded upstream pool; the rest are copied, so small pools
	// never run dry.
	DefaultMaxHeld = 8
	// DefaultCommandQueue bounds the commands waiting for a frame boundary.
	DefaultCommandQueue = 16
	// DefaultRecent is how many records Recent can return.
	DefaultRecent = 256
)

// Config configures a Runner.
type Config struct {
	// Scorer configures the vmaf.Context the Runner scores with; its
	// OnResult is the Runner's own and must be nil. A new Context with
	// the same configuration (and the current models) starts whenever
	// the stream's format changes.
	Scorer vmaf.Config

	// NoReference: both sides carry the same distorted picture, so only
	// no-reference models may score it; a swap to any other is refused.
	NoReference bool

	Pairing      Pairing
	Backpressure Backpressure
	PauseMode    PauseMode
	// PauseBlockLimit bounds how long a pause in PauseBlock mode holds a
	// pusher (0: no bound). Past it the Runner resumes by itself and
	// calls OnPauseExpired: no frame is lost, and a host that can only
	// stop by draining its streams (EOS queued behind the held frames)
	// is never stuck behind a pause.
	PauseBlockLimit time.Duration
	// OnPauseExpired, if set, is called with the index of the next pair
	// when PauseBlockLimit ends a pause, on the pusher's goroutine with
	// the Runner's lock held: it must not call Push.
	OnPauseExpired func(next int)
	// OnApplied, if set, is called when a pause, resume or swap takes
	// effect, with the index of the next pair, on the pusher's goroutine
	// with the Runner's lock held: hosts log it (it must not call Push).
	OnApplied func(kind CommandKind, next int)
	// OnDropped, if set, is called for each pair Backpressure Drop drops,
	// with its index, its timing and the counters that count it, on the
	// pusher's goroutine with the Runner's lock held: hosts report the
	// loss (it must not call Push).
	OnDropped func(index int, t Timing, c Counters)
	// Unplayed, if set, reports whether the host's sink holds the
	// reference's newest frame without having played it (GStreamer: a
	// preroll in PAUSED, no step under way). A pair completed with that
	// frame is kept aside unscored until the frame is played (Unplayed
	// turns false, or the reference pushes its next frame), and a flush
	// of the reference forgets it, as a sink discards its preroll. It is
	// called with the Runner's lock held: it must not call the Runner.
	Unplayed func() bool

	// MaxPending bounds the frames waiting for a partner on each side
	// (0: DefaultMaxPending). A side whose queue is full waits for the
	// other stream to catch up, which keeps independent sources in step.
	// If the other stream delivers nothing for PendingTimeout, as when
	// both come from one tee and the other branch's latency exceeds the
	// queue, the side stops waiting: its oldest frame is released and
	// counted as unpaired for every new one, until the other stream
	// delivers again. Memory stays bounded and the tee cannot deadlock.
	MaxPending int
	// PendingTimeout is how long a full side waits for the other stream
	// (0: DefaultPendingTimeout).
	PendingTimeout time.Duration
	// MaxLead is how many frames a side may have waiting before it waits
	// for the other stream (0: DefaultMaxLead; negative, or MaxPending or
	// more: only MaxPending applies). Independent sources, such as two
	// files, then stay within MaxLead frames of each other instead of one
	// running MaxPending frames ahead for the whole run, holding that many
	// frames of memory. When the other stream needs this side's frames to
	// make its own (a tee whose other branch encodes with a latency of
	// more frames than MaxLead), it delivers nothing while this side
	// waits: after LeadProbe (or four of the other stream's latest
	// intervals between frames, if longer) the side stops waiting at
	// MaxLead until the next flush, and only MaxPending applies.
	MaxLead int
	// LeadProbe is the shortest wait at MaxLead (0: DefaultLeadProbe).
	LeadProbe time.Duration
	// MaxHeld is how many of a side's waiting frames may keep memory from
	// a bounded pool (see Frame.HoldLimit) before later ones are copied
	// into memory the Runner owns and the host's is released
	// (0: DefaultMaxHeld; negative: never copy).
	MaxHeld int
	// CommandQueue bounds the queued commands (0: DefaultCommandQueue).
	CommandQueue int
	// Recent is how many of the latest records are kept for Recent
	// (0: DefaultRecent).
	Recent int
	// WorstFrames is how many of the lowest-scoring frames so far keep
	// downscaled copies of their pictures for Worst (0: none; at most
	// MaxWorstRecords). When on, a scored pair's frames go back to the
	// host when its score is known, one frame later; frames from a
	// bounded pool (HoldLimit) are copied instead (see worst.go).
	WorstFrames int
	// Analytics configures the Runner's analytics.Monitor (see
	// Runner.Analytics): windows, percentiles, alerts and the score
	// history. The zero value keeps the history only.
	Analytics analytics.Config

	// newScorer replaces vmaf.NewContext in tests.
	newScorer func(vmaf.Config) (scorer, error)
}

func (c *Config) withDefaults() (Config, error) {
	d := *c
	if d.Scorer.OnResult != nil {
		return d, fmt.Errorf("pipeline: Config.Scorer.OnResult must be nil; subscribe to the Runner instead")
	}
	if len(d.Scorer.Models) == 0 {
		return d, fmt.Errorf("pipeline: no model configured")
	}
	if d.MaxPending < 0 || d.CommandQueue < 0 || d.Recent < 0 {
		return d, fmt.Errorf("pipeline: negative bound in config (max pending %d, command queue %d, recent %d)", d.MaxPending, d.CommandQueue, d.Recent)
	}
	if err := d.Analytics.Validate(); err != nil {
		return d, fmt.Errorf("pipeline: %w", err)
	}
	if d.WorstFrames < 0 || d.WorstFrames > MaxWorstRecords {
		return d, fmt.Errorf("pipeline: worst frames %d out of range (0 to %d)", d.WorstFrames, MaxWorstRecords)
	}
	d.MaxPending = orDefault(d.MaxPending, DefaultMaxPending)
	d.MaxHeld = orDefault(d.MaxHeld, DefaultMaxHeld)
	if d.MaxHeld < 0 {
		d.MaxHeld = d.MaxPending
	}
	d.CommandQueue = orDefault(d.CommandQueue, DefaultCommandQueue)
	if d.MaxLead == 0 {
		d.MaxLead = DefaultMaxLead
	}
	if d.MaxLead < 0 || d.MaxLead > d.MaxPending {
		d.MaxLead = d.MaxPending
	}
	if d.LeadProbe <= 0 {
		d.LeadProbe = DefaultLeadProbe
	}
	if d.PendingTimeout <= 0 {
		d.PendingTimeout = DefaultPendingTimeout
	}
	d.Recent = orDefault(d.Recent, DefaultRecent)
	d.Scorer.Threads = max(d.Scorer.Threads, 1)
	d.Scorer.Subsample = max(d.Scorer.Subsample, 1)
	if d.newScorer == nil {
		d.newScorer = func(cfg vmaf.Config) (scorer, error) { return vmaf.NewContext(cfg) }
	}
	return d, nil
}

func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// scorer is the part of *vmaf.Context a Runner uses.
type scorer interface {
	Submit(ref, dist *vmaf.Picture, release func()) error
	Skip(ref, dist *vmaf.Picture, release func()) error
	SetModels(models []*vmaf.Model) error
	Flush() error
	Close()
	MetricNames() []string
	Aggregates() []vmaf.Metric
}
