package main

import (
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/control"
)

// applyPaused applies the pending commands as a paused measurement does a
// swap: in effect, with no frame scored by it yet.
func (t *target) applyPaused() {
	t.mu.Lock()
	for _, c := range t.pending {
		c.Status, c.Frame = control.CommandApplied, -1
	}
	t.pending = nil
	close(t.applied)
	t.applied = make(chan struct{})
	t.mu.Unlock()
}

// TestFaultSwapWaitWhilePaused: a swap applied while paused is reported
// as applied with no frame yet, never as "applied at frame -1".
func TestFaultSwapWaitWhilePaused(t *testing.T) {
	tg, sock := serve(t)
	done := make(chan string)
	go func() {
		code, out, e := vmafctl(t, "-s", sock, "swap", "vmaf_v0.6.1neg", "-wait")
		done <- strings.TrimSpace(out+e) + " " + string(rune('0'+code))
	}()
	for tg.Status().CommandsPending == 0 {
		time.Sleep(time.Millisecond)
	}
	tg.applyPaused()
	if got := <-done; got != "swap to vmaf_v0.6.1neg (command 1) applied; no frame scored by it yet (paused, or the stream ended) 0" {
		t.Errorf("swap -wait printed %q", got)
	}
}
