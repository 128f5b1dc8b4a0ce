package main

import (
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMCPHTTPOption: --mcp-http alone serves the control plane; addresses
// off loopback, a port in use and a token file without --mcp-http are
// refused.
func TestMCPHTTPOption(t *testing.T) {
	checkListenOption(t, "--mcp-http", `MCP on http://127\.0\.0\.1:[1-9][0-9]*/mcp`, func(busy string) []refusal {
		return []refusal{
			{[]string{"--mcp-http", "0.0.0.0:8765"}, `--mcp-http 0.0.0.0:8765: control: HTTP address "0.0.0.0:8765" is not a loopback address`},
			{[]string{"--mcp-http", busy}, busy + " is already in use"},
			{[]string{"--mcp-http", "127.0.0.1:0", "--mcp-http-token-file", "/nonexistent/tok"}, "/nonexistent/tok"},
			{[]string{"--mcp-http-token-file", "/tmp/tok"}, "--mcp-http-token-file needs --mcp-http"},
		}
	})
}

// TestMetricsAddrOption: --metrics-addr alone serves the metrics; a port
// in use, an address without a port and an empty one are refused.
func TestMetricsAddrOption(t *testing.T) {
	checkListenOption(t, "--metrics-addr", `Prometheus metrics on http://127\.0\.0\.1:[1-9][0-9]*/metrics`, func(busy string) []refusal {
		return []refusal{
			{[]string{"--metrics-addr", busy}, "--metrics-addr " + busy + ": metrics: listen on " + busy + ": "},
			{[]string{"--metrics-addr", "127.0.0.1"}, "want HOST:PORT"},
			{[]string{"--metrics-addr", ""}, `invalid argument "" for option --metrics-addr`},
		}
	})
}

// refusal is a set of options vmaf-score refuses, and what it says.
type refusal struct {
	args []string
	want string
}

// checkListenOption runs vmaf-score with option at 127.0.0.1:0 alone: the
// run goes through the Runner and prints where it serves (served, a
// regular expression). Then each of refusals, given the address of a
// port in use, fails with the usual failure status and its message before
// anything is scored.
func checkListenOption(t *testing.T, option, served string, refusals func(busy string) []refusal) {
	t.Helper()
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	out := filepath.Join(t.TempDir(), "out.json")
	res := vmafScore(t, "-r", ref, "-d", dist, "-q", "--json", "-o", out, option, "127.0.0.1:0")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if !regexp.MustCompile(served).MatchString(res.stderr) {
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
	for _, c := range refusals(ln.Addr().String()) {
		res := vmafScore(t, append([]string{"-r", ref, "-d", dist, "-q", "--json", "-o", "-"}, c.args...)...)
		if res.code == 0 || !strings.Contains(res.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, res.code, res.stderr, c.want)
		}
		if strings.Contains(res.stdout, `"frames"`) {
			t.Errorf("%v: frames scored before the refusal", c.args)
		}
	}
}
