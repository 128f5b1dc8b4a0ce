package control

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// startHTTPTest serves f on a socket and on a loopback port the system picks.
func startHTTPTest(t *testing.T, f *fakeTarget, opts Options) *Server {
	t.Helper()
	opts.HTTPAddr = "127.0.0.1:0"
	return startTest(t, f, opts)
}

// bearer adds a token to every request of an SDK client.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// connectHTTP connects the Go SDK's client over Streamable HTTP ("http")
// or HTTP+SSE ("sse").
func connectHTTP(t *testing.T, s *Server, transport, token string) (*mcp.ClientSession, *clientEvents, error) {
	t.Helper()
	ev := &clientEvents{signal: make(chan struct{}, 1)}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			ev.mu.Lock()
			ev.updates = append(ev.updates, r.Params)
			ev.mu.Unlock()
			ev.wake()
		},
	})
	hc := &http.Client{Transport: http.DefaultTransport}
	if token != "" {
		hc.Transport = bearer{token, http.DefaultTransport}
	}
	base := "http://" + s.HTTPAddr()
	var tr mcp.Transport = &mcp.StreamableClientTransport{Endpoint: base + pathStreamable, HTTPClient: hc, MaxRetries: -1}
	if transport == "sse" {
		tr = &mcp.SSEClientTransport{Endpoint: base + pathSSE, HTTPClient: hc}
	}
	// The SSE client's stream lives in the context Connect is given.
	cs, err := c.Connect(context.Background(), tr, nil)
	if err != nil {
		return nil, nil, err
	}
	t.Cleanup(func() { cs.Close() })
	return cs, ev, nil
}

func TestHTTPTransports(t *testing.T) {
	for _, transport := range []string{"http", "sse"} {
		t.Run(transport, func(t *testing.T) {
			f := newFake()
			s := startHTTPTest(t, f, Options{})
			cs, ev, err := connectHTTP(t, s, transport, "")
			if err != nil {
				t.Fatal(err)
			}
			var st Status
			decode(t, callTool(t, cs, toolStatus, map[string]any{}), &st)
			if st.State != StateRunning || st.Model != "vmaf" {
				t.Fatalf("status %+v", st)
			}
			ctx := context.Background()
			if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: liveURI}); err != nil {
				t.Fatal(err)
			}
			waitFor(t, time.Minute, "subscription", func() bool {
				s.mu.Lock()
				defer s.mu.Unlock()
				for _, sess := range s.sessions {
					if sess.slot != nil && sess.subs[liveURI] {
						return true
					}
				}
				return false
			})
			// Streamable HTTP delivers unsolicited notifications on the
			// client's GET stream, which it opens after initialize.
			const n = 30
			waitFor(t, 30*time.Second, "30 updates", func() bool {
				f.frame(1)
				time.Sleep(10 * time.Millisecond)
				ev.mu.Lock()
				defer ev.mu.Unlock()
				return len(ev.updates) >= n
			})
			ev.mu.Lock()
			prev := int64(-1)
			for _, u := range ev.updates {
				r := metaRecord(t, u.Meta)
				if u.URI != liveURI || r.Frame <= prev {
					t.Fatalf("update %s frame %d after %d", u.URI, r.Frame, prev)
				}
				prev = r.Frame
			}
			ev.mu.Unlock()

			var cmd Command
			decode(t, callTool(t, cs, toolSwap, map[string]any{"model": "vmaf_v0.6.1neg"}), &cmd)
			if cmd.Status != CommandEnqueued {
				t.Errorf("swap %+v", cmd)
			}
			// The session holds a slot until it ends.
			s.mu.Lock()
			clients := s.clientsLocked()
			s.mu.Unlock()
			if clients != 1 {
				t.Errorf("%d clients counted, want 1", clients)
			}
			cs.Close()
			waitFor(t, time.Minute, "slot given back", func() bool {
				s.mu.Lock()
				defer s.mu.Unlock()
				return s.clientsLocked() == 0 && len(s.sessions) == 0
			})
		})
	}
}

func TestHTTPBindRefused(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:8765", ":8765", "192.0.2.1:8765", "[::]:8765", "example.com:80", "127.0.0.1", "127.0.0.1:http", "127.0.0.1:70000"} {
		_, err := Start("", newFake(), Options{HTTPAddr: addr})
		if err == nil {
			t.Errorf("%s: served", addr)
			continue
		}
		if !strings.Contains(err.Error(), addr) {
			t.Errorf("%s: error %q does not name the address", addr, err)
		}
	}
	_, err := Start("", newFake(), Options{HTTPAddr: "0.0.0.0:8765"})
	if err == nil || !strings.Contains(err.Error(), "not a loopback address") {
		t.Errorf("0.0.0.0: %v", err)
	}

	// A port in use is an error naming it, and a socket bound alongside
	// is given back.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	sock := filepath.Join(t.TempDir(), "vmaf.sock")
	_, err = Start(sock, newFake(), Options{HTTPAddr: ln.Addr().String()})
	if err == nil || !strings.Contains(err.Error(), ln.Addr().String()+" is already in use") {
		t.Errorf("port in use: %v", err)
	}
	if _, serr := os.Lstat(sock); serr == nil {
		t.Errorf("socket %s left behind after the HTTP bind failed", sock)
	}
}

// post sends one JSON-RPC message to /mcp as a Streamable HTTP client does.
func post(t *testing.T, s *Server, body string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, "http://"+s.HTTPAddr()+pathStreamable, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func TestHTTPGuards(t *testing.T) {
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("s3cret-token-0123\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startHTTPTest(t, newFake(), Options{HTTPTokenFile: tokenFile, MaxLineBytes: 4096})
	auth := "Bearer s3cret-token-0123"
	cases := []struct {
		name   string
		body   string
		header map[string]string
		status int
		want   string
	}{
		{"no token", initBody, nil, http.StatusUnauthorized, "bearer token"},
		{"wrong token", initBody, map[string]string{"Authorization": "Bearer nope"}, http.StatusUnauthorized, "bearer token"},
		{"foreign origin", initBody, map[string]string{"Authorization": auth, "Origin": "https://evil.example"}, http.StatusForbidden, "evil.example"},
		{"foreign origin without token", initBody, map[string]string{"Origin": "http://attacker.test:8765"}, http.StatusForbidden, "origin"},
		{"null origin", initBody, map[string]string{"Authorization": auth, "Origin": "null"}, http.StatusForbidden, "origin"},
		{"rebound host", initBody, map[string]string{"Authorization": auth, "Host": "evil.example"}, http.StatusForbidden, "Host"},
		{"oversized", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", 5000) + `"}}`, map[string]string{"Authorization": auth}, http.StatusRequestEntityTooLarge, "4096-byte limit"},
		{"inexact id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, map[string]string{"Authorization": auth}, http.StatusBadRequest, "not an integer"},
		{"loopback origin", initBody, map[string]string{"Authorization": auth, "Origin": "http://localhost:6274"}, http.StatusOK, `"serverInfo"`},
		{"no origin", initBody, map[string]string{"Authorization": auth}, http.StatusOK, `"serverInfo"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, "http://"+s.HTTPAddr()+pathStreamable, strings.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range c.header {
				if k == "Host" {
					req.Host = v
				} else {
					req.Header.Set(k, v)
				}
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.status || !strings.Contains(string(b), c.want) {
				t.Errorf("HTTP %d %q, want %d containing %q", resp.StatusCode, b, c.status, c.want)
			}
			if c.status == http.StatusUnauthorized && resp.Header.Get("WWW-Authenticate") == "" {
				t.Error("401 without WWW-Authenticate")
			}
		})
	}
	// The SDK's own clients get the refusal as an error.
	if _, _, err := connectHTTP(t, s, "http", ""); err == nil {
		t.Error("connected without the token")
	}
	if _, _, err := connectHTTP(t, s, "sse", ""); err == nil {
		t.Error("SSE connected without the token")
	}
	if _, _, err := connectHTTP(t, s, "sse", "s3cret-token-0123"); err != nil {
		t.Errorf("SSE with the token: %v", err)
	}
	for _, bad := range []string{"", "two words\n"} {
		f := filepath.Join(t.TempDir(), "bad")
		os.WriteFile(f, []byte(bad), 0o600)
		if _, err := Start("", newFake(), Options{HTTPAddr: "127.0.0.1:0", HTTPTokenFile: f}); err == nil || !strings.Contains(err.Error(), "token file") {
			t.Errorf("token file %q: %v", bad, err)
		}
	}
	if _, err := Start("", newFake(), Options{HTTPAddr: "127.0.0.1:0", HTTPTokenFile: "/nonexistent/token"}); err == nil || !strings.Contains(err.Error(), "/nonexistent/token") {
		t.Errorf("missing token file: %v", err)
	}
}

// TestHTTPClientLimit: the socket's and HTTP's clients share the slots.
func TestHTTPClientLimit(t *testing.T) {
	s := startHTTPTest(t, newFake(), Options{MaxSessions: 2, MaxSessionsPerPeer: 2, ReservedSlots: -1})
	connectTest(t, s, "2025-06-18")
	if _, _, err := connectHTTP(t, s, "http", ""); err != nil {
		t.Fatal(err)
	}
	resp, body := post(t, s, initBody, nil)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, fmt.Sprint(RPCClientLimit)) || !strings.Contains(body, "2 clients") {
		t.Errorf("HTTP client over the limit: %d %s", resp.StatusCode, body)
	}
	if _, _, err := connectHTTP(t, s, "sse", ""); err == nil {
		t.Error("SSE client over the limit connected")
	}
	// A refused or failed opening gives no slot away.
	s.mu.Lock()
	n := s.clientsLocked()
	s.mu.Unlock()
	if n != 2 {
		t.Errorf("%d clients counted, want 2", n)
	}
	// A request that opens no session (not initialize) gives its slot back.
	s2 := startHTTPTest(t, newFake(), Options{MaxSessions: 1})
	post(t, s2, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil)
	waitFor(t, time.Minute, "slot back", func() bool {
		s2.mu.Lock()
		defer s2.mu.Unlock()
		return s2.clientsLocked() == 0
	})
	if _, _, err := connectHTTP(t, s2, "http", ""); err != nil {
		t.Errorf("after a session-less request: %v", err)
	}
}

// TestHTTPIdleSession: a Streamable HTTP session its client abandoned is
// closed, and its slot freed.
func TestHTTPIdleSession(t *testing.T) {
	s := startHTTPTest(t, newFake(), Options{HTTPIdleTimeout: 200 * time.Millisecond})
	resp, body := post(t, s, initBody, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("initialize: %d %s", resp.StatusCode, body)
	}
	id := resp.Header.Get(sessionIDHeader)
	if id == "" {
		t.Fatal("no session id")
	}
	s.mu.Lock()
	n := len(s.sessions)
	s.mu.Unlock()
	if n != 1 {
		t.Fatalf("%d sessions", n)
	}
	waitFor(t, time.Minute, "idle session closed", func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.sessions) == 0 && s.clientsLocked() == 0
	})
	resp, _ = post(t, s, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, map[string]string{sessionIDHeader: id})
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("closed session answered %d", resp.StatusCode)
	}
}

// TestHTTPStalledListener: a client that stops reading its stream costs
// only its own notifications; the publisher and other clients go on.
// With a write deadline longer than the test, the reading client gets
// every frame while the stalled stream is still open and its writer
// blocked, which it could not if publication waited on that writer; with
// a short one, the stalled stream is cut and its slot given back.
func TestHTTPStalledListener(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout time.Duration
		cut     bool
	}{
		{"held", time.Hour, false},
		// As in TestStalledClient: long enough that the reading client,
		// in this process, is not cut by a stall of the whole process.
		{"cut", 5 * time.Second, true},
	} {
		t.Run(tc.name, func(t *testing.T) { testHTTPStalledListener(t, tc.timeout, tc.cut) })
	}
}

func testHTTPStalledListener(t *testing.T, timeout time.Duration, cut bool) {
	f := newFake()
	s := startHTTPTest(t, f, Options{WriteTimeout: timeout, SessionBuffer: 8})
	// The stalled client: an SSE stream nobody reads, subscribed, with a
	// small receive buffer so that its stream blocks in a few frames.
	conn, err := net.Dial("tcp", s.HTTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.(*net.TCPConn).SetReadBuffer(4096)
	fmt.Fprintf(conn, "GET /sse HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n", s.HTTPAddr())
	buf := make([]byte, 4096)
	conn.SetReadDeadline(time.Now().Add(time.Minute))
	n, err := conn.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(buf[:n]), "/sse?sessionid=")
	if i < 0 {
		t.Fatalf("no endpoint in %q", buf[:n])
	}
	endpoint := strings.Fields(string(buf[i:n]))[0]
	send := func(msg string) {
		req, _ := http.NewRequest(http.MethodPost, "http://"+s.HTTPAddr()+endpoint, strings.NewReader(msg))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	send(initBody)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"vmaf://scores/live"}}`)
	// Over SSE the POST is only accepted; the answer comes on the stream.
	// Read up to it, so that the subscription is in force before any
	// frame: one taken late sees too few frames to block its stream.
	for seen := string(buf[:n]); !strings.Contains(seen, `"id":2`); {
		k, err := conn.Read(buf)
		if err != nil {
			t.Fatalf("no answer to the stalled client's subscribe: %v", err)
		}
		seen += string(buf[:k])
	}

	cs, ev, err := connectHTTP(t, s, "http", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: liveURI}); err != nil {
		t.Fatal(err)
	}
	big := map[string]float64{}
	for i := range 200 {
		big[fmt.Sprintf("feature_%03d_with_a_long_name", i)] = float64(i)
	}
	f.mu.Lock()
	f.feat = big
	f.mu.Unlock()
	const frames = 800
	for range frames {
		f.frame(1)
		time.Sleep(2 * time.Millisecond)
	}
	waitFor(t, 30*time.Second, "the reading client's updates", func() bool {
		var st Status
		decode(t, callTool(t, cs, toolStatus, map[string]any{}), &st)
		ev.mu.Lock()
		defer ev.mu.Unlock()
		return len(ev.updates) > 0 && metaRecord(t, ev.updates[len(ev.updates)-1].Meta).Frame == frames-1
	})
	stalled := func() *session {
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, sess := range s.sessions {
			if sess.slot != nil && sess.slot.transport == "sse" {
				return sess
			}
		}
		return nil
	}
	if !cut {
		// Every frame reached the reader; the stalled stream is still
		// open, its writer holding notifications it cannot write.
		sess := stalled()
		if sess == nil {
			t.Fatal("the stalled SSE session ended before its write deadline")
		}
		sess.out.mu.Lock()
		queued := sess.out.queue.Len()
		sess.out.mu.Unlock()
		if queued == 0 {
			t.Errorf("the stalled SSE session has nothing queued: its stream never blocked")
		}
		return
	}
	// The stalled stream was cut at a write deadline, which ended its
	// session and gave its slot back.
	waitFor(t, 30*time.Second, "the stalled SSE session cut", func() bool {
		if stalled() != nil {
			return false
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.clientsLocked() == 1
	})
}
