package ffsource

import "testing"

// An empty name is an error, not a crash inside FFmpeg.
func TestOpenEmptyName(t *testing.T) {
	if s, err := Open("", Options{}); err == nil {
		s.Close()
		t.Fatal("Open(\"\") succeeded")
	}
}
