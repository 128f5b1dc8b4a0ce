package element

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/vmafsink/vmafsink/pipeline"
)

// What GST_DEBUG=vmafsink:4 (INFO) and :5 (DEBUG) show of each buffer's
// way through the Runner: enough to tell from the log why a pipeline
// stalls (a block pause, a full pending queue, the lead limit, a busy
// scorer) and what became of every frame. Nothing here runs unless the
// category logs at INFO or more.

// memoryNote says whether a frame is read in place or copied.
func memoryNote(hold int) string {
	switch {
	case hold == pipeline.CopyAtOnce:
		return "copied at once (buffer from no pool)"
	case hold > 0:
		return fmt.Sprintf("mapped in place (bounded pool: %d held at most, later ones copied)", hold)
	}
	return "mapped in place (unbounded pool)"
}

func describe(st *pipeline.Status) string {
	c := &st.Counters
	return fmt.Sprintf("state %s (pause-mode %s), pending ref %d dist %d, pairs %d scored %d skipped %d dropped %d, unpaired ref %d dist %d, commands queued %d",
		st.State, st.PauseMode, st.Pending[pipeline.Ref], st.Pending[pipeline.Dist], c.Pairs, c.Scored, c.Skipped, c.Dropped,
		c.Unpaired[pipeline.Ref], c.Unpaired[pipeline.Dist], st.CommandsPending)
}

// traceState keeps the two pads' streaming threads from both logging
// what one of them saw first: each fact is claimed once.
type traceState struct {
	pairs   atomic.Uint64 // pairs logged
	skipped atomic.Uint64
	dropped atomic.Uint64
	swap    atomic.Uint64
	// unpaired is indexed by pipeline.Side.
	unpaired [2]atomic.Uint64
}

// claim moves c up to v and reports the value it had, or false when
// another thread has claimed v already.
func claim(c *atomic.Uint64, v uint64) (from uint64, ok bool) {
	for {
		old := c.Load()
		if v <= old {
			return old, false
		}
		if c.CompareAndSwap(old, v) {
			return old, true
		}
	}
}

// tracePush logs what one Push did: how long it waited and on what, the
// pairs formed, skipped or dropped, the frames released unpaired, and the
// model a swap applied at its boundary brought in.
func (st *runState) tracePush(s pipeline.Side, before *pipeline.Status, waited time.Duration, err error) {
	after := st.runner.Status()
	pad, other := padNames[s], padNames[1-s]
	b, a := &before.Counters, &after.Counters
	tr := &st.trace
	if m := len(after.Swaps); m > 0 {
		if _, ok := claim(&tr.swap, after.Swaps[m-1].ID); ok {
			sw := after.Swaps[m-1]
			st.e.logf(lvlInfo, "swap %d to model %s applied at pair %d", sw.ID, sw.To.Version, b.Pairs)
		}
	}
	if !st.e.logOn(lvlDebug) {
		return
	}
	if waited > 2*time.Millisecond {
		st.e.logf(lvlDebug, "%s: waited %v in the Runner: %s", pad, waited.Round(time.Microsecond), st.waitCause(s, before, &after, other))
	}
	if from, ok := claim(&tr.pairs, a.Pairs); ok {
		for i := from; i < a.Pairs; i++ {
			st.e.logf(lvlDebug, "%s: pair %d formed", pad, i)
		}
	}
	if from, ok := claim(&tr.skipped, a.Skipped); ok {
		st.e.logf(lvlDebug, "%d pair(s) skipped while paused (%d in all)", a.Skipped-from, a.Skipped)
	}
	if from, ok := claim(&tr.dropped, a.Dropped); ok {
		st.e.logf(lvlDebug, "%d pair(s) dropped, scorer busy with backpressure=drop (%d in all)", a.Dropped-from, a.Dropped)
	}
	st.traceUnpaired(&after, "pending queue full and the other pad silent for 1 s", a.Overflow > b.Overflow)
	if a.LeadReleases > b.LeadReleases {
		st.e.logf(lvlDebug, "%s: %s delivered nothing while this pad waited at max-lead; lead limit off until the next flush", pad, other)
	}
	if err != nil {
		st.e.logf(lvlDebug, "%s: push returned %v", pad, err)
	}
}

// traceUnpaired logs frames released without a partner since the last
// such line; why is the reason when overflow says the queue overflowed.
func (st *runState) traceUnpaired(after *pipeline.Status, why string, overflow bool) {
	if !overflow {
		why = "no partner"
	}
	for i := range st.trace.unpaired {
		if from, ok := claim(&st.trace.unpaired[i], after.Counters.Unpaired[i]); ok {
			st.e.logf(lvlDebug, "released %d unpaired %s frame(s): %s", after.Counters.Unpaired[i]-from, padNames[i], why)
		}
	}
}

// applied logs a pause, resume or swap as the Runner applies it, before
// a block pause holds the thread that applies it.
func (st *runState) applied(kind pipeline.CommandKind, next int) {
	if !st.e.logOn(lvlInfo) {
		return
	}
	mode := st.runner.Status().PauseMode
	st.e.logf(lvlInfo, "applying %s at pair %d (pause-mode %s)", kind, next, mode)
	if kind == pipeline.Pause && mode == pipeline.PauseBlock {
		st.e.logf(lvlDebug, "block pause: streaming threads held until resume, a state change, or pause-block-limit (%d ms)", st.settings.pauseBlockLimit)
	}
}

// waitCause tells from the status around a push what it waited on: a
// block pause by the Runner's count of holds (the published state turns
// Paused only once the pairs before the pause are scored, which can be
// after the hold), the rest guessed from the queues before it.
func (st *runState) waitCause(s pipeline.Side, before, after *pipeline.Status, other string) string {
	switch {
	case after.Counters.BlockHolds[s] > before.Counters.BlockHolds[s]:
		return "held by a block pause"
	case before.Pending[s] >= int(st.settings.maxPending):
		return fmt.Sprintf("pending queue full (%d frames), waiting for %s", before.Pending[s], other)
	case st.settings.maxLead > 0 && before.Pending[s] >= int(st.settings.maxLead):
		return fmt.Sprintf("%d frames ahead (max-lead %d), waiting for %s", before.Pending[s], st.settings.maxLead, other)
	}
	return "scorer busy (backpressure=block)"
}
