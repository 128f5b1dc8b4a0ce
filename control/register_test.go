package control

import (
	"encoding/json"
	"errors"
	"net"
	"strings"
	"testing"
	"time"
)

// TestSessionRegisteredBeforeRead: a socket client's messages are read
// only once the server has registered its session. Before, a client could
// initialize and subscribe while the server was still registering it (a
// window a loaded machine widens), and the records published meanwhile
// were dropped for want of its session. Here registration is held until
// the test lets it go: nothing may be answered before, and after it the
// client's subscription gets the first frame.
func TestSessionRegisteredBeforeRead(t *testing.T) {
	f := newFake()
	s := startTest(t, f, Options{})
	reached, release := make(chan struct{}), make(chan struct{})
	hook := func() {
		close(reached)
		<-release
	}
	s.testHookRegister.Store(&hook)

	c := dialRaw(t, s.Path())
	c.send(t, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	select {
	case <-reached:
	case <-time.After(time.Minute):
		t.Fatal("the server never came to register the session")
	}
	// A window in which an answer must not come: load can only make an
	// early answer later, never make a correct server answer.
	c.conn.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	if line, err := c.r.ReadString('\n'); !isTimeout(err) {
		t.Fatalf("answered before the session was registered: %q (%v)", line, err)
	}
	close(release)

	if m := c.recv(t); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	c.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(t, `{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"vmaf://scores/live"}}`)
	if m := c.recv(t); m["error"] != nil {
		t.Fatalf("subscribe: %v", m)
	}
	f.frame(90)
	c.conn.SetReadDeadline(time.Now().Add(time.Minute)) // a guard against a hang
	for {
		line, err := c.r.ReadString('\n')
		if err != nil {
			t.Fatalf("no update for frame 0: %v", err)
		}
		if !strings.Contains(line, `"notifications/resources/updated"`) {
			continue
		}
		var n struct {
			Params struct {
				Meta struct {
					Record Record `json:"record"`
				} `json:"_meta"`
			} `json:"params"`
		}
		if err := json.Unmarshal([]byte(line), &n); err != nil {
			t.Fatalf("update %q: %v", line, err)
		}
		if got := n.Params.Meta.Record.Frame; got != 0 {
			t.Fatalf("first update is frame %d, want 0", got)
		}
		return
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
