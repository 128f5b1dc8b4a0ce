package main

import (
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMCPHTTPOption: --mcp-http alone serves the control plane (the run
// goes through the Runner and prints where it listens); addresses off
// loopback, a port in use and a token file without --mcp-http are
// refused before anything is scored.
func TestMCPHTTPOption(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	out := filepath.Join(t.TempDir(), "out.json")
	res := vmafScore(t, "-r", ref, "-d", dist, "-q", "--json", "-o", out, "--mcp-http", "127.0.0.1:0")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if !regexp.MustCompile(`MCP on http://127\.0\.0\.1:[1-9][0-9]*/mcp`).MatchString(res.stderr) {
		t.Errorf("no address on stderr: %q", res.stderr)
	}
	if data, _ := os.ReadFile(out); strings.Count(string(data), `"model": "vmaf_v0.6.1"`) != 8 {
		t.Error("frames do not name their model: the run did not go through the Runner")
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--mcp-http", "0.0.0.0:8765"}, `--mcp-http 0.0.0.0:8765: control: HTTP address "0.0.0.0:8765" is not a loopback address`},
		{[]string{"--mcp-http", ln.Addr().String()}, ln.Addr().String() + " is already in use"},
		{[]string{"--mcp-http", "127.0.0.1:0", "--mcp-http-token-file", "/nonexistent/tok"}, "/nonexistent/tok"},
		{[]string{"--mcp-http-token-file", "/tmp/tok"}, "--mcp-http-token-file needs --mcp-http"},
	} {
		res := vmafScore(t, append([]string{"-r", ref, "-d", dist, "-q", "--json", "-o", "-"}, c.args...)...)
		if res.code == 0 || !strings.Contains(res.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, res.code, res.stderr, c.want)
		}
	}
}
