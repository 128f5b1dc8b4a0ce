package main

import (
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMetricsAddrOption: --metrics-addr alone runs through the Runner and
// says where it serves; a port in use, an address without a port and an
// empty one are refused before anything is scored, with the usual
// failure status.
func TestMetricsAddrOption(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	out := filepath.Join(t.TempDir(), "out.json")
	res := vmafScore(t, "-r", ref, "-d", dist, "-q", "--json", "-o", out, "--metrics-addr", "127.0.0.1:0")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if !regexp.MustCompile(`Prometheus metrics on http://127\.0\.0\.1:[1-9][0-9]*/metrics`).MatchString(res.stderr) {
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
	busy := ln.Addr().String()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--metrics-addr", busy}, "--metrics-addr " + busy + ": metrics: listen on " + busy + ": "},
		{[]string{"--metrics-addr", "127.0.0.1"}, "want HOST:PORT"},
		{[]string{"--metrics-addr", ""}, `invalid argument "" for option --metrics-addr`},
	} {
		res := vmafScore(t, append([]string{"-r", ref, "-d", dist, "-q", "--json", "-o", "-"}, c.args...)...)
		if res.code == 0 || !strings.Contains(res.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, res.code, res.stderr, c.want)
		}
		if strings.Contains(res.stdout, `"frames"`) {
			t.Errorf("%v: frames scored before the refusal", c.args)
		}
	}
}
