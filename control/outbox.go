package control

import (
	"context"
	"maps"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// note is one notification waiting to be written to a client.
type note struct {
	method string
	params mcp.Params
}

// outbox is one client's bounded queue of notifications. The publisher
// pushes without ever blocking; when the client lags, the oldest are
// dropped and the next notification written says how many.
type outbox struct {
	mu      sync.Mutex
	ring    []note
	head, n int
	dropped uint64 // dropped since the last written notification
	wake    chan struct{}
}

func newOutbox(size int) *outbox {
	return &outbox{ring: make([]note, size), wake: make(chan struct{}, 1)}
}

func (o *outbox) push(method string, p mcp.Params) {
	o.mu.Lock()
	if o.n == len(o.ring) {
		o.ring[o.head] = note{}
		o.head = (o.head + 1) % len(o.ring)
		o.n--
		o.dropped++
	}
	o.ring[(o.head+o.n)%len(o.ring)] = note{method, p}
	o.n++
	o.mu.Unlock()
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// addDropped counts notifications lost before they reached this outbox.
func (o *outbox) addDropped(k uint64) {
	o.mu.Lock()
	o.dropped += k
	o.mu.Unlock()
}

func (o *outbox) pop() (nt note, dropped uint64, ok bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.n == 0 {
		return note{}, 0, false
	}
	nt = o.ring[o.head]
	o.ring[o.head] = note{}
	o.head = (o.head + 1) % len(o.ring)
	o.n--
	dropped, o.dropped = o.dropped, 0
	return nt, dropped, true
}

// run writes queued notifications to the client through send (the SDK's
// sender) until done closes or a write fails.
func (o *outbox) run(send mcp.MethodHandler, ss *mcp.ServerSession, timeout time.Duration, done <-chan struct{}) {
	for {
		select {
		case <-o.wake:
		case <-done:
			return
		}
		for {
			nt, dropped, ok := o.pop()
			if !ok {
				break
			}
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			_, err := send(ctx, nt.method, withDropped(ss, nt.params, dropped))
			cancel()
			if err != nil {
				return
			}
		}
	}
}

// withDropped wraps params in a request for ss, adding _meta.dropped when
// notifications were lost. The params may be shared between sessions, so
// they are copied before being changed.
func withDropped(ss *mcp.ServerSession, p mcp.Params, dropped uint64) mcp.Request {
	switch p := p.(type) {
	case *mcp.ResourceUpdatedNotificationParams:
		if dropped > 0 {
			c := *p
			c.Meta = metaWith(p.Meta, "dropped", dropped)
			p = &c
		}
		return &mcp.ServerRequest[*mcp.ResourceUpdatedNotificationParams]{Session: ss, Params: p}
	case *mcp.LoggingMessageParams:
		if dropped > 0 {
			c := *p
			c.Meta = metaWith(p.Meta, "dropped", dropped)
			p = &c
		}
		return &mcp.ServerRequest[*mcp.LoggingMessageParams]{Session: ss, Params: p}
	}
	return &mcp.ServerRequest[mcp.Params]{Session: ss, Params: p}
}

func metaWith(m mcp.Meta, k string, v any) mcp.Meta {
	c := make(mcp.Meta, len(m)+1)
	maps.Copy(c, m)
	c[k] = v
	return c
}
