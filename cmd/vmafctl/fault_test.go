package main

import (
	"bufio"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/control"
)

// TestFaultRefusalReported: a server that refuses the client (client limit
// here; a peer refused by SO_PEERCRED is answered the same way) used to be
// reported as "no MCP server" with exit 3.
func TestFaultRefusalReported(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vmaf.sock")
	s, err := control.Start(path, newTarget(), control.Options{MaxSessions: 1, HandshakeTimeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	hold, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	// The slot is the server's to give once it has answered initialize:
	// until then a client could still take it first.
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"hold","version":"1"}}}` + "\n"
	if _, err := hold.Write([]byte(init)); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(hold).ReadString('\n'); err != nil || !strings.Contains(line, `"result"`) {
		t.Fatalf("initialize on the held connection: %q, %v", line, err)
	}

	// The refusal races the client's first write; every attempt must
	// still report it.
	for range 50 {
		code, _, stderr := vmafctl(t, "-s", path, "-timeout", "5s", "status")
		if code != exitRefused || !strings.Contains(stderr, "refused the connection") || !strings.Contains(stderr, "1 clients already connected") {
			t.Fatalf("vmafctl status against a full server = %d, stderr %q; want %d with the server's reason", code, stderr, exitRefused)
		}
	}
	// Once the slot is free, the same command works.
	hold.Close()
	deadline := time.Now().Add(30 * time.Second)
	var code int
	var stderr string
	for {
		code, _, stderr = vmafctl(t, "-s", path, "status")
		if code == exitOK || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if code != exitOK {
		t.Errorf("after the slot was freed: %d %s", code, stderr)
	}
}
