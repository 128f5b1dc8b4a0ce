package control

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestFaultCancelledWaitIsNotATimeout: a wait the client cancels ends
// with the cancellation, not with a made-up "still enqueued after" the
// whole timeout.
func TestFaultCancelledWaitIsNotATimeout(t *testing.T) {
	f := newFake()
	s := startTest(t, f, Options{})
	cmd, err := f.Pause(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err = s.wait(ctx, nil, cmd, 20000)
	var ce *Error
	if !errors.Is(err, context.Canceled) || errors.As(err, &ce) {
		t.Errorf("cancelled wait: %v, want context.Canceled and no protocol error", err)
	}
}

// TestFaultCancelledRequestGetsNoReply: a request the client cancels with
// notifications/cancelled gets no reply, as the protocol says, while the
// session goes on.
func TestFaultCancelledRequestGetsNoReply(t *testing.T) {
	f := newFake()
	s := startTest(t, f, Options{})
	c := dialRaw(t, s.Path())
	c.initialize(t, "2025-11-25")
	// The fake applies no command by itself: this wait blocks.
	c.send(t, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"vmaf_pause","arguments":{"wait":true,"timeout_ms":20000}}}`)
	waitFor(t, 30*time.Second, "the pause queued", func() bool { return f.Status().CommandsPending > 0 })
	c.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"changed my mind"}}`)
	c.send(t, `{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	if m := c.recv(t); m["id"] != "after" {
		t.Fatalf("first answer after the cancellation: %v, want the ping's", m)
	}
	c.conn.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
	for {
		line, err := c.r.ReadBytes('\n')
		if err != nil {
			break // nothing more: the cancelled request had no reply
		}
		var m map[string]any
		if json.Unmarshal(line, &m) == nil && m["method"] == nil {
			t.Fatalf("the cancelled request was answered: %s", line)
		}
	}
	// The session still answers.
	c.send(t, `{"jsonrpc":"2.0","id":8,"method":"ping"}`)
	if m := c.recv(t); m["id"] != 8.0 {
		t.Fatalf("ping after: %v", m)
	}
}

// TestWaitTimeoutNamesTheWaitServed: a wait cut short by MaxWait says how
// long it waited, not the longer timeout the client asked for.
func TestWaitTimeoutNamesTheWaitServed(t *testing.T) {
	f := newFake()
	s := startTest(t, f, Options{MaxWait: 20 * time.Millisecond})
	cmd, err := f.Pause(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = s.wait(context.Background(), nil, cmd, 60000)
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != CodeTimeout || !strings.Contains(err.Error(), "after 20ms") {
		t.Errorf("wait past MaxWait: %v, want %s naming 20ms", err, CodeTimeout)
	}
}
