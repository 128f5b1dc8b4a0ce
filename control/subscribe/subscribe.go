// Package subscribe takes an MCP client's resource subscriptions so that
// they are in force when the call returns.
//
// Under protocol 2026-07-28 and later the SDK's ClientSession.Subscribe
// sends subscriptions/listen and returns at once, before the server has
// registered anything; the server says it has with
// notifications/subscriptions/acknowledged. A client that subscribes and
// then looks (or starts the stream) would otherwise miss what the server
// publishes in between. Under earlier versions resources/subscribe is
// answered once the subscription is registered.
package subscribe

import (
	"context"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	methodAcknowledged = "notifications/subscriptions/acknowledged"
	listenProtocol     = "2026-07-28"
)

// Acks records the subscriptions a server has acknowledged. Install its
// Middleware on the client before connecting.
type Acks struct {
	mu      sync.Mutex
	uris    map[string]bool
	changed chan struct{} // closed and replaced on every acknowledgement
}

// New returns an empty record.
func New() *Acks {
	return &Acks{uris: map[string]bool{}, changed: make(chan struct{})}
}

// Middleware is a receiving middleware for mcp.Client.AddReceivingMiddleware.
func (a *Acks) Middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == methodAcknowledged {
			if p, ok := req.GetParams().(*mcp.SubscriptionsAcknowledgedParams); ok && p != nil {
				a.mu.Lock()
				for _, uri := range p.Notifications.ResourceSubscriptions {
					a.uris[uri] = true
				}
				close(a.changed)
				a.changed = make(chan struct{})
				a.mu.Unlock()
			}
		}
		return next(ctx, method, req)
	}
}

// Subscribe subscribes cs to uri and returns once the server has the
// subscription, or ctx ends.
func (a *Acks) Subscribe(ctx context.Context, cs *mcp.ClientSession, uri string) error {
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		return err
	}
	if res := cs.InitializeResult(); res == nil || res.ProtocolVersion < listenProtocol {
		return nil
	}
	for {
		a.mu.Lock()
		done, changed := a.uris[uri], a.changed
		a.mu.Unlock()
		if done {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("subscribing to %s: the server did not acknowledge the subscription: %w", uri, ctx.Err())
		}
	}
}
