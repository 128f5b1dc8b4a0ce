package control

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func errorCode(m map[string]any) (float64, string) {
	e, ok := m["error"].(map[string]any)
	if !ok {
		return 0, ""
	}
	code, _ := e["code"].(float64)
	msg, _ := e["message"].(string)
	return code, msg
}

func TestBadInput(t *testing.T) {
	s := startTest(t, newFake(), Options{MaxLineBytes: 4096})
	c := dialRaw(t, s.Path())
	c.initialize(t, "2025-11-25")
	tests := []struct {
		name, line string
		code       float64
		msg        string // in the error message
		id         any
	}{
		{"malformed JSON", `{"jsonrpc":"2.0","id":1,"method":`, -32700, "parse error", nil},
		{"not JSON at all", `hello`, -32700, "parse error", nil},
		{"two values on a line", `{} {}`, -32700, "parse error", nil},
		{"not an object", `42`, -32600, "invalid request", nil},
		{"wrong version", `{"jsonrpc":"1.0","id":7,"method":"ping"}`, -32600, "version", 7.0},
		{"empty batch", `[]`, -32600, "empty batch", nil},
		{"batch in a batch-free version", `[{"jsonrpc":"2.0","id":2,"method":"ping"}]`, -32600, "batches", nil},
		{"oversized", `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"` + strings.Repeat("x", 5000) + `"}}`, -32600, "4096-byte limit", nil},
		{"unknown method", `{"jsonrpc":"2.0","id":4,"method":"vmaf/explode"}`, -32601, "", 4.0},
		{"unknown tool", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope"}}`, -32602, "unknown tool", 5.0},
		{"params of the wrong type", `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":"status"}`, -32602, "", 6.0},
	}
	for _, tt := range tests {
		c.send(t, tt.line)
		m := c.recv(t)
		code, msg := errorCode(m)
		if code != tt.code || !strings.Contains(msg, tt.msg) || m["id"] != tt.id {
			t.Errorf("%s: got %v, want code %v id %v and a message with %q", tt.name, m, tt.code, tt.id, tt.msg)
		}
		// The session survives every one of them.
		c.send(t, `{"jsonrpc":"2.0","id":"alive","method":"ping"}`)
		if m := c.recv(t); m["id"] != "alive" || m["error"] != nil {
			t.Fatalf("after %s: ping answered %v", tt.name, m)
		}
	}
}

func TestBatchInOldProtocol(t *testing.T) {
	s := startTest(t, newFake(), Options{})
	c := dialRaw(t, s.Path())
	c.initialize(t, "2025-03-26")
	c.send(t, `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"vmaf_status"}}]`)
	c.conn.SetReadDeadline(time.Now().Add(time.Minute))
	line, err := c.r.ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "[") || !strings.Contains(line, `"frames_scored"`) {
		t.Fatalf("batch reply %q (%v)", line, err)
	}
	// Notifications in a batch (which the SDK alone would choke on) and a
	// request: the request's reply is still a batch, and the session lives.
	c.send(t, `[{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/y"}]`)
	c.send(t, `[{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","method":"notifications/y"}]`)
	if line, err := c.r.ReadString('\n'); err != nil || !strings.HasPrefix(line, `[{"jsonrpc":"2.0","id":3,`) {
		t.Fatalf("reply to a batch with notifications: %q (%v)", line, err)
	}
	c.send(t, `[{"jsonrpc":"2.0","id":4,"method":"ping"},{"jsonrpc":"2.0","id":4,"method":"ping"}]`)
	if code, msg := errorCode(c.recv(t)); code != -32600 || !strings.Contains(msg, "twice") {
		t.Errorf("repeated id: %v %q", code, msg)
	}
	c.send(t, `{"jsonrpc":"2.0","id":"alive","method":"ping"}`)
	if m := c.recv(t); m["id"] != "alive" {
		t.Errorf("session after the batches: %v", m)
	}
}

func TestInFlightLimit(t *testing.T) {
	f := newFake()
	f.capacity = 100
	s := startTest(t, f, Options{MaxInFlight: 3})
	c := dialRaw(t, s.Path())
	c.initialize(t, "2025-11-25")
	// Waits that never end hold three slots; the fourth and fifth request
	// are refused, and a reply frees nothing until a frame comes.
	for i := range 5 {
		c.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"vmaf_pause","arguments":{"wait":true,"timeout_ms":600000}}}`, i+1))
	}
	busy := 0
	for range 2 {
		if code, msg := errorCode(c.recv(t)); code == -32003 && strings.HasPrefix(msg, CodeBusy) {
			busy++
		}
	}
	if busy != 2 {
		t.Fatalf("%d busy errors, want 2", busy)
	}
	waitFor(t, time.Minute, "three pauses queued", func() bool { return f.Status().CommandsPending == 3 })
	f.frame(1) // applies the pauses: the three waits return
	for range 3 {
		if m := c.recv(t); m["error"] != nil {
			t.Errorf("wait reply %v", m)
		}
	}
	c.send(t, `{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	if m := c.recv(t); m["id"] != "after" {
		t.Errorf("ping after the waits: %v", m)
	}
}

func TestMaxSessions(t *testing.T) {
	s := startTest(t, newFake(), Options{MaxSessions: 2, MaxSessionsPerPeer: 2})
	a, b := dialRaw(t, s.Path()), dialRaw(t, s.Path())
	a.initialize(t, "2025-11-25")
	b.initialize(t, "2025-11-25")
	c := dialRaw(t, s.Path())
	if code, msg := errorCode(c.recv(t)); code != -32002 || !strings.Contains(msg, "2 clients") {
		t.Errorf("third client: %v %q", code, msg)
	}
}
