package control

import (
	"net"
	"strings"
	"testing"
	"time"
)

// TestSlotFreeWhenClientSeesEnd: a client that sees its connection end
// (a closing reply, or EOF) and reconnects at once, while every other slot
// is held, is admitted: the server frees a connection's slot before it
// lets the client see the end, however the session ended. No sleep and no
// retry: the first reconnect must get in.
func TestSlotFreeWhenClientSeesEnd(t *testing.T) {
	for _, tc := range []struct {
		name string
		// handshake is the deadline for initialize: the cut rows wait it
		// out; it is long enough for the holders' handshakes under load.
		handshake time.Duration
		// end makes the third client's session end, returning once the
		// client has seen what it waits for.
		end func(t *testing.T, c *rawClient)
	}{
		{"client closes its side, reconnects at EOF", time.Hour, func(t *testing.T, c *rawClient) {
			c.initialize(t, "2025-11-25")
			if err := c.conn.(*net.UnixConn).CloseWrite(); err != nil {
				t.Fatal(err)
			}
			waitEOF(t, c)
		}},
		{"client sends nothing, reconnects at EOF after the cut", handshakeTest, func(t *testing.T, c *rawClient) {
			c.expectCut(t, "silent client")
		}},
		{"client sends nothing, reconnects at the closing reply", handshakeTest, func(t *testing.T, c *rawClient) {
			if code, msg := errorCode(c.recv(t)); code != -32600 || !strings.Contains(msg, "no initialize") {
				t.Errorf("silent client: %v %q", code, msg)
			}
		}},
		{"client sends only a ping, reconnects at EOF after the cut", handshakeTest, func(t *testing.T, c *rawClient) {
			ping(t, c, "before-cut")
			c.expectCut(t, "ping-only client")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // the cut rows each wait out a handshake deadline
			s := startTest(t, newFake(), Options{MaxSessions: 3, MaxSessionsPerPeer: 3, ReservedSlots: -1,
				HandshakeTimeout: tc.handshake, ReclaimIdle: time.Hour})
			// Two clients hold the other slots for the whole test: they
			// opened their sessions, so the deadline does not cut them,
			// and they are never idle long enough to be displaced.
			for range 2 {
				cs, _ := connectTest(t, s, "2025-11-25")
				var st Status
				decode(t, callTool(t, cs, toolStatus, nil), &st)
			}
			c := dialRaw(t, s.Path())
			tc.end(t, c)
			again := dialRaw(t, s.Path())
			ping(t, again, "admitted")
			// The slot is really taken again: a fourth client is refused.
			if code, msg := errorCode(dialRaw(t, s.Path()).recv(t)); code != float64(RPCClientLimit) || !strings.Contains(msg, "3 clients already connected") {
				t.Errorf("a fourth client: %v %q", code, msg)
			}
		})
	}
}

// ping sends a ping before initialize, which a server answers once it
// has taken the connection (a refused one gets an error and is closed).
func ping(t *testing.T, c *rawClient, id string) {
	t.Helper()
	c.send(t, `{"jsonrpc":"2.0","id":"`+id+`","method":"ping"}`)
	if m := c.recv(t); m["id"] != id || m["result"] == nil {
		t.Fatalf("ping %s: %v", id, m)
	}
}

// waitEOF reads c until the server closes it; the minute is a guard
// against a hang.
func waitEOF(t *testing.T, c *rawClient) {
	t.Helper()
	if !c.closedWithin(time.Minute) {
		t.Fatal("the server kept the connection a minute after the client closed its side")
	}
}
