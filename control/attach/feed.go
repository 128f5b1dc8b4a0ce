package attach

import (
	"context"
	"sync"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/internal/ring"
)

// feed hands one subscriber's records over without ever blocking the
// Runner's publishing goroutine. It holds a bounded backlog; when the
// reader lags, the oldest records go, as in each client's outbox: live
// data is worth most at its newest. The record delivered after a gap
// counts the records lost in it (Record.Dropped).
type feed struct {
	mu    sync.Mutex
	queue *ring.Buffer[control.Record]
	wake  chan struct{} // a record was queued
}

func newFeed(size int) *feed {
	// One slot at least, so a dropped record's count always has a
	// successor to ride on.
	return &feed{queue: ring.New[control.Record](max(size, 1)), wake: make(chan struct{}, 1)}
}

// push queues rec; it never blocks.
func (f *feed) push(rec control.Record) {
	f.mu.Lock()
	if old, dropped := f.queue.PushDropOldest(rec); dropped {
		f.queue.Front().Dropped += old.Dropped + 1
	}
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

func (f *feed) pop() (control.Record, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.queue.Pop()
}

// run delivers the queued records, oldest first, on out until ctx ends.
func (f *feed) run(ctx context.Context, out chan<- control.Record) {
	for {
		rec, ok := f.pop()
		if !ok {
			select {
			case <-f.wake:
				continue
			case <-ctx.Done():
				return
			}
		}
		select {
		case out <- rec:
		case <-ctx.Done():
			return
		}
	}
}
