package main

import (
	"strings"
	"testing"
)

// TestMCPSizeOptions: --mcp-recent and --worst-frames, their defaults and
// bounds, and that each needs a control plane to serve.
func TestMCPSizeOptions(t *testing.T) {
	recent := func(s *settings) int { return s.mcpRecent }
	worst := (*settings).worstFramesOr
	for _, tc := range []struct {
		args string
		get  func(*settings) int
		want int
		err  string
	}{
		{"-r r -d d --mcp-uds s", recent, 0, ""},
		{"-r r -d d --mcp-uds s --mcp-recent 5000", recent, 5000, ""},
		{"-r r -d d --mcp-http 127.0.0.1:0 --mcp-recent=1", recent, 1, ""},
		{"-r r -d d --mcp-uds s --mcp-recent 0", recent, 0, "between 1 and 100000"},
		{"-r r -d d --mcp-uds s --mcp-recent 100001", recent, 0, "between 1 and 100000"},
		{"-r r -d d --mcp-uds s --mcp-recent x", recent, 0, "an integer"},
		{"-r r -d d --mcp-recent 300", recent, 0, "--mcp-recent needs --mcp-uds or --mcp-http"},

		{"-r r -d d --mcp-uds s", worst, 8, ""},
		{"-r r -d d --mcp-uds s --worst-frames 0", worst, 0, ""},
		{"-r r -d d --mcp-http 127.0.0.1:0 --worst-frames=32", worst, 32, ""},
		{"-r r -d d --mcp-uds s --worst-frames 101", worst, 0, "at most 100"},
		{"-r r -d d --mcp-uds s --worst-frames -1", worst, 0, "an integer"},
		{"-r r -d d --worst-frames 4", worst, 0, "--worst-frames needs --mcp-uds, --mcp-http or --worst-dir"},
	} {
		s, err := parseArgs(strings.Fields(tc.args))
		if err == nil {
			err = s.check()
		}
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.args, err, tc.err)
			}
		case err != nil:
			t.Errorf("%q: %v", tc.args, err)
		case tc.get(s) != tc.want:
			t.Errorf("%q: %d, want %d", tc.args, tc.get(s), tc.want)
		}
	}
}
