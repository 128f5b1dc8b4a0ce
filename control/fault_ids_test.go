package control

import (
	"strings"
	"testing"
	"time"
)

// TestFaultStaleCancel: a notifications/cancelled for an unknown or
// already-answered id was remembered, and the next request reusing that id
// ran without a reply.
func TestFaultStaleCancel(t *testing.T) {
	s := startTest(t, newFake(), Options{})
	c := dialRaw(t, s.Path())
	c.initialize(t, "2025-11-25")
	c.send(t, `{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	c.recvLine(t)
	for _, id := range []string{"5", "6", `"s"`} {
		c.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+id+`}}`)
	}
	for _, id := range []string{"5", "6", `"s"`} {
		c.send(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"vmaf_status"}}`)
		if got := c.recvLine(t); !strings.Contains(got, `"id":`+id+`,`) || strings.Contains(got, `"error"`) {
			t.Errorf("request %s after a stale cancellation: %.200s", id, got)
		}
	}
}

// TestFaultDuplicateIDInFlight: a request reusing the id of one still in
// flight was dropped without a word; it now gets an error naming the id,
// and the first request's reply still comes, once. A cancellation of the
// request in flight still drops its reply.
func TestFaultDuplicateIDInFlight(t *testing.T) {
	f := newFake()
	stuck := &stuckModels{ignore: true, release: make(chan struct{})}
	f.models = stuck.models
	s := startTest(t, f, Options{ListTimeout: time.Minute})
	c := dialRaw(t, s.Path())
	c.initialize(t, "2025-11-25")
	c.send(t, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"vmaf_list_models"}}`)
	waitFor(t, 10*time.Second, "the listing to start", func() bool { return stuck.started.Load() == 1 })
	c.send(t, `{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	if got := c.recvLine(t); !strings.Contains(got, `"id":7,`) || !strings.Contains(got, "-32600") || !strings.Contains(got, "id 7 is already in use") {
		t.Errorf("second request with id 7: %s", got)
	}
	close(stuck.release)
	if got := c.recvLine(t); !strings.Contains(got, `"id":7,`) || !strings.Contains(got, `"result"`) {
		t.Errorf("first request's reply: %.200s", got)
	}
	// Answered, the id may be used again.
	c.send(t, `{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	if got := c.recvLine(t); !strings.Contains(got, `"id":7,`) || strings.Contains(got, `"error"`) {
		t.Errorf("id 7 reused after its reply: %s", got)
	}
	// A request in flight that the client cancels gets no reply; the next
	// one does.
	stuck2 := &stuckModels{}
	f.models = stuck2.models
	c.send(t, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"vmaf_list_models"}}`)
	waitFor(t, 10*time.Second, "the second listing to start", func() bool { return stuck2.started.Load() == 1 })
	c.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8}}`)
	waitFor(t, 10*time.Second, "the cancelled listing to return", func() bool { return stuck2.returned.Load() == 1 })
	c.send(t, `{"jsonrpc":"2.0","id":9,"method":"ping"}`)
	if got := c.recvLine(t); !strings.Contains(got, `"id":9,`) {
		t.Errorf("after a cancelled request, got %s", got)
	}
}

