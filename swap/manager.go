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

// swapEntry is a Swap with the ticket that will complete it.
type swapEntry struct {
	Swap
	ticket Ticket
	model  *vmaf.Model
}

// Options configure a Manager.
type Options struct {
	// Check validates a loaded model against the engine (for example by
	// building a vmaf.Context with it); nil skips the check.
	Check func(*vmaf.Model) error
	// MaxPreparing bounds concurrent preparations (default 2): loading a
	// model is not free, and a flood of requests must not pile up.
	MaxPreparing int
	// History is how many finished swaps are kept (default 64).
	History int
}

// Manager runs swap requests through preparing → validating → ready →
// applied on the caller's goroutine (never a streaming thread) and keeps
// their history. It is safe for concurrent use.
type Manager struct {
	reg   *Registry
	check func(*vmaf.Model) error
	slots chan struct{}
	keep  int

	mu    sync.Mutex
	swaps []*swapEntry // oldest first
}

// NewManager makes a manager resolving models with reg.
func NewManager(reg *Registry, opts Options) *Manager {
	if opts.MaxPreparing <= 0 {
		opts.MaxPreparing = 2
	}
	if opts.History <= 0 {
		opts.History = 64
	}
	return &Manager{reg: reg, check: opts.Check, slots: make(chan struct{}, opts.MaxPreparing), keep: opts.History}
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
	e := &swapEntry{Swap: Swap{Request: model, Name: name, State: Preparing, Requested: time.Now(), FirstFrame: -1}}
	m.add(e)
	spec, err := m.reg.Resolve(model, name)
	if err != nil {
		return m.fail(e, err)
	}
	mod, err := Load(spec)
	if err != nil {
		return m.fail(e, err)
	}
	m.update(e, func(s *swapEntry) {
		s.Spec, s.Name, s.Version, s.State, s.model = spec, mod.Name, mod.Version, Validating, mod
	})
	if m.check != nil {
		if err := m.check(mod); err != nil {
			return m.fail(e, fmt.Errorf("%w: %w", ErrUnsupported, err))
		}
	}
	id, t, err := q(mod)
	if err != nil {
		return m.fail(e, err)
	}
	var out Swap
	m.update(e, func(s *swapEntry) {
		s.ID, s.ticket, s.State, s.ReadyAt = id, t, Ready, time.Now()
		out = s.Swap
	})
	return out, nil
}

func (m *Manager) add(e *swapEntry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.swaps = append(m.swaps, e)
	if over := len(m.swaps) - m.keep; over > 0 {
		// Forget the oldest finished swaps; unfinished ones stay.
		kept := m.swaps[:0]
		for _, s := range m.swaps {
			if over > 0 && (s.State == Applied || s.State == Failed) {
				over--
				continue
			}
			kept = append(kept, s)
		}
		m.swaps = kept
	}
}

func (m *Manager) update(e *swapEntry, f func(*swapEntry)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	f(e)
}

func (m *Manager) fail(e *swapEntry, err error) (Swap, error) {
	var out Swap
	m.update(e, func(s *swapEntry) {
		s.State, s.Err = Failed, err
		out = s.Swap
	})
	return out, err
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

// History returns every swap kept, oldest first.
func (m *Manager) History() []Swap {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Swap, len(m.swaps))
	for i, e := range m.swaps {
		e.refresh()
		out[i] = e.Swap
	}
	return out
}
