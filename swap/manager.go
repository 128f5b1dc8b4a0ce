package swap

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/vmafsink/vmafsink/vmaf"
)

// State is where a swap stands.
type State int

const (
	Preparing  State = iota // resolving and loading the model
	Validating              // checking the engine can compute its features
	Ready                   // validated and queued for the next frame boundary
	Applied                 // scoring frames from FirstFrame on
	Failed                  // refused; Err says why
)

func (s State) String() string {
	return [...]string{"preparing", "validating", "ready", "applied", "failed"}[s]
}

// Ticket follows a queued swap in the scorer: Done closes when it took
// effect (FirstIndex: the first frame the new model scored, -1 if the
// stream ended first) or failed (Err).
type Ticket interface {
	Done() <-chan struct{}
	FirstIndex() int
	Err() error
}

// Queue hands a ready model to the scorer for its next frame boundary.
// It must not block on the stream; a full queue is an error.
type Queue func(m *vmaf.Model) (id uint64, t Ticket, err error)

// Swap is a snapshot of one swap request.
type Swap struct {
	ID         uint64 // the scorer's command id once queued, else 0
	Request    string // the model as requested
	Spec       string // the resolved spec
	Name       string // the new model's metric name
	Version    string // built-in version or file path
	State      State
	Err        error
	Requested  time.Time
	ReadyAt    time.Time // when it was queued
	AppliedAt  time.Time
	FirstFrame int // first frame scored by the new model, -1 until known
}

// swapEntry is a queued Swap with the ticket that will complete it.
type swapEntry struct {
	Swap
	ticket Ticket
}

// Options configure a Manager.
type Options struct {
	// Check validates a loaded model against the engine (for example by
	// building a vmaf.Context with it); nil skips the check.
	Check func(*vmaf.Model) error
	// MaxPreparing bounds concurrent preparations (default 2): loading a
	// model is not free, and a flood of requests must not pile up.
	MaxPreparing int
	// Keep is how many finished swaps Get and Wait still find (default
	// 64); unfinished ones are always found. The history of the swaps
	// that took effect is the scorer's (pipeline.Status.Swaps).
	Keep int
}

// Manager runs swap requests through preparing → validating → ready →
// applied on the caller's goroutine (never a streaming thread) and follows
// the queued ones until they take effect. It is safe for concurrent use.
type Manager struct {
	reg   *Registry
	check func(*vmaf.Model) error
	slots chan struct{}
	keep  int

	mu    sync.Mutex
	swaps []*swapEntry // queued swaps, oldest first
}

// NewManager makes a manager resolving models with reg.
func NewManager(reg *Registry, opts Options) *Manager {
	if opts.MaxPreparing <= 0 {
		opts.MaxPreparing = 2
	}
	if opts.Keep <= 0 {
		opts.Keep = 64
	}
	return &Manager{reg: reg, check: opts.Check, slots: make(chan struct{}, opts.MaxPreparing), keep: opts.Keep}
}

// Registry returns the manager's registry.
func (m *Manager) Registry() *Registry { return m.reg }

// Request prepares the model (resolve, load, validate) and, once it is
// ready, queues it with q. The returned Swap is Ready (queued) or Failed;
// err is set exactly when it failed.
func (m *Manager) Request(model, name string, q Queue) (Swap, error) {
	select {
	case m.slots <- struct{}{}:
		defer func() { <-m.slots }()
	default:
		return Swap{}, fmt.Errorf("%w (%d at once)", ErrBusy, cap(m.slots))
	}
	s := Swap{Request: model, Name: name, State: Preparing, Requested: time.Now(), FirstFrame: -1}
	spec, err := m.reg.Resolve(model, name)
	if err != nil {
		return failed(s, err)
	}
	mod, err := Load(spec)
	if err != nil {
		return failed(s, err)
	}
	s.Spec, s.Name, s.Version, s.State = spec, mod.Name, mod.Version, Validating
	if m.check != nil {
		if err := m.check(mod); err != nil {
			return failed(s, fmt.Errorf("%w: %w", ErrUnsupported, err))
		}
	}
	id, t, err := q(mod)
	if err != nil {
		return failed(s, err)
	}
	s.ID, s.State, s.ReadyAt = id, Ready, time.Now()
	m.follow(&swapEntry{Swap: s, ticket: t})
	return s, nil
}

func failed(s Swap, err error) (Swap, error) {
	s.State, s.Err = Failed, err
	return s, err
}

// follow keeps e for Get and Wait, forgetting the oldest finished swaps
// beyond the bound.
func (m *Manager) follow(e *swapEntry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.swaps = append(m.swaps, e)
	over := len(m.swaps) - m.keep
	if over <= 0 {
		return
	}
	kept := m.swaps[:0]
	for _, s := range m.swaps {
		s.refresh()
		if over > 0 && (s.State == Applied || s.State == Failed) {
			over--
			continue
		}
		kept = append(kept, s)
	}
	clear(m.swaps[len(kept):])
	m.swaps = kept
}

// refresh moves a queued swap to Applied or Failed once its ticket is
// done; called with mu held.
func (e *swapEntry) refresh() {
	if e.State != Ready || e.ticket == nil {
		return
	}
	select {
	case <-e.ticket.Done():
	default:
		return
	}
	if err := e.ticket.Err(); err != nil {
		// The scorer's own reason: its engine refused the model, or the
		// stream ended before the swap could take effect.
		e.State, e.Err = Failed, err
		return
	}
	e.State, e.AppliedAt, e.FirstFrame = Applied, time.Now(), e.ticket.FirstIndex()
}

// Get returns the swap queued with scorer command id.
func (m *Manager) Get(id uint64) (Swap, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, e := range m.swaps {
		if e.ID == id && id != 0 {
			e.refresh()
			return e.Swap, true
		}
	}
	return Swap{}, false
}

// Wait blocks until the swap with scorer command id is applied or failed,
// or ctx ends.
func (m *Manager) Wait(ctx context.Context, id uint64) (Swap, error) {
	m.mu.Lock()
	var t Ticket
	for _, e := range m.swaps {
		if e.ID == id && id != 0 {
			t = e.ticket
		}
	}
	m.mu.Unlock()
	if t == nil {
		return Swap{}, fmt.Errorf("swap: no queued swap %d", id)
	}
	select {
	case <-t.Done():
	case <-ctx.Done():
		s, _ := m.Get(id)
		return s, ctx.Err()
	}
	s, _ := m.Get(id)
	return s, nil
}
