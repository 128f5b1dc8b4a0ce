package control

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestPeerRole(t *testing.T) {
	const owner, full, ro = 1000, 2000, 3000
	for _, tt := range []struct {
		name          string
		p             peer
		allow, rdonly int
		want          string
	}{
		{"owner", peer{uid: owner, gid: 1}, -1, -1, roleFull},
		{"owner in the read-only group stays full", peer{uid: owner, gid: ro}, -1, ro, roleFull},
		{"allowed group", peer{uid: 5, gid: full}, full, ro, roleFull},
		{"read-only group", peer{uid: 5, gid: ro}, full, ro, roleReadOnly},
		{"read-only group alone", peer{uid: 5, gid: ro}, -1, ro, roleReadOnly},
		{"stranger", peer{uid: 5, gid: 6}, full, ro, roleNone},
		{"no groups", peer{uid: 5, gid: ro}, -1, -1, roleNone},
		{"root is no exception", peer{uid: 0, gid: 0}, -1, -1, roleNone},
	} {
		if got := tt.p.role(owner, tt.allow, tt.rdonly); got != tt.want {
			t.Errorf("%s: role %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestSocketAccess(t *testing.T) {
	for _, tt := range []struct {
		allow, rdonly int
		gid           int
		world         bool
	}{
		{0, 0, -1, false},
		{10, 0, 10, false},
		{0, 20, 20, false},
		{10, 20, 10, true},
		{10, 10, 10, false},
	} {
		s := newServer("", newFake(), Options{AllowGID: tt.allow, ReadOnlyGID: tt.rdonly})
		if gid, world := s.socketAccess(); gid != tt.gid || world != tt.world {
			t.Errorf("allow %d read-only %d: group %d world %v, want %d %v", tt.allow, tt.rdonly, gid, world, tt.gid, tt.world)
		}
		s.cancel()
	}
}

// TestReadOnlySocketModes: the read-only group alone gets the socket as
// the allowed group does; with both groups the socket is open to all and
// SO_PEERCRED decides.
func TestReadOnlySocketModes(t *testing.T) {
	gid := os.Getegid()
	if gid == 0 {
		gid = 4 // root may give the socket to any existing group
	}
	for _, tt := range []struct {
		opts Options
		mode os.FileMode
	}{
		{Options{ReadOnlyGID: gid}, 0o660},
		{Options{ReadOnlyGID: gid, AllowGID: gid + 1}, 0o666},
	} {
		if tt.opts.AllowGID != 0 && os.Geteuid() != 0 {
			continue // only root may give a file to a group it is not in
		}
		s := startTest(t, newFake(), tt.opts)
		fi, err := os.Lstat(s.Path())
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != tt.mode {
			t.Errorf("%+v: socket mode %v, want %v", tt.opts, fi.Mode().Perm(), tt.mode)
		}
		if tt.mode == 0o660 && int(fi.Sys().(*syscall.Stat_t).Gid) != gid {
			t.Errorf("%+v: socket group %d, want %d", tt.opts, fi.Sys().(*syscall.Stat_t).Gid, gid)
		}
	}
}

// TestReadOnlyRefusedAndAudited: a read-only caller is refused a command
// with read_only, naming itself and the group, and the refusal is in the
// control log with its pid and uid.
func TestReadOnlyRefusedAndAudited(t *testing.T) {
	var log bytes.Buffer
	s := newServer("", newFake(), Options{ReadOnlyGID: 4244, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	defer s.cancel()
	c := caller{transport: "uds", peer: peer{pid: 77, uid: 65534, gid: 4244}, role: roleReadOnly}
	err := s.mayCommand(context.Background(), toolSwap, c)
	if ErrorCode(err) != CodeReadOnly || !strings.Contains(err.Error(), "uid 65534 gid 4244") || !strings.Contains(err.Error(), "vmaf_request_model_swap") {
		t.Errorf("read-only swap: %v", err)
	}
	want := "tool=vmaf_request_model_swap outcome=refused transport=uds pid=77 uid=65534 gid=4244 role=read_only"
	if !strings.Contains(log.String(), want) {
		t.Errorf("log %q lacks %q", log.String(), want)
	}
	for _, c := range []caller{{transport: "uds", role: roleFull}, {transport: "http", remote: "127.0.0.1:5", role: roleFull}} {
		if err := s.mayCommand(context.Background(), toolPause, c); err != nil {
			t.Errorf("%s: %v", c, err)
		}
	}
}

// TestCommandRepliesAndAudit: the owner's swap of a model that does not
// suit the stream carries the target's mismatched_model_warning; every
// reply that scores names the engine and the version; each command is in
// the control log with the peer's pid and uid.
func TestCommandRepliesAndAudit(t *testing.T) {
	var log syncBuffer
	f := newFake()
	s := startTest(t, f, Options{Version: "1.2.3-test", Logger: slog.New(slog.NewTextHandler(&log, nil))})
	cs, _ := connectTest(t, s, "2025-11-25")

	if got := cs.InitializeResult().ServerInfo.Version; got != "1.2.3-test" {
		t.Errorf("serverInfo.version %q", got)
	}
	var c Command
	decode(t, callTool(t, cs, toolSwap, map[string]any{"model": "vmaf_4k_v0.6.1"}), &c)
	if c.MismatchedModelWarning == "" || c.EngineUsed != "native" || c.Version != "1.2.3-test" {
		t.Errorf("swap reply %+v", c)
	}
	var fit Command
	decode(t, callTool(t, cs, toolSwap, map[string]any{"model": "vmaf_v0.6.1"}), &fit)
	if fit.MismatchedModelWarning != "" {
		t.Errorf("fitting swap warned: %+v", fit)
	}
	var sc Scores
	f.frame(90)
	decode(t, callTool(t, cs, toolScore, nil), &sc)
	if sc.EngineUsed != "native" || sc.Version != "1.2.3-test" {
		t.Errorf("vmaf_score engine_used %q version %q", sc.EngineUsed, sc.Version)
	}
	decode(t, callTool(t, cs, toolPause, nil), &c)
	if c.EngineUsed != "native" || c.Version != "1.2.3-test" {
		t.Errorf("pause reply %+v", c)
	}
	if res := callTool(t, cs, toolSwap, map[string]any{"model": "/etc/passwd"}); !res.IsError {
		t.Error("swap to /etc/passwd accepted")
	}
	logged := log.String()
	for _, want := range []string{
		"tool=vmaf_request_model_swap outcome=enqueued transport=uds pid=" + itoa(os.Getpid()) + " uid=" + itoa(os.Geteuid()),
		`model="\"vmaf_4k_v0.6.1\""`,
		"tool=vmaf_pause outcome=enqueued",
		"tool=vmaf_request_model_swap outcome=refused",
	} {
		if !strings.Contains(logged, want) {
			t.Errorf("control log lacks %q:\n%s", want, logged)
		}
	}
}

func itoa(v int) string { return strconv.Itoa(v) }

// TestDescribeModelTool: vmaf_describe_model through the server, with the
// target's refusals as tool errors.
func TestDescribeModelTool(t *testing.T) {
	s := startTest(t, newFake(), Options{})
	cs, _ := connectTest(t, s, "2025-11-25")
	var d ModelDescription
	decode(t, callTool(t, cs, toolDescribeModel, map[string]any{"model": "vmaf_4k_v0.6.1"}), &d)
	if d.Source != "builtin" || d.Viewing.Resolution != "3840x2160" || d.Bootstrap || len(d.Features) != 6 || d.Clip == nil || d.Transform != nil {
		t.Errorf("vmaf_4k_v0.6.1: %+v", d)
	}
	decode(t, callTool(t, cs, toolDescribeModel, map[string]any{"model": "vmaf_v0.6.1neg"}), &d)
	if d.Features[0].Options["adm_enhn_gain_limit"] != "1" {
		t.Errorf("vmaf_v0.6.1neg inputs: %+v", d.Features)
	}
	for model, code := range map[string]string{"/etc/passwd": CodeForbiddenPath, "nope": CodeUnknownModel, " ": CodeBadRequest} {
		res := callTool(t, cs, toolDescribeModel, map[string]any{"model": model})
		if !res.IsError || !strings.HasPrefix(resultText(res), code) {
			t.Errorf("describe %q: %s, want %s", model, resultText(res), code)
		}
	}
}

// TestWaitProgress: a command with wait and a progress token gets
// notifications/progress while it waits, with growing progress, and a
// last one saying where it was applied; without a token, none. Over the
// socket, Streamable HTTP and HTTP+SSE alike; the command log names the
// transport.
func TestWaitProgress(t *testing.T) {
	for _, transport := range []string{"uds", "http", "sse"} {
		t.Run(transport, func(t *testing.T) { testWaitProgress(t, transport) })
	}
}

func testWaitProgress(t *testing.T, transport string) {
	f := newFake()
	var log syncBuffer
	s := startHTTPTest(t, f, Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	var mu sync.Mutex
	var got []*mcp.ProgressNotificationParams
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			got = append(got, r.Params)
			mu.Unlock()
		},
	})
	var tr mcp.Transport
	switch transport {
	case "uds":
		conn, err := net.Dial("unix", s.Path())
		if err != nil {
			t.Fatal(err)
		}
		tr = &mcp.IOTransport{Reader: conn, Writer: conn}
	case "http":
		tr = &mcp.StreamableClientTransport{Endpoint: "http://" + s.HTTPAddr() + pathStreamable, MaxRetries: -1}
	case "sse":
		tr = &mcp.SSEClientTransport{Endpoint: "http://" + s.HTTPAddr() + pathSSE}
	}
	cs, err := c.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	for _, tc := range []struct {
		tool  string
		args  map[string]any
		token any
	}{
		{toolSwap, map[string]any{"model": "vmaf_v0.6.1neg", "wait": true}, "swap-1"},
		{toolPause, map[string]any{"wait": true}, 7},
		{toolResume, map[string]any{"wait": true}, nil},
	} {
		mu.Lock()
		got = nil
		mu.Unlock()
		count := func() int {
			mu.Lock()
			defer mu.Unlock()
			return len(got)
		}
		stop := make(chan struct{})
		go func() {
			// Frames come once the command has waited a while: after
			// the notification sent at once and two of those every
			// 100 ms (a command without a token gets none: frames come
			// at once).
			for tc.token != nil && count() < 3 {
				select {
				case <-stop:
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
			for {
				f.frame(80)
				select {
				case <-stop:
					return
				case <-time.After(20 * time.Millisecond):
				}
			}
		}()
		p := &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args}
		if tc.token != nil {
			p.SetProgressToken(tc.token)
		}
		res, err := cs.CallTool(context.Background(), p)
		close(stop)
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %s", tc.tool, err, resultText(res))
		}
		var cmd Command
		decode(t, res, &cmd)
		// The notifications precede the reply on the wire; the handler
		// may still be running for the last one, which says where the
		// command was applied.
		applied := "applied at frame " + itoa(int(cmd.Frame))
		for deadline := time.Now().Add(time.Minute); tc.token != nil && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			mu.Lock()
			done := len(got) > 0 && strings.Contains(got[len(got)-1].Message, applied)
			mu.Unlock()
			if done {
				break
			}
		}
		mu.Lock()
		ps := append([]*mcp.ProgressNotificationParams(nil), got...)
		mu.Unlock()
		if tc.token == nil {
			if len(ps) != 0 {
				t.Errorf("%s without a token: %d progress notifications", tc.tool, len(ps))
			}
			continue
		}
		// At once, then every 100 ms until frames come, then the last.
		if len(ps) < 4 {
			t.Fatalf("%s: %d progress notifications, want at least 4", tc.tool, len(ps))
		}
		for i, p := range ps {
			if fmt.Sprint(p.ProgressToken) != fmt.Sprint(tc.token) || (i > 0 && p.Progress <= ps[i-1].Progress) {
				t.Errorf("%s: notification %d: token %v progress %v", tc.tool, i, p.ProgressToken, p.Progress)
			}
		}
		if !strings.Contains(ps[0].Message, "waiting for the next frame boundary") {
			t.Errorf("%s: first message %q", tc.tool, ps[0].Message)
		}
		if last := ps[len(ps)-1].Message; !strings.Contains(last, applied) {
			t.Errorf("%s applied at %d: last message %q", tc.tool, cmd.Frame, last)
		}
	}
	want := "tool=vmaf_pause outcome=enqueued transport=" + transport
	if transport != "uds" {
		want += " remote=127.0.0.1:"
	}
	if !strings.Contains(log.String(), want) {
		t.Errorf("command log lacks %q:\n%s", want, log.String())
	}
}
