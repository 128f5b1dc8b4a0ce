package control

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFaultHTTPConnectionFlood: thousands of idle keep-alive connections
// (a token set, none sent) took the process to its open-file limit, and
// the socket's owner went unanswered. The HTTP connections are now
// bounded: one past the limit is closed at once, and the owner is served
// throughout.
func TestFaultHTTPConnectionFlood(t *testing.T) {
	tok := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tok, []byte(strings.Repeat("t", 20)), 0o600)
	const limit = 8
	s := startHTTPTest(t, newFake(), Options{HTTPTokenFile: tok, MaxHTTPConns: limit, HandshakeTimeout: time.Minute})
	var held []net.Conn
	t.Cleanup(func() {
		for _, c := range held {
			c.Close()
		}
	})
	for range 200 {
		c, err := net.Dial("tcp", s.HTTPAddr())
		if err != nil {
			t.Fatalf("dial: %v", err)
		}
		held = append(held, c)
	}
	// The server keeps at most limit of them; the rest are closed at once.
	closed := 0
	for _, c := range held {
		c.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); err == io.EOF {
			closed++
		}
	}
	if open := s.httpf.conns.count(); open > limit || closed < len(held)-limit {
		t.Errorf("%d connections open (limit %d), %d of %d closed", open, limit, closed, len(held))
	}
	// The owner on the socket is answered meanwhile.
	cs, _ := connectTest(t, s, "2025-11-25")
	var st Status
	decode(t, callTool(t, cs, toolStatus, nil), &st)
	// Once the idle connections go, HTTP serves again.
	for _, c := range held {
		c.Close()
	}
	waitFor(t, time.Minute, "the HTTP connections to be given back", func() bool { return s.httpf.conns.count() == 0 })
	resp, err := http.Get("http://" + s.HTTPAddr() + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("after the flood: %s", resp.Status)
	}
}

// TestFaultHTTPUnauthorizedCloses: a 401 kept the connection alive, so a
// client without the token could hold it.
func TestFaultHTTPUnauthorizedCloses(t *testing.T) {
	tok := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tok, []byte(strings.Repeat("t", 20)), 0o600)
	s := startHTTPTest(t, newFake(), Options{HTTPTokenFile: tok})
	c, err := net.Dial("tcp", s.HTTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}", s.HTTPAddr())
	c.SetReadDeadline(time.Now().Add(time.Minute))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusUnauthorized || !resp.Close {
		t.Errorf("without the token: %s, Connection: %q", resp.Status, resp.Header.Get("Connection"))
	}
	if _, err := c.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("after the 401 the connection is still open: %v", err)
	}
}

// TestFaultHTTPSlowBody: a request body sent a byte at a time (or never
// finished) held its connection and handler for ever.
func TestFaultHTTPSlowBody(t *testing.T) {
	s := startHTTPTest(t, newFake(), Options{HandshakeTimeout: 300 * time.Millisecond})
	c, err := net.Dial("tcp", s.HTTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"", s.HTTPAddr())
	// The read deadline only ends a hang; the answer is the timeout's.
	c.SetReadDeadline(time.Now().Add(time.Minute))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer to a stalled body: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Errorf("stalled body: %s", resp.Status)
	}
}
