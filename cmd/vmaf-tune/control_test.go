package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/tune"
)

// TestCRFSearchControlPlane follows a search through --mcp-uds as an
// agent would: the search waits paused before its first frame
// (--mcp-start-paused); the client lets frames through a resume and a
// pause at a time until the probe in flight has scored some, then reads
// vmaf_status (the probe named, with its frames) and vmaf_score (its
// frames with their features), is refused a model swap, and resumes. The
// probes scored through the control plane's Runner give the search's
// answer: its kept encode scores, by vmaf-score, what the search said.
func TestCRFSearchControlPlane(t *testing.T) {
	ref := clips.Y4M(t, "flower_576x324_ref.y4m")
	dir := t.TempDir()
	sock := filepath.Join(dir, "tune.sock")
	out := filepath.Join(dir, "best.mp4")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		code := run(ctx, []string{"crf-search", "-i", ref, "--encoder", "libx264", "--preset", "veryfast", "--target", "92",
			"--json", "-q", "--no-cache", "-o", out, "--mcp-uds", sock, "--mcp-start-paused"}, bytes.NewReader(nil), &stdout, &stderr)
		done <- result{code, stdout.String(), stderr.String()}
	}()

	cs := dialTune(t, sock, done)
	status := func() control.Status {
		var st control.Status
		if msg := callTool(t, cs, "vmaf_status", nil, &st); msg != "" {
			t.Fatal(msg)
		}
		return st
	}
	command := func(tool string) control.Command {
		var c control.Command
		if msg := callTool(t, cs, tool, map[string]any{"wait": true}, &c); msg != "" {
			t.Fatalf("%s: %s", tool, msg)
		}
		return c
	}

	// The start pause holds the first probe at its first frame.
	st := waitStatus(t, status, "the first probe paused", func(st control.Status) bool {
		return st.State == control.StatePaused && st.Sweep != nil && st.Sweep.Probe != nil
	})
	if p := st.Sweep.Probe; st.Sweep.Command != "crf-search" || p.Number != 1 || p.FramesScored != 0 {
		t.Fatalf("paused at the start: %+v, probe %+v", st.Sweep, p)
	}
	// A pause shows once the frames before it are scored (state paused).
	// Each resume lets at least one frame through before the pause that
	// follows applies (both apply at a frame boundary); frames pushed
	// are scored while the sweep stays paused.
	for i := 0; ; i++ {
		if i == 10000 {
			t.Fatal("no frame scored after 10000 resumes")
		}
		command("vmaf_resume")
		command("vmaf_pause")
		if st := status(); st.Sweep.Probe != nil && st.Sweep.Probe.FramesScored > 0 {
			break
		}
	}
	st = waitStatus(t, status, "a frame of the probe scored", func(st control.Status) bool {
		return st.State == control.StatePaused && st.Sweep != nil && st.Sweep.Probe != nil && st.Sweep.Probe.FramesScored > 0 && st.FramesScored == uint64(st.Sweep.Probe.FramesScored)+uint64(st.Sweep.Probe.FirstFrame)
	})
	p := st.Sweep.Probe
	t.Logf("status while paused: %s, sweep %+v, probe %+v", st.State, st.Sweep, p)
	if p.Encoder != "libx264:veryfast" || p.Resolution != "576x324" || p.Frames != 48 || p.FirstFrame < 0 || st.State != control.StatePaused {
		t.Errorf("probe %+v, state %s", p, st.State)
	}

	var sc control.Scores
	if msg := callTool(t, cs, "vmaf_score", map[string]any{"last": 48}, &sc); msg != "" {
		t.Fatal(msg)
	}
	var mine []control.Record
	for _, r := range sc.Records {
		if r.Frame >= p.FirstFrame {
			mine = append(mine, r)
		}
	}
	if len(mine) < p.FramesScored || len(mine) > p.Frames {
		t.Fatalf("%d records from frame %d, the status says %d of %d scored", len(mine), p.FirstFrame, p.FramesScored, p.Frames)
	}
	for _, r := range mine {
		if r.Model != st.Model || !(r.Score >= 0 && r.Score <= 100) || len(r.Features) == 0 {
			t.Errorf("record %+v", r)
		}
		for _, f := range []string{"integer_adm2", "integer_vif_scale0", "integer_motion2"} {
			if _, ok := r.Features[f]; !ok {
				t.Errorf("frame %d has no %s: %v", r.Frame, f, r.Features)
			}
		}
	}

	if msg := callTool(t, cs, "vmaf_request_model_swap", map[string]any{"model": "vmaf_v0.6.1neg"}, &control.Command{}); !strings.Contains(msg, "fixed") {
		t.Errorf("a swap during the sweep: %q", msg)
	}
	command("vmaf_resume")

	res := <-done
	if res.code != exitOK {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	var r tune.CRFResult
	if err := json.Unmarshal([]byte(res.stdout), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Probes) == 0 || r.Probes[0].CRF != p.CRF {
		t.Errorf("the status named crf %g, the first probe was %+v", p.CRF, r.Probes)
	}
	if got := scoreWithVMAFScore(t, ref, out); math.Abs(got-r.VMAF) > 1e-3 {
		t.Errorf("--output scores %.4f, the search said %.4f", got, r.VMAF)
	}
}

// dialTune connects an MCP client to the sweep's socket once it listens;
// it gives up if the run ends first.
func dialTune[R any](t *testing.T, sock string, done <-chan R) *mcp.ClientSession {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		conn, err := net.Dial("unix", sock)
		if err == nil {
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
				Connect(context.Background(), &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close() })
			return cs
		}
		select {
		case r := <-done:
			t.Fatalf("the run ended before its socket listened: %+v", r)
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never listened: %v", sock, err)
		}
	}
}

// waitStatus polls the status until ok holds.
func waitStatus(t *testing.T, status func() control.Status, what string, ok func(control.Status) bool) control.Status {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		st := status()
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: last status %+v", what, st)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func callTool(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, out any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		return res.Content[0].(*mcp.TextContent).Text
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
	return ""
}
