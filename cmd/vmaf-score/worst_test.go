package main

import (
	"strings"
	"testing"
)

func TestWorstFramesOption(t *testing.T) {
	for _, tc := range []struct {
		args string
		want int
		err  string
	}{
		{"-r r -d d --mcp-uds s", 8, ""},
		{"-r r -d d --mcp-uds s --worst-frames 0", 0, ""},
		{"-r r -d d --mcp-http 127.0.0.1:0 --worst-frames=32", 32, ""},
		{"-r r -d d --mcp-uds s --worst-frames 101", 0, "at most 100"},
		{"-r r -d d --mcp-uds s --worst-frames -1", 0, "an integer"},
		{"-r r -d d --worst-frames 4", 0, "--worst-frames needs --mcp-uds or --mcp-http"},
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
		case s.worstFramesOr() != tc.want:
			t.Errorf("%q: %d worst frames, want %d", tc.args, s.worstFramesOr(), tc.want)
		}
	}
}
