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
	// the stream went on flowing (the pairs received while paused, above).
	// How long a paused frame's push takes is the machine's to say; it is
	// logged, not bounded.
	var worst time.Duration
	for i := p; i < r; i++ {
		worst = max(worst, fs.pushed[i])
	}
	t.Logf("skip: paused at frame %d, resumed at %d, %d skipped; longest push of a paused frame %v (interval %v)", p, r, st.FramesSkipped, worst, interval)
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
	// Held for a while, the stream lets through at most the pair whose
	// push was already past its boundary when the pause was applied.
	time.Sleep(hold)
	after := mcpWaitStatus(t, cs, time.Minute, "status", func(control.Status) bool { return true })
	if after.FramesReceived > st.FramesReceived+1 {
		t.Errorf("block mode let frames through: %d pairs, then %d", st.FramesReceived, after.FramesReceived)
	}
	resuming := time.Now()
	if msg := mcpCall(t, cs, "vmaf_resume", map[string]any{"wait": true}, &resume); msg != "" {
		t.Fatal(msg)
	}
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
	// The stream was held at the paused frame: the pushes of one pair
	// there began before the pause was applied and returned only after the
	// resume was asked for, and no pair began in between.
	var held []int
	for i := range fs.pushed {
		if end := fs.start[i].Add(fs.pushed[i]); fs.start[i].Before(paused) && end.After(resuming) {
			held = append(held, i)
		} else if fs.start[i].After(paused) && fs.start[i].Before(resuming) {
			t.Errorf("pair %d began while the stream was held", i)
		}
	}
	t.Logf("block: paused at frame %d for %v; pairs held across the pause %v", pause.Frame, resuming.Sub(paused).Round(time.Millisecond), held)
	if len(held) != 1 || held[0] < int(pause.Frame)-1 || held[0] > int(pause.Frame)+1 {
		t.Errorf("pairs %v held across the pause; want one, near pair %d", held, pause.Frame)
	}
}
