package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/control"
)

// sweepTarget reports an encoding sweep's probe, as vmaf-tune does.
type sweepTarget struct{ *target }

func (s sweepTarget) Status() control.Status {
	st := s.target.Status()
	st.Sweep = &control.Sweep{Command: "crf-search", ProbesDone: 2, Probe: &control.SweepProbe{
		Number: 3, Encoder: "libx264:veryfast", CRF: 26.5, Resolution: "576x324", Frames: 48, FramesScored: 12, FirstFrame: 96}}
	return st
}

// TestStatusSweep: vmafctl status names the sweep's probe.
func TestStatusSweep(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vmaf.sock")
	s, err := control.Start(path, sweepTarget{newTarget()}, control.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	code, out, e := vmafctl(t, "-s", path, "status")
	for _, want := range []string{"sweep     crf-search, 2 probes done\n", "probe     #3 libx264:veryfast crf 26.5 at 576x324: 12/48 frames (from frame 96)\n"} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("status: exit %d, %q lacks %q (%s)", code, out, want, e)
		}
	}
}
