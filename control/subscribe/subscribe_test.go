package subscribe

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSubscribeWaitsForServer: under the listen protocol, Subscribe
// returns only after the server has run its subscribe handler (and so
// registered the subscription); the SDK's own returns before.
func TestSubscribeWaitsForServer(t *testing.T) {
	reached, held := make(chan struct{}), make(chan struct{})
	release := sync.OnceFunc(func() { close(held) })
	var registered atomic.Bool
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, &mcp.ServerOptions{
		SubscribeHandler: func(context.Context, *mcp.SubscribeRequest) error {
			close(reached)
			<-held
			registered.Store(true)
			return nil
		},
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	srv.AddResource(&mcp.Resource{URI: "test://live", Name: "live"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{}, nil
	})
	ct, st := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	acks := New()
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
	c.AddReceivingMiddleware(acks.Middleware)
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	// Released on every way out (deferred last, so run first), or
	// closing the sessions would wait on the held handler.
	defer release()
	if v := cs.InitializeResult().ProtocolVersion; v < listenProtocol {
		t.Fatalf("negotiated %s: this test needs the listen protocol (%s or later)", v, listenProtocol)
	}

	done := make(chan error, 1)
	go func() { done <- acks.Subscribe(ctx, cs, "test://live") }()
	select {
	case <-reached:
	case <-ctx.Done():
		t.Fatal("the server's subscribe handler never ran")
	}
	select {
	case err := <-done:
		t.Fatalf("Subscribe returned (%v) while the server was still registering the subscription", err)
	default:
	}
	release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !registered.Load() {
		t.Error("Subscribe returned before the server's handler finished")
	}
}
