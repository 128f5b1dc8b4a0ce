package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/control"
)

// bridge runs `vmafctl -s sock stdio` with a pipe for stdin, and returns
// the pipe's writing end, stdout's reading end and the exit code's channel.
func bridge(t *testing.T, sock string) (io.WriteCloser, *bufio.Reader, <-chan int) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	saved := stdin
	stdin = inR
	t.Cleanup(func() { stdin = saved; inW.Close(); outR.Close() })
	code := make(chan int, 1)
	go func() {
		var stderr strings.Builder
		c := run(context.Background(), []string{"-s", sock, "stdio"}, outW, &stderr)
		if stderr.Len() > 0 {
			t.Logf("stderr: %s", stderr.String())
		}
		outW.Close()
		code <- c
	}()
	return inW, bufio.NewReader(outR), code
}

func readLine(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		line, _ := r.ReadString('\n')
		got <- line
	}()
	select {
	case line := <-got:
		return line
	case <-time.After(time.Minute):
		t.Fatal("no line from the bridge within a minute")
		return ""
	}
}

func exitCode(t *testing.T, code <-chan int) int {
	t.Helper()
	select {
	case c := <-code:
		return c
	case <-time.After(time.Minute):
		t.Fatal("the bridge did not exit within a minute")
		return -1
	}
}

// TestStdioBridge: the bridge relays a session byte for byte (the server,
// not the bridge, answers a malformed line; an id comes back exactly as
// sent) and exits 0 once the host closes its input, after the replies
// still in flight.
func TestStdioBridge(t *testing.T) {
	_, sock := serve(t)
	in, out, code := bridge(t, sock)
	io.WriteString(in, `{"jsonrpc":"2.0","id":"\u00e9-1","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	if line := readLine(t, out); !strings.HasPrefix(line, `{"jsonrpc":"2.0","id":"é-1","result":{`) || !strings.Contains(line, `"vmafsink"`) {
		t.Fatalf("initialize answered %q", line)
	}
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	io.WriteString(in, "{not json\n")
	if line := readLine(t, out); !strings.Contains(line, `"code":-32700`) {
		t.Fatalf("malformed line answered %q", line)
	}
	// The last request and the end of input in one write: its reply
	// still comes through.
	io.WriteString(in, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"vmaf_status","arguments":{}}}`+"\n")
	in.Close()
	line := readLine(t, out)
	var resp struct {
		ID     int `json:"id"`
		Result struct {
			Structured control.Status `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(line), &resp); err != nil || resp.ID != 7 || resp.Result.Structured.Model != "vmaf" {
		t.Fatalf("vmaf_status answered %q (%v)", line, err)
	}
	if c := exitCode(t, code); c != exitOK {
		t.Errorf("exit %d after stdin closed", c)
	}
}

// TestStdioServerCloses: the bridge exits 0 when the server goes away,
// though its input is still open.
func TestStdioServerCloses(t *testing.T) {
	tg := newTarget()
	path := filepath.Join(t.TempDir(), "vmaf.sock")
	s, err := control.Start(path, tg, control.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in, out, code := bridge(t, path)
	io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	readLine(t, out)
	s.Close()
	if c := exitCode(t, code); c != exitOK {
		t.Errorf("exit %d after the server closed", c)
	}
}

// TestStdioNoServer: nothing to bridge to is exit code 3.
func TestStdioNoServer(t *testing.T) {
	c, _, stderr := vmafctl(t, "-s", filepath.Join(t.TempDir(), "none.sock"), "stdio")
	if c != exitConnect || !strings.Contains(stderr, "cannot reach") {
		t.Errorf("exit %d, stderr %q", c, stderr)
	}
}
