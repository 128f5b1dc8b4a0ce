package main

import (
	"context"
	"fmt"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/control/attach"
	"github.com/vmafsink/vmafsink/tune"
)

// With --mcp-uds a sweep's probes are scored through one pipeline.Runner,
// reopened for each probe, and the control plane vmaf-score and the
// element serve follows it: vmaf_score gives the probe's frames with
// their features as they are scored, vmaf_status names the probe, and
// pause holds the sweep at a frame boundary. When probes run side by
// side, the Runner takes one at a time and the others score directly.

// startSweepControl serves the control plane for s's probes until the
// returned function is called.
func startSweepControl(s *tune.Session, f *sessionFlags, command string) (stop func(), err error) {
	live, err := s.NewLive(tune.LiveConfig{Threads: f.so.Threads, WorkerSetup: attach.WorkerSetup()})
	if err != nil {
		return nil, err
	}
	plane, err := attach.Start(attach.Config{
		Socket:    f.mcpSocket,
		Runner:    live.Runner(),
		ModelSpec: f.so.Model,
		Engine:    "native",
		View:      func(t *attach.Target) control.Target { return sweepView{t, live, command} },
	})
	if err != nil {
		live.Close()
		return nil, fmt.Errorf("--mcp-uds %s: %w", f.mcpSocket, err)
	}
	if f.mcpStartPaused {
		// Applied at the first frame boundary: the first probe waits
		// there for a client's resume.
		if _, err := live.Runner().Pause(); err != nil {
			plane.Close()
			live.Close()
			return nil, err
		}
	}
	return func() {
		plane.Close()
		live.Close()
	}, nil
}

// sweepView is the Runner's target with the sweep's probe in the status.
// Model swaps are refused: a probe's score is the sweep's model's, which
// the search, the cache key and the answer all depend on.
type sweepView struct {
	*attach.Target
	live    *tune.Live
	command string
}

func (v sweepView) Status() control.Status {
	st := v.Target.Status()
	p, ok, done := v.live.Current()
	st.Sweep = &control.Sweep{Command: v.command, ProbesDone: done}
	if ok {
		st.Sweep.Probe = &control.SweepProbe{Number: p.Probe, Encoder: p.Encoder, CRF: p.CRF,
			Resolution: fmt.Sprintf("%dx%d", p.Width, p.Height), Frames: p.Frames,
			FramesScored: p.FramesScored, FirstFrame: p.FirstFrame}
	}
	return st
}

func (v sweepView) RequestSwap(context.Context, string, string) (control.Command, error) {
	return control.Command{}, control.Errorf(control.CodeBadRequest,
		"the model of a %s sweep is fixed: its probes' scores, cache entries and answer are that model's (run it again with --model)", v.command)
}
