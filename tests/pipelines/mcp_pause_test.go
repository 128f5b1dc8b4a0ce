package pipelines

import (
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/pipeline"
)

// TestMCPPauseSkip pauses and resumes a live-paced pipeline in skip mode:
// frames keep flowing at their pace, the paused ones are counted as
// skipped and have no record, and the rest are scored.
func TestMCPPauseSkip(t *testing.T) {
	const interval = 25 * time.Millisecond
	ref, dist := mcpFrames(t, "flower_576x324_ref"), mcpFrames(t, "flower_576x324_x264_crf22")
	run := mcpStart(t, mcpConfig{pauseMode: pipeline.PauseSkip})
	cs, _ := mcpConnect(t, run.sock)
	done := run.feed(ref, dist, interval, 1)

	mcpWaitStatus(t, cs, time.Minute, "8 frames scored", func(st control.Status) bool { return st.FramesScored >= 8 })
	var pause, resume control.Command
	if msg := mcpCall(t, cs, "vmaf_pause", map[string]any{"wait": true}, &pause); msg != "" {
		t.Fatal(msg)
	}
	// Pausing twice changes nothing.
	var again control.Command
	mcpCall(t, cs, "vmaf.pause", map[string]any{"wait": true}, &again)
	st := mcpWaitStatus(t, cs, time.Minute, "paused", func(st control.Status) bool { return st.State == control.StatePaused })
	received := st.FramesReceived
	// Skip mode keeps the stream flowing: 5 more pairs arrive, still paused.
	st = mcpWaitStatus(t, cs, time.Minute, "5 more pairs while paused", func(st control.Status) bool { return st.FramesReceived >= received+5 })
	if st.State != control.StatePaused {
		t.Errorf("state %s after 5 pairs received while paused in skip mode", st.State)
	}
	if msg := mcpCall(t, cs, "vmaf_resume", map[string]any{"wait": true}, &resume); msg != "" {
		t.Fatal(msg)
	}
	fs := <-done
	if fs.err != nil {
		t.Fatal(fs.err)
	}

	p, r := int(pause.Frame), int(resume.Frame)
	if p < 8 || r <= p || r > len(ref) {
		t.Fatalf("paused at %d, resumed at %d", p, r)
	}
	mcpCall(t, cs, "vmaf_status", nil, &st)
	if st.FramesSkipped != uint64(r-p) || st.FramesScored != uint64(len(ref)-(r-p)) || st.FramesReceived != uint64(len(ref)) {
		t.Errorf("paused %d..%d: counters %+v", p, r, st)
	}
	for _, rec := range run.records() {
		if rec.Index >= p && rec.Index < r {
			t.Errorf("frame %d scored while paused (%d..%d)", rec.Index, p, r)
		}
	}
	// While paused nothing is scored, so nothing holds a streaming thread:
	// each paused frame's pushes return at once. (Outside the pause a slow
	// machine may make scoring, not the pause, back-pressure the stream.)
	var worst time.Duration
	for i := p; i < r; i++ {
		worst = max(worst, fs.pushed[i])
	}
	t.Logf("skip: paused at frame %d, resumed at %d, %d skipped; longest push of a paused frame %v (interval %v)", p, r, st.FramesSkipped, worst, interval)
	if worst > interval/2 {
		t.Errorf("a paused frame's push took %v in skip mode; frames come every %v", worst, interval)
	}
}

// TestMCPPauseBlock pauses in block mode: the streaming threads are held
// (no frame arrives while paused), nothing is skipped, and on resume the
// stream carries on where it stopped.
func TestMCPPauseBlock(t *testing.T) {
	const interval, hold = 20 * time.Millisecond, 300 * time.Millisecond
	ref, dist := mcpFrames(t, "flower_576x324_ref"), mcpFrames(t, "flower_576x324_x264_crf22")
	run := mcpStart(t, mcpConfig{pauseMode: pipeline.PauseBlock})
	cs, _ := mcpConnect(t, run.sock)
	done := run.feed(ref, dist, interval, 1)

	mcpWaitStatus(t, cs, time.Minute, "8 frames scored", func(st control.Status) bool { return st.FramesScored >= 8 })
	var pause, resume control.Command
	if msg := mcpCall(t, cs, "vmaf_pause", map[string]any{"wait": true}, &pause); msg != "" {
		t.Fatal(msg)
	}
	paused := time.Now()
	st := mcpWaitStatus(t, cs, time.Minute, "paused", func(st control.Status) bool { return st.State == control.StatePaused })
	if st.PauseMode != control.PauseBlock {
		t.Errorf("pause mode %s", st.PauseMode)
	}
	time.Sleep(50 * time.Millisecond) // a push already past its boundary may finish
	before := mcpWaitStatus(t, cs, time.Minute, "status", func(control.Status) bool { return true })
	time.Sleep(hold)
	after := mcpWaitStatus(t, cs, time.Minute, "status", func(control.Status) bool { return true })
	if after.FramesReceived != before.FramesReceived {
		t.Errorf("block mode let frames through: %d pairs, then %d", before.FramesReceived, after.FramesReceived)
	}
	if msg := mcpCall(t, cs, "vmaf_resume", map[string]any{"wait": true}, &resume); msg != "" {
		t.Fatal(msg)
	}
	resumed := time.Now()
	fs := <-done
	if fs.err != nil {
		t.Fatal(fs.err)
	}
	mcpCall(t, cs, "vmaf_status", nil, &st)
	if st.FramesSkipped != 0 || st.FramesScored != uint64(len(ref)) {
		t.Errorf("block mode lost frames: %+v", st)
	}
	if resume.Frame < pause.Frame || resume.Frame > pause.Frame+1 {
		t.Errorf("paused at %d, resumed at %d: frames moved while held", pause.Frame, resume.Frame)
	}
	// Frame timing: one gap as long as the pause, at the paused frame.
	at, gap := 0, time.Duration(0)
	for i := 1; i < len(fs.start); i++ {
		if g := fs.start[i].Sub(fs.start[i-1]); g > gap {
			at, gap = i, g
		}
	}
	held := resumed.Sub(paused)
	t.Logf("block: paused at frame %d for %v; the stream's longest gap %v before pair %d", pause.Frame, held.Round(time.Millisecond), gap.Round(time.Millisecond), at)
	if gap < hold || gap > held+5*interval || at < int(pause.Frame) || at > int(pause.Frame)+2 {
		t.Errorf("longest gap %v before pair %d; want about %v near pair %d", gap, at, held, pause.Frame)
	}
}
