package main

import (
	"strings"
	"testing"
)

func TestMCPRecentOption(t *testing.T) {
	for _, tc := range []struct {
		args string
		want int
		err  string
	}{
		{"-r r -d d --mcp-uds s", 0, ""},
		{"-r r -d d --mcp-uds s --mcp-recent 5000", 5000, ""},
		{"-r r -d d --mcp-http 127.0.0.1:0 --mcp-recent=1", 1, ""},
		{"-r r -d d --mcp-uds s --mcp-recent 0", 0, "between 1 and 100000"},
		{"-r r -d d --mcp-uds s --mcp-recent 100001", 0, "between 1 and 100000"},
		{"-r r -d d --mcp-uds s --mcp-recent x", 0, "an integer"},
		{"-r r -d d --mcp-recent 300", 0, "--mcp-recent needs --mcp-uds or --mcp-http"},
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
		case s.mcpRecent != tc.want:
			t.Errorf("%q: recent %d, want %d", tc.args, s.mcpRecent, tc.want)
		}
	}
}
