package control

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func metaRecord(t *testing.T, m mcp.Meta) Record {
	t.Helper()
	b, err := json.Marshal(m["record"])
	if err != nil {
		t.Fatal(err)
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("record %s: %v", b, err)
	}
	return r
}

func TestLiveScores(t *testing.T) {
	for _, v := range protocols {
		t.Run(v, func(t *testing.T) {
			f := newFake()
			s := startTest(t, f, Options{})
			cs, ev := connectTest(t, s, v)
			ctx := context.Background()
			if v < "2026-07-28" {
				if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
					t.Fatal(err)
				}
			}
			subscribed := make(chan error, 1)
			go func() { subscribed <- cs.Subscribe(ctx, &mcp.SubscribeParams{URI: liveURI}) }()
			if v < "2026-07-28" {
				if err := <-subscribed; err != nil {
					t.Fatal(err)
				}
			}
			// Under SEP-2575 the subscription is a parked listen request;
			// wait until the server knows it.
			waitFor(t, time.Minute, "subscription", func() bool {
				sess := s.snapshot(nil)
				s.mu.Lock()
				defer s.mu.Unlock()
				return len(sess) == 1 && sess[0].subs[liveURI]
			})
			const n = 50
			for i := range n {
				f.frame(float64(i))
			}
			wantLogs := n
			if v >= "2026-07-28" {
				wantLogs = 0 // logging/setLevel is gone from this version
			}
			waitFor(t, time.Minute, "50 notifications", func() bool {
				ev.mu.Lock()
				defer ev.mu.Unlock()
				return len(ev.updates) >= n && len(ev.logs) >= wantLogs
			})
			ev.mu.Lock()
			defer ev.mu.Unlock()
			for i, u := range ev.updates[:n] {
				if u.URI != liveURI {
					t.Fatalf("update %d for %s", i, u.URI)
				}
				r := metaRecord(t, u.Meta)
				if r.Frame != int64(i) || r.Score != float64(i) || r.Model != "vmaf" || r.Features["integer_adm2"] != float64(i)/100 {
					t.Fatalf("update %d carries %+v", i, r)
				}
				if _, ok := u.Meta["dropped"]; ok {
					t.Errorf("update %d reports drops for a client that kept up", i)
				}
			}
			if len(ev.logs) != wantLogs {
				t.Errorf("%d log lines, want %d", len(ev.logs), wantLogs)
			}
			for i, l := range ev.logs {
				if b, _ := json.Marshal(l.Data); !strings.Contains(string(b), fmt.Sprintf(`"frame":%d,`, i)) {
					t.Errorf("log line %d: %s", i, b)
					break
				}
			}

			// Reading the resource returns the latest record.
			rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: liveURI})
			if err != nil {
				t.Fatal(err)
			}
			var last Record
			if err := json.Unmarshal([]byte(rr.Contents[0].Text), &last); err != nil || last.Frame != n-1 {
				t.Errorf("live resource = %s (%v)", rr.Contents[0].Text, err)
			}
			rr, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: statusURI})
			if err != nil || !strings.Contains(rr.Contents[0].Text, `"frames_scored":50`) {
				t.Errorf("status resource = %v (%v)", rr, err)
			}
		})
	}
}

func TestStatusSubscription(t *testing.T) {
	f := newFake()
	s := startTest(t, f, Options{})
	cs, ev := connectTest(t, s, "2025-11-25")
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: statusURI}); err != nil {
		t.Fatal(err)
	}
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: "vmaf://nope"}); err == nil {
		t.Error("subscribing to an unknown resource succeeded")
	}
	// Changes count from the publisher's first look at the status.
	waitFor(t, time.Minute, "the publisher's first look", func() bool { return s.statusLooks.Load() > 0 })
	callTool(t, cs, "vmaf_pause", nil)
	f.frame(1)
	waitFor(t, time.Minute, "status update", func() bool {
		ev.mu.Lock()
		defer ev.mu.Unlock()
		for _, u := range ev.updates {
			if u.URI == statusURI {
				return true
			}
		}
		return false
	})
}

// rawClient speaks JSON-RPC lines on the socket directly, to send what no
// SDK would and to stop reading at will.
type rawClient struct {
	conn net.Conn
	r    *bufio.Reader
}

func dialRaw(t *testing.T, path string) *rawClient {
	t.Helper()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &rawClient{conn: c, r: bufio.NewReaderSize(c, 1<<20)}
}

func (c *rawClient) send(t *testing.T, line string) {
	t.Helper()
	c.conn.SetWriteDeadline(time.Now().Add(time.Minute))
	if _, err := c.conn.Write([]byte(line + "\n")); err != nil {
		t.Fatalf("write: %v", err)
	}
}

// recv returns the next message that is not a notification.
func (c *rawClient) recv(t *testing.T) map[string]any {
	t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(time.Minute))
	for {
		line, err := c.r.ReadBytes('\n')
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("server sent invalid JSON %q: %v", line, err)
		}
		if _, isNote := m["method"]; !isNote {
			return m
		}
	}
}

func (c *rawClient) initialize(t *testing.T, version string) {
	t.Helper()
	c.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, version))
	if m := c.recv(t); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	c.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// TestStalledClient: a client that stops reading costs only its own
// notifications. With a write deadline longer than the test, the healthy
// client gets every frame while the stalled client is still connected and
// its writer blocked, which it could not if publication waited on that
// writer; with a short one, the stalled client is cut off.
func TestStalledClient(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout time.Duration
		cut     bool
	}{
		{"held", time.Hour, false},
		// The healthy client shares the process: a deadline a stall of
		// the whole process under load could outlast would cut it too.
		{"cut", 5 * time.Second, true},
	} {
		t.Run(tc.name, func(t *testing.T) { testStalledClient(t, tc.timeout, tc.cut) })
	}
}

func testStalledClient(t *testing.T, timeout time.Duration, cut bool) {
	const n, batch = 750, 50
	f := newFake()
	f.chanSize = n // the test checks the publisher keeps up, not the feed's own bound
	s := startTest(t, f, Options{WriteTimeout: timeout})

	stalled := dialRaw(t, s.Path())
	stalled.initialize(t, "2025-11-25")
	stalled.send(t, `{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"vmaf://scores/live"}}`)
	stalled.recv(t)
	// From here on the stalled client reads nothing.

	cs, ev := connectTest(t, s, "2025-11-25")
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: liveURI}); err != nil {
		t.Fatal(err)
	}
	// Fat records fill the stalled client's socket buffer in a few dozen frames.
	f.feat = map[string]float64{}
	for i := range 64 {
		f.feat[fmt.Sprintf("feature_with_a_long_name_%02d", i)] = 0.123456789
	}
	lastFrame := func() (got int, dropped uint64, last int64) {
		ev.mu.Lock()
		defer ev.mu.Unlock()
		last = -1
		for _, u := range ev.updates {
			if d, ok := u.Meta["dropped"].(float64); ok {
				dropped += uint64(d)
			}
		}
		if len(ev.updates) > 0 {
			// Only the last: decoding them all on every poll would starve the client.
			last = metaRecord(t, ev.updates[len(ev.updates)-1].Meta).Frame
		}
		return len(ev.updates), dropped, last
	}
	// Frames go out in batches smaller than a client's buffer, each once
	// the healthy client has every one before it: however slow the
	// machine, a client that keeps reading loses nothing.
	for i := 0; i < n; i += batch {
		for j := i; j < i+batch; j++ {
			f.frame(float64(j % 100))
		}
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			// Every record of the batch counted, not only the last seen:
			// the client may hand notifications on out of their order.
			got, dropped, last := lastFrame()
			if got+int(dropped) >= i+batch {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("healthy client: last record %d of %d after %d delivered, %d dropped; %d sessions left", last, i+batch-1, got, dropped, len(s.snapshot(nil)))
			}
		}
	}
	got, dropped, _ := lastFrame()
	if got != n || dropped != 0 {
		t.Errorf("healthy client: %d delivered, %d reported dropped, want all %d", got, dropped, n)
	}
	f.subMu.Lock()
	lost := f.lost
	f.subMu.Unlock()
	if lost > 0 {
		t.Errorf("publisher fell behind the target by %d records while a client stalled", lost)
	}
	if !cut {
		// The stalled client is still connected, its writer holding
		// notifications it cannot write.
		// (The healthy client has read everything it was sent.)
		sessions, queued := s.snapshot(nil), 0
		for _, sess := range sessions {
			sess.out.mu.Lock()
			queued = max(queued, sess.out.queue.Len())
			sess.out.mu.Unlock()
		}
		switch {
		case len(sessions) != 2:
			t.Errorf("%d sessions: the stalled client was cut off before its write deadline", len(sessions))
		case queued == 0:
			t.Error("the stalled client has nothing queued: its writes never blocked")
		}
		return
	}
	// The stalled client was cut off once a write to it moved nothing for
	// the deadline.
	waitFor(t, 30*time.Second, "the stalled client to be disconnected", func() bool { return len(s.snapshot(nil)) == 1 })
}

func TestOutboxDropsOldest(t *testing.T) {
	o := newOutbox(4)
	for i := range 10 {
		o.push(note{method: methodResourceUpdated, params: &mcp.ResourceUpdatedNotificationParams{URI: fmt.Sprint(i)}})
	}
	o.addDropped(2)
	nt, dropped, ok := o.pop()
	if !ok || nt.params.(*mcp.ResourceUpdatedNotificationParams).URI != "6" || dropped != 8 {
		t.Fatalf("first pop = %v %d %v, want URI 6 after 8 dropped", nt.params, dropped, ok)
	}
	for want := 7; want <= 9; want++ {
		nt, dropped, _ = o.pop()
		if got := nt.params.(*mcp.ResourceUpdatedNotificationParams).URI; got != fmt.Sprint(want) || dropped != 0 {
			t.Fatalf("pop = %s (dropped %d), want %d", got, dropped, want)
		}
	}
	if _, _, ok := o.pop(); ok {
		t.Fatal("pop from an empty outbox")
	}

	shared := &mcp.ResourceUpdatedNotificationParams{URI: liveURI, Meta: mcp.Meta{"record": 1}}
	got := withDropped(shared, 3).(*mcp.ResourceUpdatedNotificationParams)
	if got.Meta["dropped"] != uint64(3) || got.Meta["record"] != 1 {
		t.Errorf("meta = %v", got.Meta)
	}
	if _, ok := shared.Meta["dropped"]; ok {
		t.Error("withDropped changed params other sessions share")
	}
	line, err := encodeNote(methodResourceUpdated, got)
	if err != nil || string(line) != `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"dropped":3,"record":1},"uri":"vmaf://scores/live"}}`+"\n" {
		t.Errorf("encoded %q, %v", line, err)
	}
}

// TestSplicedLines checks the hand-spliced per-frame lines against what
// encodeNote writes for the same params.
func TestSplicedLines(t *testing.T) {
	f := newFake()
	s := startTest(t, f, Options{})
	connectTest(t, s, "2025-11-25")
	f.frame(42.5)
	waitFor(t, time.Minute, "a published frame", func() bool { return s.shared.Load() != nil })
	sh := s.shared.Load()
	for _, tc := range []struct {
		method string
		params mcp.Params
		line   []byte
	}{
		{methodResourceUpdated, sh.live, sh.liveLine},
		{methodLogMessage, sh.log, sh.logLine},
	} {
		want, err := encodeNote(tc.method, tc.params)
		if err != nil || string(tc.line) != string(want) {
			t.Errorf("%s:\nspliced %s\nencoded %s (%v)", tc.method, tc.line, want, err)
		}
	}
}
