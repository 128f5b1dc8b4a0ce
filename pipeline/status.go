package pipeline

import (
	"time"

	"github.com/vmafsink/vmafsink/internal/ring"
	"github.com/vmafsink/vmafsink/report"
	"github.com/vmafsink/vmafsink/vmaf"
)

// State is a Runner's phase.
type State int

const (
	Running State = iota
	Paused
	Finished
)

func (s State) String() string {
	switch s {
	case Paused:
		return "paused"
	case Finished:
		return "finished"
	}
	return "running"
}

// Counters count frames by what became of them. Every received frame is
// eventually paired, unpaired, discarded, or still pending; every pair is
// scored, skipped, dropped, or still in flight.
type Counters struct {
	Received [2]uint64 // frames pushed, indexed by Side
	Unpaired [2]uint64 // frames released without a partner, indexed by Side
	Overflow uint64    // of Unpaired: pushed out of a full pending queue
	// Discarded counts frames released unpaired because their side
	// flushed, the Runner stopped or the run had finished, indexed by Side.
	Discarded [2]uint64
	Stalls    uint64 // times a full side gave up waiting for the other stream
	// LeadReleases counts the times a side waiting at MaxLead heard
	// nothing from the other stream and stopped waiting there.
	LeadReleases uint64
	// BlockHolds counts the times a side's pusher was held at a boundary
	// by a pause in PauseBlock mode, indexed by Side.
	BlockHolds [2]uint64
	Pairs      uint64 // pairs formed
	Scored     uint64 // results published
	Skipped    uint64 // pairs not scored because the Runner was paused
	Dropped    uint64 // pairs not scored because the scorer was saturated
}

// SwapEvent records one model swap.
type SwapEvent struct {
	ID       uint64
	Applied  time.Time   // when the swap took effect at a frame boundary
	From, To *vmaf.Model // the first model before and after
	// FirstIndex is the first pair scored by To, -1 until there is one.
	FirstIndex int
	// Superseded: a later swap took effect before To scored any pair, so
	// FirstIndex stays -1.
	Superseded bool
}

// Status is a snapshot of a Runner.
type Status struct {
	State        State
	PauseMode    PauseMode
	Pairing      Pairing
	Backpressure Backpressure
	Engine       string
	Started      time.Time
	Models       []*vmaf.Model // the models scoring from the next boundary on
	// ModelKeys are the names Models' outputs are pooled under (see
	// Runner.Pooled), one per model.
	ModelKeys []string
	Metrics   []string // what each record carries, once scoring started
	// Format is the stream's geometry and sample format (no planes), or
	// nil before the first pair.
	Format          *vmaf.Picture
	Counters        Counters
	Pending         [2]int // frames waiting for a partner, indexed by Side
	PendingHigh     [2]int // the most frames that have waited at once, indexed by Side
	LastIndex       int    // index of the last published record, -1 before any
	LastScore       float64
	CommandsPending int
	Swaps           []SwapEvent // oldest first, at most the last maxSwapHistory
}

const maxSwapHistory = 64

// stats is the part of a Runner's state that Status reads; its own lock
// keeps status queries off the pushers' lock.
type stats struct {
	started   time.Time
	state     State
	counters  Counters
	pending   [2]int
	high      [2]int
	lastIndex int
	lastScore float64
	models    []*vmaf.Model
	metrics   []string
	format    *vmaf.Picture
	swaps     *ring.Buffer[SwapEvent] // the last maxSwapHistory, oldest first
	pool      modelPool
	// drain is set while a pause waits for results of pairs scored before
	// it: Status says Running until the result of Context index drainTo
	// of scoring drain has been published (see Runner.pauseDrain).
	drain   *scoring
	drainTo int
	// published and publishedCtx are the scoring and Context index of the
	// last published record.
	published    *scoring
	publishedCtx int
}

// shownState is the state Status reports: a pause shows once the pairs
// scored before it have all been published, so that no record arrives
// after a status that said paused.
func (s *stats) shownState() State {
	if s.state == Paused && s.drain != nil {
		return Running
	}
	return s.state
}

// modelPool pools each model's outputs under its key (report.ModelKeys),
// so that a swap never averages two models under one name.
type modelPool struct {
	vmaf.Pool
	keys   report.ModelKeys
	pooled vmaf.Result // a result as pooled, reused
}

func (p *modelPool) Add(res *vmaf.Result) {
	ms, _, _ := p.keys.Rename(res.Index, res.Models, res.Metrics)
	p.pooled = vmaf.Result{Index: res.Index, Models: res.Models, Metrics: ms}
	p.Pool.Add(&p.pooled)
}

// modelKeys names the pooled outputs of models; a model not scored yet
// has its own name.
func (s *stats) modelKeys(models []*vmaf.Model) []string {
	out := make([]string, len(models))
	for i, m := range models {
		var ok bool
		if out[i], ok = s.pool.keys.Key(m); !ok {
			out[i] = m.Name
		}
	}
	return out
}

func (s *stats) addSwap(e SwapEvent) {
	if s.swaps == nil {
		s.swaps = ring.New[SwapEvent](maxSwapHistory)
	}
	s.swaps.PushDropOldest(e)
}

// swap returns the kept event of swap id, or nil.
func (s *stats) swap(id uint64) *SwapEvent {
	for i := range s.swapCount() {
		if e := s.swaps.At(i); e.ID == id {
			return e
		}
	}
	return nil
}

func (s *stats) swapCount() int {
	if s.swaps == nil {
		return 0
	}
	return s.swaps.Len()
}

func (s *stats) swapFirstIndex(id uint64, index int) {
	if e := s.swap(id); e != nil {
		e.FirstIndex = index
	}
}

func (s *stats) swapSuperseded(id uint64) {
	if e := s.swap(id); e != nil {
		e.Superseded = true
	}
}

func (s *stats) swapHistory() []SwapEvent {
	out := make([]SwapEvent, s.swapCount())
	for i := range out {
		out[i] = *s.swaps.At(i)
	}
	return out
}
