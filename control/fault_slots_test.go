package control

import (
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// pipeWire is a socket-like client for track: a wireConn over a pipe that
// has sent initialize.
func pipeWire(t *testing.T) *wireConn {
	t.Helper()
	a, b := net.Pipe()
	t.Cleanup(func() { a.Close(); b.Close() })
	go func() { // drain what the server writes, such as a refusal
		buf := make([]byte, 4096)
		for {
			if _, err := b.Read(buf); err != nil {
				return
			}
		}
	}()
	w := newWireConn(a, 1<<20, time.Second)
	w.opened.Store(true)
	return w
}

// TestFaultReservedSlots: read-only peers (two processes holding silent,
// idle or initialized connections) took all 32 slots and the owner's
// vmafctl status was refused every time. Read-only peers now get all but
// the reserved slots, and the owner still gets in.
func TestFaultReservedSlots(t *testing.T) {
	const readOnly = 4242
	s := startTest(t, newFake(), Options{MaxSessions: 6, ReservedSlots: 2, MaxSessionsPerPeer: 6, ReadOnlyGID: readOnly,
		HandshakeTimeout: time.Minute, ReclaimIdle: time.Minute})
	for i := range 4 {
		if reason := s.track(pipeWire(t), peer{pid: int32(100 + i%2), uid: 5000, gid: readOnly}); reason != "" {
			t.Fatalf("read-only peer %d: %s", i, reason)
		}
	}
	if reason := s.track(pipeWire(t), peer{pid: 102, uid: 5000, gid: readOnly}); !strings.Contains(reason, "kept for the server's own user") {
		t.Errorf("fifth read-only peer: %q", reason)
	}
	// The owner gets the reserved slots.
	for i := range 2 {
		cs, _ := connectTest(t, s, "2025-11-25")
		var st Status
		decode(t, callTool(t, cs, toolStatus, nil), &st)
		_ = i
	}
	// All taken, none idle: even the owner waits.
	c := dialRaw(t, s.Path())
	if code, msg := errorCode(c.recv(t)); code != -32002 || !strings.Contains(msg, "6 clients already connected") {
		t.Errorf("seventh client: %v %q", code, msg)
	}
}

// TestFaultReclaimIdle: silent connections (never sending initialize,
// the handshake deadline aside) and initialized idle clients held every
// slot. When a newcomer finds none free, the longest-idle client it may
// displace is closed and told why; a read-only peer may not displace the
// owner's clients.
func TestFaultReclaimIdle(t *testing.T) {
	opts := Options{MaxSessions: 4, MaxSessionsPerPeer: 8, ReservedSlots: -1, ReadOnlyGID: 4242,
		HandshakeTimeout: time.Minute, ReclaimIdle: 200 * time.Millisecond}
	t.Run("silent", func(t *testing.T) {
		s := startTest(t, newFake(), opts)
		var silent []*rawClient
		for range 4 {
			silent = append(silent, dialRaw(t, s.Path()))
		}
		waitFor(t, time.Minute, "four connections", func() bool { return s.Clients() == 4 })
		time.Sleep(300 * time.Millisecond) // idle past ReclaimIdle
		cs, _ := connectTest(t, s, "2025-11-25")
		var st Status
		decode(t, callTool(t, cs, toolStatus, nil), &st)
		// The displaced connection is told (asynchronously: a minute's
		// guard); once one has been, the others have a moment to say
		// anything, a window in which nothing should come.
		lines := make(chan string, len(silent))
		for _, c := range silent {
			c.conn.SetReadDeadline(time.Now().Add(time.Minute))
			go func() {
				line, _ := c.r.ReadString('\n')
				lines <- line
			}()
		}
		told := 0
		for i := range silent {
			if strings.Contains(<-lines, "without initialize") {
				told++
			}
			if i == 0 {
				for _, c := range silent {
					c.conn.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
				}
			}
		}
		if told != 1 {
			t.Errorf("%d silent connections closed for the newcomer, want 1", told)
		}
	})
	t.Run("initialized", func(t *testing.T) {
		s := startTest(t, newFake(), opts)
		for range 4 {
			dialRaw(t, s.Path()).initialize(t, "2025-11-25")
		}
		time.Sleep(300 * time.Millisecond)
		// A read-only peer may not displace the owner's idle clients.
		if reason := s.track(pipeWire(t), peer{pid: 100, uid: 5000, gid: 4242}); !strings.Contains(reason, "4 clients already connected") {
			t.Errorf("read-only newcomer: %q", reason)
		}
		cs, _ := connectTest(t, s, "2025-11-25")
		var st Status
		decode(t, callTool(t, cs, toolStatus, nil), &st)
	})
	t.Run("a client that spoke stays", func(t *testing.T) {
		// Which client goes is an order, not a time: all four have been
		// idle past ReclaimIdle, then three speak; whatever the load, the
		// fourth has been idle longest and is the one displaced. (The
		// refusal when no client is idle: TestFaultReservedSlots.)
		s := startTest(t, newFake(), opts)
		var clients []*rawClient
		for range 4 {
			c := dialRaw(t, s.Path())
			c.initialize(t, "2025-11-25")
			clients = append(clients, c)
		}
		time.Sleep(300 * time.Millisecond) // idle past ReclaimIdle
		for _, c := range clients[:3] {
			ping(t, c, "active")
		}
		cs, _ := connectTest(t, s, "2025-11-25")
		var st Status
		decode(t, callTool(t, cs, toolStatus, nil), &st)
		if code, msg := errorCode(clients[3].recv(t)); code != -32002 || !strings.Contains(msg, "idle for") {
			t.Errorf("the silent client: %v %q", code, msg)
		}
		for _, c := range clients[:3] {
			ping(t, c, "still")
		}
	})
}

// TestFaultHTTPHoldsSlots: 32 Streamable HTTP initializes without DELETE
// (no token file) held every slot for about 10 minutes and the owner was
// refused. HTTP clients cannot take the reserved slots, an idle HTTP
// session gives its slot to a newcomer, and sessions expire after a
// minute idle.
func TestFaultHTTPHoldsSlots(t *testing.T) {
	s := startHTTPTest(t, newFake(), Options{MaxSessions: 6, ReservedSlots: 2, ReclaimIdle: time.Minute})
	if s.opts.HTTPIdleTimeout != time.Minute {
		t.Errorf("HTTP idle timeout %v, want 1m", s.opts.HTTPIdleTimeout)
	}
	ok, refused := 0, 0
	for range 10 {
		resp, body := post(t, s, initBody, nil)
		switch resp.StatusCode {
		case http.StatusOK:
			ok++
		case http.StatusServiceUnavailable:
			refused++
			if !strings.Contains(body, "kept for the server's own user") {
				t.Errorf("refusal: %s", body)
			}
		}
	}
	if ok != 4 || refused != 6 {
		t.Errorf("%d HTTP sessions opened, %d refused; want 4 and 6", ok, refused)
	}
	for range 2 {
		cs, _ := connectTest(t, s, "2025-11-25")
		var st Status
		decode(t, callTool(t, cs, toolStatus, nil), &st)
	}

	// Idle HTTP sessions make room for a newcomer.
	s2 := startHTTPTest(t, newFake(), Options{MaxSessions: 3, ReservedSlots: 1, ReclaimIdle: 200 * time.Millisecond})
	for range 2 {
		if resp, body := post(t, s2, initBody, nil); resp.StatusCode != http.StatusOK {
			t.Fatalf("HTTP session: %d %s", resp.StatusCode, body)
		}
	}
	// (A third at once would be refused, as above, but only while the
	// first two have been idle less than ReclaimIdle: not asserted, as
	// load can stretch that.)
	time.Sleep(300 * time.Millisecond) // idle past ReclaimIdle
	if resp, body := post(t, s2, initBody, nil); resp.StatusCode != http.StatusOK {
		t.Errorf("HTTP session after the others idled: %d %s", resp.StatusCode, body)
	}
}
