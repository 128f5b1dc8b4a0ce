package pipelines

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/vmaf"
)

// Faults of the measurement itself, driven over the control socket: a
// pause must not change a score, and swaps while paused or at the end of
// the stream must get true answers.

// TestFaultPauseSkipKeepsScoresOverMCP: a pause and resume over MCP in
// skip mode; every frame scored equals the unpaused run's same frame.
func TestFaultPauseSkipKeepsScoresOverMCP(t *testing.T) {
	ref, dist := mcpFrames(t, "flower_576x324_ref"), mcpFrames(t, "flower_576x324_x264_crf22")
	base := mcpStart(t, mcpConfig{noControl: true})
	if fs := <-base.feed(ref, dist, 0, 1); fs.err != nil {
		t.Fatal(fs.err)
	}
	want := map[int]*pipeline.Record{}
	for _, rec := range base.records() {
		want[rec.Index] = rec
	}

	const interval = 10 * time.Millisecond
	run := mcpStart(t, mcpConfig{pauseMode: pipeline.PauseSkip})
	cs, _ := mcpConnect(t, run.sock)
	// The pairs go in by budget: the pause and the resume land inside the
	// clip, with pairs skipped between them, however slow the calls.
	run.budget.Store(12)
	done := run.feed(ref, dist, interval, 1)
	mcpWaitStatus(t, cs, time.Minute, "8 frames scored", func(st control.Status) bool { return st.FramesScored >= 8 })
	var pause, resume control.Command
	command := func(tool string, pairs int64, out *control.Command) {
		t.Helper()
		// More pairs once the command waits for one (or was applied
		// without).
		answer := callAsync(cs, tool, map[string]any{"wait": true})
		var res *mcp.CallToolResult
		for deadline := time.Now().Add(time.Minute); res == nil; {
			select {
			case res = <-answer:
			case <-time.After(5 * time.Millisecond):
				var st control.Status
				if mcpCall(t, cs, "vmaf_status", nil, &st); st.CommandsPending > 0 {
					run.budget.Add(pairs)
					res, pairs = <-answer, 0
				} else if time.Now().After(deadline) {
					t.Fatalf("%s neither queued nor answered", tool)
				}
			}
		}
		run.budget.Add(pairs)
		if res.IsError {
			t.Fatalf("%s: %s", tool, toolText(res))
		}
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
	}
	command("vmaf_pause", 8, &pause)
	mcpWaitStatus(t, cs, time.Minute, "pairs skipped", func(st control.Status) bool { return st.FramesSkipped >= 4 })
	command("vmaf_resume", math.MaxInt64/2, &resume)
	if fs := <-done; fs.err != nil {
		t.Fatal(fs.err)
	}
	var st control.Status
	mcpCall(t, cs, "vmaf_status", nil, &st)
	if st.FramesSkipped == 0 || int(resume.Frame) >= len(ref) {
		t.Fatalf("paused at %d, resumed at %d, %d skipped: no pause inside the clip", pause.Frame, resume.Frame, st.FramesSkipped)
	}
	recs := run.records()
	if len(recs)+int(st.FramesSkipped) != len(ref) {
		t.Errorf("%d scored and %d skipped of %d frames", len(recs), st.FramesSkipped, len(ref))
	}
	for _, rec := range recs {
		b := want[rec.Index]
		if b == nil || math.Abs(rec.Score-b.Score) > 1e-9 {
			t.Errorf("frame %d (pause %d..%d): score %v, unpaused %v", rec.Index, pause.Frame, resume.Frame, rec.Score, b)
		}
	}
	t.Logf("paused at %d, resumed at %d: %d frames scored, each as unpaused", pause.Frame, resume.Frame, len(recs))
}

// callAsync calls a tool on its own goroutine and hands back its result.
func callAsync(cs *mcp.ClientSession, tool string, args map[string]any) <-chan *mcp.CallToolResult {
	out := make(chan *mcp.CallToolResult, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			res = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "transport: " + err.Error()}}}
		}
		out <- res
	}()
	return out
}

func toolText(res *mcp.CallToolResult) string {
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return strings.Join(texts, " ")
}

func pushPair(t *testing.T, r *pipeline.Runner, ref, dist *vmaf.Picture) {
	t.Helper()
	if err := r.Push(pipeline.Ref, pipeline.Frame{Picture: ref, Timing: pipeline.Untimed}); err != nil {
		t.Fatal(err)
	}
	if err := r.Push(pipeline.Dist, pipeline.Frame{Picture: dist, Timing: pipeline.Untimed}); err != nil {
		t.Fatal(err)
	}
}

// TestFaultEOSWithSwapWaitPending: the stream ends while a swap with wait
// is pending. The wait is answered at once and truly (the swap never took
// effect; or it did, with no frame scored), the run finishes, and the
// frames scored before are all there.
func TestFaultEOSWithSwapWaitPending(t *testing.T) {
	ref, dist := mcpFrames(t, "flower_576x324_ref"), mcpFrames(t, "flower_576x324_x264_crf22")
	for _, tc := range []struct {
		name    string
		applied bool // a frame boundary passes before the end
	}{
		{"queued", false},
		{"applied", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := mcpStart(t, mcpConfig{})
			cs, _ := mcpConnect(t, run.sock)
			for i := range 3 {
				pushPair(t, run.r, ref[i], dist[i])
			}
			answer := callAsync(cs, "vmaf_request_model_swap", map[string]any{"model": "vmaf_v0.6.1neg", "wait": true, "timeout_ms": 600000})
			mcpWaitStatus(t, cs, time.Minute, "the swap queued", func(st control.Status) bool { return st.CommandsPending == 1 })
			if tc.applied {
				// A reference frame whose partner never comes: a boundary.
				if err := run.r.Push(pipeline.Ref, pipeline.Frame{Picture: ref[3], Timing: pipeline.Untimed}); err != nil {
					t.Fatal(err)
				}
			}
			ended := time.Now()
			run.r.EndOfStream(pipeline.Ref)
			run.r.EndOfStream(pipeline.Dist)
			if err := run.r.Finish(); err != nil {
				t.Fatal(err)
			}
			var res *mcp.CallToolResult
			select {
			case res = <-answer:
			case <-time.After(time.Minute):
				t.Fatal("the wait was not answered at the end of the stream")
			}
			text := toolText(res)
			t.Logf("answered %v after the end: error %v, %s", time.Since(ended).Round(time.Millisecond), res.IsError, text)
			if strings.Contains(text, "still") || strings.Contains(text, "timeout") {
				t.Errorf("answer %q claims a timeout", text)
			}
			if tc.applied {
				var c control.Command
				b, _ := json.Marshal(res.StructuredContent)
				if err := json.Unmarshal(b, &c); res.IsError || err != nil || c.Status != control.CommandApplied || c.Frame != -1 {
					t.Errorf("applied swap answered %s (%+v), want applied with frame -1", text, c)
				}
			} else if !res.IsError || !strings.Contains(text, "finished") || strings.Contains(text, "not supported") {
				t.Errorf("queued swap answered %q, want a failure saying the run finished", text)
			}
			if n := len(run.records()); n != 3 {
				t.Errorf("%d frames scored, want the 3 before the end", n)
			}
			var st control.Status
			mcpCall(t, cs, "vmaf_status", nil, &st)
			if st.State != control.StateFinished {
				t.Errorf("state %s, want finished", st.State)
			}
		})
	}
}

// TestFaultSwapsWhilePausedOverMCP: swaps with wait while paused are
// answered when they take effect, not with a timeout; the first, replaced
// before it scored a frame, is marked superseded.
func TestFaultSwapsWhilePausedOverMCP(t *testing.T) {
	const interval = 10 * time.Millisecond
	ref, dist := mcpFrames(t, "flower_576x324_ref"), mcpFrames(t, "flower_576x324_x264_crf22")
	run := mcpStart(t, mcpConfig{pauseMode: pipeline.PauseSkip})
	cs, _ := mcpConnect(t, run.sock)
	done := run.feed(ref, dist, interval, 1)
	mcpWaitStatus(t, cs, time.Minute, "5 frames scored", func(st control.Status) bool { return st.FramesScored >= 5 })
	if msg := mcpCall(t, cs, "vmaf_pause", map[string]any{"wait": true}, nil); msg != "" {
		t.Fatal(msg)
	}
	for _, model := range []string{"vmaf_v0.6.1neg", "vmaf_4k_v0.6.1"} {
		var c control.Command
		if msg := mcpCall(t, cs, "vmaf_request_model_swap", map[string]any{"model": model, "wait": true, "timeout_ms": 20000}, &c); msg != "" {
			t.Fatalf("swap to %s while paused: %s", model, msg)
		}
		// Applied with no frame: answered without waiting for one.
		if c.Status != control.CommandApplied || c.Frame != -1 {
			t.Errorf("swap to %s while paused answered %+v, want applied with frame -1", model, c)
		}
	}
	var resume control.Command
	if msg := mcpCall(t, cs, "vmaf_resume", map[string]any{"wait": true}, &resume); msg != "" {
		t.Fatal(msg)
	}
	if fs := <-done; fs.err != nil {
		t.Fatal(fs.err)
	}
	var st control.Status
	mcpCall(t, cs, "vmaf_status", nil, &st)
	if len(st.Swaps) != 2 || !st.Swaps[0].Superseded || st.Swaps[0].FirstFrame != -1 ||
		st.Swaps[1].Superseded || st.Swaps[1].FirstFrame != resume.Frame {
		t.Errorf("swap history %+v, want the first superseded without a frame, the second from %d", st.Swaps, resume.Frame)
	}
}
