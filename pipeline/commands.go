package pipeline

import (
	"errors"
	"sync"
	"sync/atomic"

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
}

// Done is closed once the command has taken effect or failed.
func (t *Ticket) Done() <-chan struct{} { return t.done }

// FirstIndex is, for a model swap that took effect, the index of the
// first pair handed to the scorer under the new model, or -1 when the
// stream ended before another pair was scored. For pause and resume it is
// the index of the next pair at the boundary where they took effect. Read
// it after Done is closed.
func (t *Ticket) FirstIndex() int { return t.firstIndex }

// Err says why the command failed; read it after Done is closed.
func (t *Ticket) Err() error { return t.err }

func (t *Ticket) complete(firstIndex int, err error) {
	t.firstIndex, t.err = firstIndex, err
	close(t.done)
}

// commandQueue is a fixed-capacity FIFO of tickets. Enqueuers (off the
// streaming threads) allocate the tickets; the Runner only moves
// pointers, so draining at a frame boundary never allocates.
type commandQueue struct {
	mu     sync.Mutex
	cond   sync.Cond // broadcast when gen changes or waiters must give up
	buf    []*Ticket
	head   int
	n      int
	gen    uint64 // bumped by every enqueue and every wake-up
	nextID atomic.Uint64
}

func newCommandQueue(capacity int) *commandQueue {
	q := &commandQueue{buf: make([]*Ticket, capacity)}
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
	if q.n == len(q.buf) {
		return nil, ErrQueueFull
	}
	q.buf[(q.head+q.n)%len(q.buf)] = t
	q.n++
	q.gen++
	q.cond.Broadcast()
	return t, nil
}

// pop takes the oldest ticket, or returns nil.
func (q *commandQueue) pop() *Ticket {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.n == 0 {
		return nil
	}
	t := q.buf[q.head]
	q.buf[q.head] = nil
	q.head = (q.head + 1) % len(q.buf)
	q.n--
	return t
}

func (q *commandQueue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.n
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
