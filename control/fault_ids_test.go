package control

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
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
	waitFor(t, time.Minute, "the listing to start", func() bool { return stuck.started.Load() == 1 })
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
	waitFor(t, time.Minute, "the second listing to start", func() bool { return stuck2.started.Load() == 1 })
	c.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8}}`)
	waitFor(t, time.Minute, "the cancelled listing to return", func() bool { return stuck2.returned.Load() == 1 })
	c.send(t, `{"jsonrpc":"2.0","id":9,"method":"ping"}`)
	if got := c.recvLine(t); !strings.Contains(got, `"id":9,`) {
		t.Errorf("after a cancelled request, got %s", got)
	}
}

// TestFaultPromptRange: prompt arguments past their range were taken: a
// "to" past int64 printed a negative frame, a negative window or a
// threshold of 1e300 made no sense.
func TestFaultPromptRange(t *testing.T) {
	s := startTest(t, newFake(), Options{})
	cs, _ := connectTest(t, s, "2025-11-25")
	for _, tc := range []struct {
		prompt string
		args   map[string]string
		says   string
	}{
		{"diagnose_quality_drop", map[string]string{"from": "0", "to": "1e19"}, "from 0 to 9007199254740992"},
		{"diagnose_quality_drop", map[string]string{"from": "0", "to": "9223372036854775808"}, "not a whole number"},
		{"diagnose_quality_drop", map[string]string{"from": "1.5", "to": "3"}, "not a whole number"},
		{"monitor_stream", map[string]string{"threshold": "1e300"}, "from 0 to 100"},
		{"monitor_stream", map[string]string{"window": "-3"}, "not a whole number from 1"},
		{"monitor_stream", map[string]string{"window": "2.5"}, "not a whole number"},
	} {
		_, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: tc.prompt, Arguments: tc.args})
		var je *jsonrpc.Error
		if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || !strings.Contains(je.Message, tc.says) {
			t.Errorf("%s %v: %v", tc.prompt, tc.args, err)
		}
	}
	res, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "diagnose_quality_drop", Arguments: map[string]string{"from": "0", "to": "9007199254740992"}})
	if err != nil || strings.Contains(res.Messages[0].Content.(*mcp.TextContent).Text, "-") && strings.Contains(res.Messages[0].Content.(*mcp.TextContent).Text, "frames 0..-") {
		t.Errorf("the largest frame index: %v", err)
	}
}
