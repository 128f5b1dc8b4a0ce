package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// rawFiles drives `vmaf-score mcp` over pipes, line by line.
type rawFiles struct {
	in   io.WriteCloser
	out  *bufio.Reader
	done chan int
}

func startRawFiles(t *testing.T, args ...string) *rawFiles {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	rf := &rawFiles{in: inW, out: bufio.NewReader(outR), done: make(chan int, 1)}
	go func() {
		code := runMCPFiles(context.Background(), append([]string{"--allow", t.TempDir()}, args...), inR, outW, io.Discard)
		outW.Close()
		rf.done <- code
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-rf.done:
		case <-time.After(10 * time.Second):
			t.Error("vmaf-score mcp did not end when its input closed")
		}
	})
	return rf
}

func (rf *rawFiles) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(rf.in, line+"\n"); err != nil {
		t.Fatalf("send %.80s: %v", line, err)
	}
}

// recv returns the next message, as sent, skipping notifications.
func (rf *rawFiles) recv(t *testing.T) string {
	t.Helper()
	type result struct {
		line string
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		for {
			line, err := rf.out.ReadString('\n')
			if err != nil || !strings.Contains(line, `"method"`) {
				ch <- result{line, err}
				return
			}
		}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatalf("reading a reply: %v (the server ended?)", r.err)
		}
		return r.line
	case <-time.After(10 * time.Second):
		t.Fatal("no reply within 10 s")
	}
	return ""
}

func (rf *rawFiles) initialize(t *testing.T, version string) {
	t.Helper()
	rf.send(t, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+version+`","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if got := rf.recv(t); !strings.Contains(got, `"result"`) {
		t.Fatalf("initialize: %s", got)
	}
	rf.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func rpcCode(t *testing.T, line string) float64 {
	t.Helper()
	var m struct {
		Error *struct {
			Code float64 `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("reply is not JSON: %v: %s", err, line)
	}
	if m.Error == nil {
		return 0
	}
	return m.Error.Code
}

// TestFaultMCPFilesProtocol: one malformed line or one batch made `vmaf-score
// mcp` exit 255 and leave every later request unanswered; ids 1.5 and 2^70
// came back as 1 and -2^63. Each now gets a JSON-RPC error and the server
// goes on answering.
func TestFaultMCPFilesProtocol(t *testing.T) {
	rf := startRawFiles(t)
	rf.initialize(t, "2025-11-25")
	for _, tc := range []struct {
		name, line string
		code       float64
		says       string
	}{
		{"malformed line", `{"jsonrpc":"2.0","id":1,"method":`, -32700, "parse error"},
		{"not an object", `42`, -32600, ""},
		{"batch in a version without batches", `[{"jsonrpc":"2.0","id":2,"method":"ping"}]`, -32600, "batches are not part"},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, "id 1.5 is not an integer"},
		{"id 2^70", `{"jsonrpc":"2.0","id":1180591620717411303424,"method":"ping"}`, -32600, "is not an integer"},
		{"oversized line", `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":"` + strings.Repeat("y", 1<<20) + `"}}`, -32600, "exceeds"},
	} {
		rf.send(t, tc.line)
		got := rf.recv(t)
		if c := rpcCode(t, got); c != tc.code || !strings.Contains(got, tc.says) {
			t.Errorf("%s: code %v, reply %.300s", tc.name, c, got)
		}
		// The server still answers, with the id as sent.
		rf.send(t, `{"jsonrpc":"2.0","id":"after","method":"ping"}`)
		if got := rf.recv(t); rpcCode(t, got) != 0 || !strings.Contains(got, `"id":"after"`) {
			t.Fatalf("after %s: %s", tc.name, got)
		}
	}
	for _, id := range []string{"9007199254740992", "-7", `"x"`} {
		rf.send(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
		if got := rf.recv(t); rpcCode(t, got) != 0 || !strings.Contains(got, `"id":`+id) {
			t.Errorf("id %s: %s", id, got)
		}
	}
}

// TestFaultMCPFilesBatch: with a protocol version that has batches, a batch
// is answered as one.
func TestFaultMCPFilesBatch(t *testing.T) {
	rf := startRawFiles(t)
	rf.initialize(t, "2025-03-26")
	rf.send(t, `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`)
	got := rf.recv(t)
	if !strings.Contains(got, `"id":1`) || !strings.Contains(got, `"id":2`) {
		t.Errorf("batch reply: %s", got)
	}
	rf.send(t, `[{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"ping"}]`)
	if got := rf.recv(t); rpcCode(t, got) != -32600 || !strings.Contains(got, "appears twice") {
		t.Errorf("batch with one id twice: %s", got)
	}
	rf.send(t, `{"jsonrpc":"2.0","id":4,"method":"ping"}`)
	if got := rf.recv(t); !strings.Contains(got, `"id":4`) {
		t.Errorf("after the batches: %s", got)
	}
}

// TestFaultMCPFilesStaleCancel: a notifications/cancelled naming an unknown
// or already-answered id made the next request reusing that id run without
// a reply.
func TestFaultMCPFilesStaleCancel(t *testing.T) {
	rf := startRawFiles(t)
	rf.initialize(t, "2025-11-25")
	rf.send(t, `{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	rf.recv(t)
	for _, id := range []string{"5", "6", `"s"`} {
		rf.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+id+`}}`)
	}
	for _, id := range []string{"5", "6", `"s"`} {
		rf.send(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/list"}`)
		if got := rf.recv(t); !strings.Contains(got, `"id":`+id) || rpcCode(t, got) != 0 {
			t.Errorf("request %s after a stale cancellation: %.200s", id, got)
		}
	}
}
