package control

import (
	"encoding/json"
	"maps"
	"net"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vmafsink/vmafsink/internal/ring"
)

// note is one notification waiting to be written to a client: its
// params, and the encoded line when it is shared with other clients.
type note struct {
	method string
	params mcp.Params
	line   []byte // nil: encode params for this client
}

// outbox is one client's bounded queue of notifications. The publisher
// pushes without ever blocking and kicks the writer when it hands a batch
// over; when the client lags, the oldest are dropped and the next
// notification written says how many.
type outbox struct {
	mu      sync.Mutex
	queue   *ring.Buffer[note]
	dropped uint64 // dropped since the last written notification
	wake    chan struct{}
}

func newOutbox(size int) *outbox {
	return &outbox{queue: ring.New[note](size), wake: make(chan struct{}, 1)}
}

func (o *outbox) push(nt note) {
	o.mu.Lock()
	if _, dropped := o.queue.PushDropOldest(nt); dropped {
		o.dropped++
	}
	o.mu.Unlock()
}

// kick wakes the writer if anything is queued.
func (o *outbox) kick() {
	o.mu.Lock()
	queued := o.queue.Len() > 0
	o.mu.Unlock()
	if !queued {
		return
	}
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
	if nt, ok = o.queue.Pop(); !ok {
		return note{}, 0, false
	}
	dropped, o.dropped = o.dropped, 0
	return nt, dropped, true
}

// maxBatch bounds the notifications written in one system call.
const maxBatch = 64

// run writes queued notifications to w until done closes or a write
// fails. Per-frame notifications need no reply, so they go straight to
// the connection as whole lines (the SDK's own messages are whole lines
// too, and wireConn serialises the two), a handed-over batch per system
// call.
func (o *outbox) run(w *wireConn, done <-chan struct{}) {
	var batch net.Buffers
	for {
		select {
		case <-o.wake:
		case <-done:
			return
		}
		for {
			batch = batch[:0]
			for len(batch) < maxBatch {
				nt, dropped, ok := o.pop()
				if !ok {
					break
				}
				line := nt.line
				if line == nil || dropped > 0 {
					var err error
					if line, err = encodeNote(nt.method, withDropped(nt.params, dropped)); err != nil {
						continue
					}
				}
				batch = append(batch, line)
			}
			if len(batch) == 0 {
				break
			}
			if err := w.writeLines(&batch); err != nil {
				return
			}
		}
	}
}

// encodeNote encodes a JSON-RPC notification as one line.
func encodeNote(method string, params mcp.Params) ([]byte, error) {
	b, err := json.Marshal(struct {
		Version string     `json:"jsonrpc"`
		Method  string     `json:"method"`
		Params  mcp.Params `json:"params"`
	}{"2.0", method, params})
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// withDropped adds _meta.dropped when notifications were lost. The params
// may be shared between sessions, so they are copied before being changed.
func withDropped(p mcp.Params, dropped uint64) mcp.Params {
	if dropped == 0 {
		return p
	}
	switch p := p.(type) {
	case *mcp.ResourceUpdatedNotificationParams:
		c := *p
		c.Meta = metaWith(p.Meta, "dropped", dropped)
		return &c
	case *mcp.LoggingMessageParams:
		c := *p
		c.Meta = metaWith(p.Meta, "dropped", dropped)
		return &c
	}
	return p
}

func metaWith(m mcp.Meta, k string, v any) mcp.Meta {
	c := make(mcp.Meta, len(m)+1)
	maps.Copy(c, m)
	c[k] = v
	return c
}
