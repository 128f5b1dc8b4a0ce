package control

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recvLine returns the next line that is not a notification, as sent.
func (c *rawClient) recvLine(t *testing.T) string {
	t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(time.Minute)) // a guard against a hang
	for {
		line, err := c.r.ReadString('\n')
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		if !strings.Contains(line, `"method"`) {
			return line
		}
	}
}

// closedWithin reports whether the server hangs up on c within d.
func (c *rawClient) closedWithin(d time.Duration) bool {
	c.conn.SetReadDeadline(time.Now().Add(d))
	for {
		if _, err := c.r.ReadString('\n'); err != nil {
			return !isTimeout(err)
		}
	}
}

// expectCut reads c's refusal for want of initialize and then the end
// of the connection; the minute is a guard against a hang.
func (c *rawClient) expectCut(t *testing.T, what string) {
	t.Helper()
	if code, msg := errorCode(c.recv(t)); code != -32600 || !strings.Contains(msg, "no initialize") {
		t.Errorf("%s: %v %q", what, code, msg)
	}
	if !c.closedWithin(time.Minute) {
		t.Errorf("%s still connected a minute after its refusal", what)
	}
}

// The handshake deadline of the tests that see it pass. It is what they
// test, so it cannot be a state; they check only the order of events
// (a client whose deadline began after another's is cut: the other's
// deadline has passed too), and a handshake has these seconds to finish
// under load.
const handshakeTest = 10 * time.Second

// TestFaultIdleConnections: connections that never sent a byte used to
// hold their slots for ever, so that every new client was refused.
func TestFaultIdleConnections(t *testing.T) {
	// With a deadline of an hour, four silent connections hold every
	// slot (none has been idle long enough to be displaced), and a fifth
	// is refused at once.
	full := startTest(t, newFake(), Options{MaxSessions: 4, MaxSessionsPerPeer: 4, HandshakeTimeout: time.Hour, ReclaimIdle: time.Hour})
	for range 4 {
		dialRaw(t, full.Path())
	}
	waitClients(t, full, 4)
	late := dialRaw(t, full.Path())
	if code, msg := errorCode(late.recv(t)); code != -32002 || !strings.Contains(msg, "4 clients already connected") {
		t.Fatalf("fifth client while four idle: %v %q", code, msg)
	}

	// With a deadline, silent connections are cut and give their slots
	// back; a client that opened its session keeps it past the deadline:
	// it connected before the silent ones, so when they are cut its own
	// deadline has passed.
	s := startTest(t, newFake(), Options{MaxSessions: 4, MaxSessionsPerPeer: 4, HandshakeTimeout: handshakeTest})
	cs, _ := connectTest(t, s, "2025-11-25")
	var idle []*rawClient
	t0 := time.Now()
	for range 3 {
		idle = append(idle, dialRaw(t, s.Path()))
	}
	for i, c := range idle {
		c.expectCut(t, fmt.Sprintf("idle client %d", i))
	}
	if d := time.Since(t0); d < handshakeTest {
		t.Errorf("idle clients cut after %v, before the %v deadline", d, handshakeTest)
	}
	waitClients(t, s, 1)
	var st Status
	decode(t, callTool(t, cs, toolStatus, nil), &st)
	if st.State != StateRunning {
		t.Errorf("status after the handshake deadline: %+v", st)
	}
}

// waitClients waits until the server counts n clients.
func waitClients(t *testing.T, s *Server, n int) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); s.Clients() != n; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d clients connected, want %d", s.Clients(), n)
		}
	}
}

// TestFaultHandshakeSessionless: protocol versions without initialize
// open the session with their first request, which meets the deadline; a
// ping alone does not.
func TestFaultHandshakeSessionless(t *testing.T) {
	f := newFake()
	s := startTest(t, f, Options{HandshakeTimeout: handshakeTest, ListTimeout: time.Hour})
	cs, _ := connectTest(t, s, "2026-07-28")
	// A sessionless request that runs past the deadline keeps its
	// connection until it is answered.
	stuck := &stuckModels{ignore: true, release: make(chan struct{})}
	f.models = stuck.models
	c := dialRaw(t, s.Path())
	c.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"vmaf_list_models","_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`)
	waitFor(t, time.Minute, "the listing to start", func() bool { return stuck.started.Load() == 1 })
	// A ping alone does not open a session either.
	ping := dialRaw(t, s.Path())
	ping.send(t, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	ping.recv(t)
	// A silent client dialled last: once it is cut, every deadline above
	// has passed.
	dialRaw(t, s.Path()).expectCut(t, "the silent client")
	var st Status
	decode(t, callTool(t, cs, toolStatus, nil), &st)
	if !ping.closedWithin(time.Minute) {
		t.Error("a client that only pinged kept its slot past the handshake deadline")
	}
	if stuck.returned.Load() != 0 {
		t.Fatal("the listing returned before its release; the test needs it running past the deadline")
	}
	close(stuck.release)
	if got := c.recvLine(t); !strings.Contains(got, `"id":2,"result"`) {
		t.Errorf("a sessionless call longer than the deadline: %.200s", got)
	}
}

// TestFaultPeerShare: one process may hold only its share of the slots.
func TestFaultPeerShare(t *testing.T) {
	s := startTest(t, newFake(), Options{MaxSessions: 4, HandshakeTimeout: time.Minute})
	a, b := dialRaw(t, s.Path()), dialRaw(t, s.Path())
	a.initialize(t, "2025-11-25")
	b.initialize(t, "2025-11-25")
	c := dialRaw(t, s.Path())
	if code, msg := errorCode(c.recv(t)); code != -32002 || !strings.Contains(msg, fmt.Sprintf("process %d already has 2 connections", os.Getpid())) {
		t.Fatalf("third client of one process: %v %q", code, msg)
	}
	// Other processes still get the remaining slots.
	for pid := int32(1); pid <= 2; pid++ {
		w := &wireConn{}
		if reason := s.track(w, peer{pid: pid}); reason != "" {
			t.Errorf("process %d refused: %s", pid, reason)
		}
		defer s.untrack(w, peer{pid: pid})
	}
	if reason := s.track(&wireConn{}, peer{pid: 3}); !strings.Contains(reason, "4 clients already connected") {
		t.Errorf("fifth client overall: %q", reason)
	}
}

// TestFaultRequestIDs: the SDK reads ids as float64 and answers with their
// int64 value, so 1.5 came back as 1 and 2^70 as -2^63. Such ids are now
// refused, naming the id as sent; ids it echoes exactly still work.
func TestFaultRequestIDs(t *testing.T) {
	s := startTest(t, newFake(), Options{})
	c := dialRaw(t, s.Path())
	c.initialize(t, "2025-03-26")
	for _, tc := range []struct {
		id   string
		good bool
	}{
		{"1.5", false},
		{"1180591620717411303424", false}, // 2^70
		{"9007199254740993", false},       // 2^53+1: float64 rounds it
		{"1e2", false},
		{"-0.0", false},
		{"-0", false},
		{"42", true},
		{"-7", true},
		{"9007199254740992", true},
		{`"abc"`, true},
	} {
		line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"ping"}`, tc.id)
		c.send(t, line)
		got := c.recvLine(t)
		if !strings.Contains(got, `"id":`+tc.id+`,`) && !strings.Contains(got, `"id":`+tc.id+`}`) {
			t.Errorf("id %s answered as %s", tc.id, got)
		}
		hasErr := strings.Contains(got, `"error"`)
		if tc.good == hasErr || !tc.good && !strings.Contains(got, "-32600") {
			t.Errorf("id %s: %s", tc.id, got)
		}
		if !tc.good && !strings.Contains(got, "id "+tc.id+" is not an integer") {
			t.Errorf("id %s: the error does not name the id: %s", tc.id, got)
		}
	}
	// A number of a thousand digits is not echoed.
	c.send(t, `{"jsonrpc":"2.0","id":`+strings.Repeat("9", 1000)+`,"method":"ping"}`)
	if got := c.recvLine(t); !strings.Contains(got, `"id":null`) || !strings.Contains(got, "1000 digits") {
		t.Errorf("id of 1000 digits: %.300s", got)
	}
	// In a batch too.
	c.send(t, `[{"jsonrpc":"2.0","id":2.5,"method":"ping"}]`)
	if got := c.recvLine(t); !strings.Contains(got, "-32600") || !strings.Contains(got, "2.5") {
		t.Errorf("batch with id 2.5: %s", got)
	}
}

// TestFaultLoggingLevel: logging/setLevel took any string, and an unknown
// level silently stopped the client's log notifications.
func TestFaultLoggingLevel(t *testing.T) {
	s := startTest(t, newFake(), Options{})
	c := dialRaw(t, s.Path())
	c.initialize(t, "2025-11-25")
	c.send(t, `{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"bogus"}}`)
	if code, msg := errorCode(c.recv(t)); code != -32602 || !strings.Contains(msg, `unknown logging level "bogus"`) {
		t.Errorf("level bogus: %v %q", code, msg)
	}
	c.send(t, `{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"warning"}}`)
	if m := c.recv(t); m["error"] != nil {
		t.Errorf("level warning: %v", m)
	}
}

// TestFaultLongStrings: strings a client sets are bounded on the wire, and
// names tighter; the status reply's swap history is bounded.
func TestFaultLongStrings(t *testing.T) {
	f := newFake()
	f.capacity = 100
	s := startTest(t, f, Options{})
	c := dialRaw(t, s.Path())
	c.initialize(t, "2025-11-25")
	long := strings.Repeat("x", 900<<10)
	for _, tc := range []struct {
		name, line string
		code       float64
		msg        string
	}{
		{"swap model", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"vmaf_request_model_swap","arguments":{"model":"` + long + `"}}}`, -32602, "strings are at most 4096"},
		{"swap name", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"vmaf_request_model_swap","arguments":{"model":"vmaf_v0.6.1","name":"` + long + `"}}}`, -32602, "strings are at most 4096"},
		{"prompt argument", `{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"monitor_stream","arguments":{"threshold":"` + long + `"}}}`, -32602, "strings are at most 4096"},
		{"resource uri", `{"jsonrpc":"2.0","id":4,"method":"resources/subscribe","params":{"uri":"` + long + `"}}`, -32602, "strings are at most 4096"},
		{"prompt argument of 100 bytes", `{"jsonrpc":"2.0","id":5,"method":"prompts/get","params":{"name":"monitor_stream","arguments":{"threshold":"` + strings.Repeat("9", 100) + `"}}}`, -32602, "at most 64 bytes"},
	} {
		c.send(t, tc.line)
		m := c.recv(t)
		code, msg := errorCode(m)
		if code != tc.code || !strings.Contains(msg, tc.msg) || len(msg) > 4096 {
			t.Errorf("%s: code %v, message %.200q", tc.name, code, msg)
		}
	}
	// A name over 256 bytes is a tool error.
	cs, _ := connectTest(t, s, "2025-11-25")
	res := callTool(t, cs, toolSwap, map[string]any{"model": "vmaf_v0.6.1", "name": strings.Repeat("n", 300)})
	if !res.IsError || strings.Contains(resultText(res), strings.Repeat("n", 300)) {
		t.Errorf("300-byte name: %s", resultText(res))
	}
	// Forty swaps: the status reply keeps the latest 16 and counts the rest.
	for range 40 {
		decode(t, callTool(t, cs, toolSwap, map[string]any{"model": "vmaf_v0.6.1", "name": strings.Repeat("n", 256)}), &Command{})
		f.frame(50)
	}
	var st Status
	decode(t, callTool(t, cs, toolStatus, nil), &st)
	if len(st.Swaps) != maxStatusSwaps || st.SwapsOmitted != 40-maxStatusSwaps || st.Swaps[len(st.Swaps)-1].Command != 40 {
		t.Errorf("status after 40 swaps: %d swaps, %d omitted", len(st.Swaps), st.SwapsOmitted)
	}
}

// TestFaultScoreCapped: last=1000 returned the 256 records kept without
// saying so.
func TestFaultScoreCapped(t *testing.T) {
	f := newFake()
	f.keep = 256
	s := startTest(t, f, Options{})
	for range 300 {
		f.frame(80)
	}
	cs, _ := connectTest(t, s, "2025-11-25")
	var sc Scores
	decode(t, callTool(t, cs, toolScore, map[string]any{"last": 1000}), &sc)
	if len(sc.Records) != 256 || sc.Capped == nil || sc.Capped.Asked != 1000 || sc.Capped.Returned != 256 || !strings.Contains(sc.Capped.Reason, "256 of 300") {
		t.Errorf("last=1000: %d records, capped %+v", len(sc.Records), sc.Capped)
	}
	sc = Scores{}
	decode(t, callTool(t, cs, toolScore, map[string]any{"last": 10}), &sc)
	if len(sc.Records) != 10 || sc.Capped != nil {
		t.Errorf("last=10: %d records, capped %+v", len(sc.Records), sc.Capped)
	}
}

// stuckModels is a Models that blocks like a read of a FIFO: until ctx
// ends, or, when ignore is set, until release closes.
type stuckModels struct {
	ignore   bool
	release  chan struct{}
	started  atomic.Int32
	returned atomic.Int32
}

func (m *stuckModels) models(ctx context.Context) (ModelList, error) {
	m.started.Add(1)
	defer m.returned.Add(1)
	if m.ignore {
		<-m.release
		return ModelList{}, nil
	}
	<-ctx.Done()
	return ModelList{}, ctx.Err()
}

// TestFaultListModelsStuck: a listing that blocked (a FIFO named *.json)
// held its client's slot for ever, ignored cancellation, and after about
// forty calls every client was refused.
func TestFaultListModelsStuck(t *testing.T) {
	f := newFake()
	stuck := &stuckModels{}
	f.models = stuck.models
	s := startTest(t, f, Options{MaxSessions: 2, MaxSessionsPerPeer: 2, ListTimeout: 300 * time.Millisecond})

	// The deadline answers the call.
	cs, _ := connectTest(t, s, "2025-11-25")
	t0 := time.Now()
	res := callTool(t, cs, toolListModels, nil) // a minute's guard: the listing never returns of itself
	if !res.IsError || time.Since(t0) < 300*time.Millisecond {
		t.Errorf("stuck listing answered after %v: %s", time.Since(t0), resultText(res))
	}

	// notifications/cancelled ends the handler, long before the deadline.
	fc := newFake()
	cancelled := &stuckModels{}
	fc.models = cancelled.models
	sc := startTest(t, fc, Options{ListTimeout: time.Minute})
	csc, _ := connectTest(t, sc, "2025-11-25")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for cancelled.started.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	if _, err := csc.CallTool(ctx, &mcp.CallToolParams{Name: toolListModels}); err == nil {
		t.Error("cancelled call returned no error")
	}
	waitFor(t, time.Minute, "the cancelled handler to return", func() bool { return cancelled.returned.Load() == 1 })

	// A client that leaves mid-call gives its slot back at once, even while
	// its handler has not returned, many times over.
	f2 := newFake()
	held := &stuckModels{ignore: true, release: make(chan struct{})}
	defer close(held.release)
	f2.models = held.models
	s2 := startTest(t, f2, Options{MaxSessions: 1})
	for i := range 10 {
		old := map[*session]bool{}
		s2.mu.Lock()
		for _, sess := range s2.sessions {
			old[sess] = true
		}
		s2.mu.Unlock()
		c := dialRaw(t, s2.Path())
		c.initialize(t, "2025-11-25")
		c.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"vmaf_list_models"}}`, i+1))
		if i < maxListings {
			waitFor(t, time.Minute, "listing started", func() bool { return held.started.Load() == int32(1+i) })
		} else {
			// Past the listing slots the call waits for one, as much a
			// handler running as one that started.
			waitFor(t, time.Minute, "the call to be in flight", func() bool {
				s2.mu.Lock()
				defer s2.mu.Unlock()
				for _, sess := range s2.sessions {
					if !old[sess] && sess.inFlight.Load() == 1 {
						return true
					}
				}
				return false
			})
		}
		c.conn.Close()
		waitFor(t, time.Minute, "the slot to be given back", func() bool {
			s2.mu.Lock()
			defer s2.mu.Unlock()
			return len(s2.conns) == 0
		})
	}
	if n := held.returned.Load(); n != 0 {
		t.Fatalf("%d handlers returned; the test needs them stuck", n)
	}
	cs2, _ := connectTest(t, s2, "2025-11-25")
	var st Status
	decode(t, callTool(t, cs2, toolStatus, nil), &st)
	// With every listing slot held by a stuck handler, a listing is
	// refused at its deadline instead of piling up.
	s3 := startTest(t, f2, Options{ListTimeout: 200 * time.Millisecond})
	for range maxListings {
		c := dialRaw(t, s3.Path())
		c.initialize(t, "2025-11-25")
		c.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"vmaf_list_models"}}`)
	}
	waitFor(t, time.Minute, "listing slots taken", func() bool { return held.started.Load() == 2*maxListings })
	cs3, _ := connectTest(t, s3, "2025-11-25")
	if res := callTool(t, cs3, toolListModels, nil); !res.IsError || !strings.HasPrefix(resultText(res), CodeBusy) {
		t.Errorf("listing with every slot held: %s", resultText(res))
	}
}

// TestFaultCloseWithStuckHandler: shutdown waited for every handler, so a
// handler that never returned hung the host at "Setting pipeline to NULL"
// and left the socket behind.
func TestFaultCloseWithStuckHandler(t *testing.T) {
	f := newFake()
	stuck := &stuckModels{ignore: true, release: make(chan struct{})}
	defer close(stuck.release)
	f.models = stuck.models
	path := t.TempDir() + "/vmaf.sock"
	s, err := Start(path, f, Options{CloseTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	c := dialRaw(t, path)
	c.initialize(t, "2025-11-25")
	c.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"vmaf_list_models"}}`)
	waitFor(t, time.Minute, "listing started", func() bool { return stuck.started.Load() == 1 })
	// The handler never returns before the test ends: Close returning
	// at all shows it did not wait for it (the minute is a hang guard).
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(time.Minute):
		t.Fatal("Close still waiting a minute after it was called, with a stuck handler")
	}
	if stuck.returned.Load() != 0 {
		t.Error("the stuck handler returned; the test needs it stuck")
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Errorf("socket left behind: %v", err)
	}
}

// TestFaultDisconnectMidSubscription: a subscriber that vanishes costs the
// stream nothing and gives its slot back.
func TestFaultDisconnectMidSubscription(t *testing.T) {
	f := newFake()
	s := startTest(t, f, Options{MaxSessions: 1})
	c := dialRaw(t, s.Path())
	c.initialize(t, "2025-11-25")
	c.send(t, `{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"vmaf://scores/live"}}`)
	c.recv(t)
	for range 10 {
		f.frame(70)
	}
	c.conn.Close()
	for range 10 {
		f.frame(71)
	}
	waitClients(t, s, 0)
	conn, err := net.Dial("unix", s.Path())
	if err != nil {
		t.Fatal(err)
	}
	cl := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := cl.Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
	if err != nil {
		t.Fatalf("connecting once the slot is free: %v", err)
	}
	defer cs.Close()
	var st Status
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: toolStatus})
	if err != nil {
		t.Fatal(err)
	}
	decode(t, res, &st)
	if st.FramesScored != 20 {
		t.Errorf("frames scored %d, want 20", st.FramesScored)
	}
}

// TestFaultPromptNonFinite: prompt arguments are numbers, and NaN or
// infinity make no threshold or frame range.
func TestFaultPromptNonFinite(t *testing.T) {
	s := startTest(t, newFake(), Options{})
	cs, _ := connectTest(t, s, "2025-11-25")
	for _, tc := range []struct {
		prompt string
		args   map[string]string
	}{
		{"monitor_stream", map[string]string{"threshold": "NaN"}},
		{"monitor_stream", map[string]string{"window": "+Inf"}},
		{"diagnose_quality_drop", map[string]string{"from": "0", "to": "Infinity"}},
		{"diagnose_quality_drop", map[string]string{"from": "nan", "to": "3"}},
	} {
		_, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: tc.prompt, Arguments: tc.args})
		var je *jsonrpc.Error
		if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || !strings.Contains(je.Message, "not a finite number") {
			t.Errorf("%s %v: %v", tc.prompt, tc.args, err)
		}
	}
}
