package attach

import (
	"context"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/pipeline"
)

// TestFaultSwapWaitWhilePaused: a swap with wait while paused is answered
// when it takes effect (applied, no first frame yet) instead of timing out,
// and a swap superseded before it scored a frame says so in the history.
func TestFaultSwapWaitWhilePaused(t *testing.T) {
	r := newRunner(t, pipeline.PauseSkip)
	tg, err := NewTarget(Config{Runner: r, Engine: "native"})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	ref, dist := frames(t, 5, 176, 144)
	ctx := context.Background()
	push(t, r, ref[0], dist[0])
	if _, err := tg.Pause(ctx); err != nil {
		t.Fatal(err)
	}
	push(t, r, ref[1], dist[1])
	wait := func(id uint64) control.Command {
		t.Helper()
		wctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		c, err := tg.Wait(wctx, id)
		if err != nil {
			t.Fatalf("wait for swap %d while paused: %v", id, err)
		}
		return c
	}
	first, err := tg.RequestSwap(ctx, "vmaf_v0.6.1neg", "")
	if err != nil {
		t.Fatal(err)
	}
	push(t, r, ref[2], dist[2])
	if c := wait(first.ID); c.Status != control.CommandApplied || c.Frame != -1 {
		t.Errorf("swap while paused answered %+v, want applied with frame -1", c)
	}
	second, err := tg.RequestSwap(ctx, "vmaf_v0.6.1", "")
	if err != nil {
		t.Fatal(err)
	}
	push(t, r, ref[3], dist[3])
	wait(second.ID)
	if _, err := tg.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	push(t, r, ref[4], dist[4])
	if err := r.Finish(); err != nil {
		t.Fatal(err)
	}
	sw := tg.Status().Swaps
	if len(sw) != 2 || !sw[0].Superseded || sw[0].FirstFrame != -1 || sw[1].Superseded || sw[1].FirstFrame != 4 {
		t.Errorf("swap history %+v, want the first superseded without a frame and the second from frame 4", sw)
	}
}
