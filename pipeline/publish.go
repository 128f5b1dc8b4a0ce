package pipeline

import (
	"sync"
	"sync/atomic"

	"github.com/vmafsink/vmafsink/vmaf"
)

// publisher keeps the latest records in a ring and hands each one to the
// subscribers on its own goroutine, so a subscriber never runs on a
// pusher's or a scoring worker's goroutine. The ring is allocated once;
// records reuse their slices.
type publisher struct {
	mu        sync.Mutex
	cond      sync.Cond // signalled when written or published moves, or on stop
	ring      []Record
	written   int // records put in the ring so far
	published int // records handed to every subscriber so far
	stopped   bool
	done      chan struct{}

	subs   atomic.Pointer[[]*subscriber]
	subsMu sync.Mutex // serialises changes to subs
}

type subscriber struct {
	fn func(*Record)
}

func newPublisher(capacity int) *publisher {
	p := &publisher{ring: make([]Record, capacity), done: make(chan struct{})}
	p.cond.L = &p.mu
	p.subs.Store(&[]*subscriber{})
	go p.run()
	return p
}

// put copies a result into the ring. It waits while the ring holds
// nothing but unpublished records, that is while a subscriber is a whole
// ring behind.
func (p *publisher) put(index int, t Timing, res *vmaf.Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.written-p.published == len(p.ring) && !p.stopped {
		p.cond.Wait()
	}
	if p.stopped {
		return
	}
	p.ring[p.written%len(p.ring)].fill(index, t, res)
	p.written++
	p.cond.Broadcast()
}

func (p *publisher) run() {
	defer close(p.done)
	p.mu.Lock()
	for {
		for p.published == p.written && !p.stopped {
			p.cond.Wait()
		}
		if p.published == p.written {
			p.mu.Unlock()
			return
		}
		// put never writes the slot between published and written, so
		// the record can be read without the lock.
		rec := &p.ring[p.published%len(p.ring)]
		p.mu.Unlock()
		for _, s := range *p.subs.Load() {
			s.fn(rec)
		}
		p.mu.Lock()
		p.published++
		p.cond.Broadcast()
	}
}

// drain waits until every record written so far has been published.
func (p *publisher) drain() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.published < p.written && !p.stopped {
		p.cond.Wait()
	}
}

// stop publishes what is in the ring, then ends the goroutine.
func (p *publisher) stop() {
	p.drain()
	p.mu.Lock()
	p.stopped = true
	p.cond.Broadcast()
	p.mu.Unlock()
	<-p.done
}

func (p *publisher) subscribe(fn func(*Record)) (cancel func()) {
	s := &subscriber{fn: fn}
	p.subsMu.Lock()
	old := *p.subs.Load()
	next := append(old[:len(old):len(old)], s)
	p.subs.Store(&next)
	p.subsMu.Unlock()
	return func() {
		p.subsMu.Lock()
		defer p.subsMu.Unlock()
		cur := *p.subs.Load()
		next := make([]*subscriber, 0, len(cur))
		for _, c := range cur {
			if c != s {
				next = append(next, c)
			}
		}
		p.subs.Store(&next)
	}
}

// recent returns copies of the last n records, oldest first.
func (p *publisher) recent(n int) []*Record {
	p.mu.Lock()
	defer p.mu.Unlock()
	n = min(n, p.written, len(p.ring))
	out := make([]*Record, n)
	for i := range out {
		out[i] = p.ring[(p.written-n+i)%len(p.ring)].Clone()
	}
	return out
}
