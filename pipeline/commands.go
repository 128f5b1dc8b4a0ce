package pipeline

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/vmafsink/vmafsink/internal/ring"
	"github.com/vmafsink/vmafsink/vmaf"
)

// ErrQueueFull reports a command refused because the command queue is full.
var ErrQueueFull = errors.New("pipeline: command queue full")

// ErrFinished reports a command or frame given to a Runner that has
// finished or been closed.
var ErrFinished = errors.New("pipeline: runner finished")

// CommandKind names what a command does.
type CommandKind int

const (
	SwapModel CommandKind = iota
	Pause
	Resume
)

func (k CommandKind) String() string {
	switch k {
	case SwapModel:
		return "swap"
	case Pause:
		return "pause"
	}
	return "resume"
}

// Ticket follows one queued command until it takes effect.
type Ticket struct {
	ID   uint64
	Kind CommandKind

	models     []*vmaf.Model // a swap's new models, allocated by the enqueuer
	done       chan struct{}
	firstIndex int
	err        error
	superseded bool
	paused     bool
	completed  bool // done is closed; only the Runner's pusher touches it, under mu
}

// Done is closed once the command has taken effect or failed. A model
// swap takes effect at the next frame boundary; Done then waits for the
// first pair scored under the new model, except when none can be for now
// (the Runner is paused: Paused) or ever (Superseded, or the run ended).
func (t *Ticket) Done() <-chan struct{} { return t.done }

// Wait blocks until Done is closed or ctx ends, and returns ctx.Err() in
// the latter case.
func (t *Ticket) Wait(ctx context.Context) error {
	select {
	case <-t.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// FirstIndex is, for a model swap that took effect, the index of the
// first pair scored under the new model, or -1 when no pair had been
// scored when Done closed (see Paused and Superseded, or the stream
// ended). For pause and resume it is the index of the next pair at the
// boundary where they took effect. Read it after Done is closed.
func (t *Ticket) FirstIndex() int { return t.firstIndex }

// Paused reports a swap that took effect while the Runner was paused (or
// that a pause reached before it scored a pair): its first pair is the
// first scored after a resume, which Status's swap history then shows.
// Read it after Done is closed.
func (t *Ticket) Paused() bool { return t.paused }

// Superseded reports a swap replaced by a later one before it scored any
// pair. Read it after Done is closed.
func (t *Ticket) Superseded() bool { return t.superseded }

// Err says why the command failed; read it after Done is closed.
func (t *Ticket) Err() error { return t.err }

func (t *Ticket) complete(firstIndex int, err error) {
	if t.completed {
		return
	}
	t.completed = true
	t.firstIndex, t.err = firstIndex, err
	close(t.done)
}

// commandQueue is a fixed-capacity FIFO of tickets. Enqueuers (off the
// streaming threads) allocate the tickets; the Runner only moves
// pointers, so draining at a frame boundary never allocates.
type commandQueue struct {
	mu     sync.Mutex
	cond   sync.Cond // broadcast when gen changes or waiters must give up
	buf    *ring.Buffer[*Ticket]
	gen    uint64 // bumped by every enqueue and every wake-up
	nextID atomic.Uint64
}

func newCommandQueue(capacity int) *commandQueue {
	q := &commandQueue{buf: ring.New[*Ticket](capacity)}
	q.cond.L = &q.mu
	return q
}

func (q *commandQueue) enqueue(kind CommandKind, m *vmaf.Model) (*Ticket, error) {
	t := &Ticket{ID: q.nextID.Add(1), Kind: kind, done: make(chan struct{}), firstIndex: -1}
	if m != nil {
		t.models = []*vmaf.Model{m}
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.buf.Push(t) {
		return nil, ErrQueueFull
	}
	q.gen++
	q.cond.Broadcast()
	return t, nil
}

// pop takes the oldest ticket, or returns nil.
func (q *commandQueue) pop() *Ticket {
	q.mu.Lock()
	defer q.mu.Unlock()
	t, _ := q.buf.Pop()
	return t
}

func (q *commandQueue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.buf.Len()
}

func (q *commandQueue) generation() uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.gen
}

// wait blocks until the generation moves past gen or abort reports true.
func (q *commandQueue) wait(gen uint64, abort func() bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.gen == gen && !abort() {
		q.cond.Wait()
	}
}

// wake releases every waiter so it re-checks its conditions.
func (q *commandQueue) wake() {
	q.mu.Lock()
	q.gen++
	q.cond.Broadcast()
	q.mu.Unlock()
}
