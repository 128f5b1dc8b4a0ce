package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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
		case <-time.After(time.Minute):
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
	case <-time.After(time.Minute):
		t.Fatal("no reply within a minute")
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

// sparseY4M writes a y4m header claiming w x h and extends the file to
// size bytes without writing them.
func sparseY4M(t *testing.T, dir, name string, w, h int, size int64) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(fmt.Sprintf("YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\nFRAME\n", w, h)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, size); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFaultMCPFilesHugeFrames: two sparse 12 KiB .y4m files whose headers
// claim 32768x32768 took `vmaf-score mcp` past 6 GiB (a fatal out-of-memory
// exit under a limit), and raw input 65536 wide the same. Each is refused
// before a frame is allocated, and a call whose frames would take more than
// the memory budget is refused with the figures.
func TestFaultMCPFilesHugeFrames(t *testing.T) {
	dir := t.TempDir()
	fs := startFiles(t, "--allow", dir, "--max-memory", "64")
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	huge := sparseY4M(t, dir, "huge.y4m", 32768, 32768, 12<<10)
	big := sparseY4M(t, dir, "big.y4m", 4096, 4096, 1<<30)
	raw := filepath.Join(dir, "wide.yuv")
	os.WriteFile(raw, make([]byte, 12<<10), 0o644)
	// Two frames of 4096x2160 H.264: a few KiB of file whose decoded
	// frames the budget counts from the stream's parameters.
	encoded := filepath.Join(dir, "big.mkv")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "color=size=4096x2160:rate=25",
		"-frames:v", "2", "-c:v", "libx264", "-preset", "ultrafast", encoded).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		name string
		args map[string]any
		says string
	}{
		{"32768x32768 y4m", map[string]any{"reference": huge, "distorted": huge}, "a side is at most 16384"},
		{"raw 65536 wide", map[string]any{"reference": raw, "distorted": raw, "width": 65536, "height": 16, "pixel_format": "420", "bitdepth": 8}, "a side is at most 16384"},
		{"raw 16384x16384", map[string]any{"reference": raw, "distorted": raw, "width": 16384, "height": 16384, "pixel_format": "420", "bitdepth": 8}, "8192x8192"},
		{"4096x4096 over a 64 MiB budget", map[string]any{"reference": big, "distorted": big}, "need 144 MiB, more than the server's memory budget of 64 MiB"},
		{"4096x2160 H.264 over a 64 MiB budget", map[string]any{"reference": encoded, "distorted": encoded}, "MiB, more than the server's memory budget of 64 MiB"},
	} {
		_, msg, err := fs.call(t, context.Background(), tc.args, false)
		if err != nil || !strings.Contains(msg, tc.says) {
			t.Errorf("%s: %v %q, want a tool error saying %q", tc.name, err, msg, tc.says)
		}
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapSys) - int64(before.HeapSys); grew > 64<<20 {
		t.Errorf("the heap grew by %d MiB while refusing", grew>>20)
	}
	// The server goes on scoring what fits.
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	if _, msg, err := fs.call(t, context.Background(), map[string]any{"reference": copyInto(t, dir, ref), "distorted": copyInto(t, dir, dist)}, false); err != nil || msg != "" {
		t.Errorf("a small pair after the refusals: %v %q", err, msg)
	}
}

// copyInto copies a file into dir and returns its new path.
func copyInto(t *testing.T, dir, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, filepath.Base(path))
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFaultMemoryBudget: calls share the budget; one that does not fit
// beside those running is refused as busy, and its share comes back.
func TestFaultMemoryBudget(t *testing.T) {
	b := &memoryBudget{limit: 64 << 20}
	r1, err := b.take(40 << 20)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.take(40 << 20); err == nil || !strings.Contains(err.Error(), "busy: the scorings running hold 40 of the 64 MiB") {
		t.Errorf("second call: %v", err)
	}
	r1()
	r1() // once only
	if r2, err := b.take(64 << 20); err != nil {
		t.Errorf("after the first call ended: %v", err)
	} else {
		r2()
	}
	if b.used != 0 {
		t.Errorf("budget used %d after every call ended", b.used)
	}
}
