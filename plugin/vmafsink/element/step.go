package element

/*
#include "gstglue.h"
*/
import "C"

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/vmafsink/vmafsink/pipeline"
)

// stepHold keeps the inner sink's STEP_DONE messages until the frames
// they stepped are scored. A sink posts STEP_DONE once the stepped frames
// are played; here the inner sink has them once the scorer took them, so
// the message waits for their scores (or for them to be dropped, skipped
// or discarded), then goes out as the element's.
type stepHold struct {
	mu   sync.Mutex
	held []heldStep
	n    atomic.Int32 // len(held), read on every record without mu
	// async holds the inner sink's ASYNC_DONE that came while a
	// STEP_DONE was held: it follows the STEP_DONE out.
	async []*C.GstMessage
	// published counts the records posted in this run (onRecord).
	published atomic.Uint64
}

type heldStep struct {
	msg *C.GstMessage
	// settled is how many of the lead stream's frames must be done with:
	// every frame the step covered.
	settled uint64
}

//export vmafsinkStepDone
func vmafsinkStepDone(parent *C.GstObject, msg *C.GstMessage) (taken C.gboolean) {
	var e *vmafSink
	var stored bool
	defer func() {
		if v := recover(); v != nil {
			e.panicked("step-done", v)
			taken = cbool(stored)
		}
	}()
	e = fromParent(unsafe.Pointer(parent))
	if e == nil {
		return 0
	}
	st := e.state.Load()
	if st == nil || st.settings.subsample > 1 {
		// With subsample the frames between scored ones leave no trace
		// to wait for: the step is done when the frames reached the sink.
		return 0
	}
	c := st.runner.Status().Counters
	lead := st.leadSide()
	target := c.Received[lead]
	if target > 0 && C.vs_step_done_format(msg) == C.GST_FORMAT_BUFFERS {
		// A step in buffers ends as the frame after it arrives, the one
		// the sink prerolls on; a step in time ends on its last frame.
		target--
	}
	st.steps.mu.Lock()
	st.steps.held = append(st.steps.held, heldStep{msg: msg, settled: target})
	st.steps.n.Store(int32(len(st.steps.held)))
	// Under mu, as releaseSteps clears it: never left set with nothing held.
	st.gate.setStepping(true)
	st.steps.mu.Unlock()
	stored = true
	st.e.logf(lvlDebug, "STEP_DONE held until %d frames are scored", target)
	st.releaseSteps(false)
	return 1
}

//export vmafsinkHoldAsyncDone
func vmafsinkHoldAsyncDone(parent *C.GstObject, msg *C.GstMessage) C.gboolean {
	e := fromParent(unsafe.Pointer(parent))
	if e == nil {
		return 0
	}
	st := e.state.Load()
	if st == nil {
		return 0
	}
	st.steps.mu.Lock()
	defer st.steps.mu.Unlock()
	if len(st.steps.held) == 0 {
		return 0
	}
	st.steps.async = append(st.steps.async, msg)
	return 1
}

func (st *runState) leadSide() pipeline.Side {
	if st.settings.noReference {
		return pipeline.Dist
	}
	return pipeline.Ref
}

// releaseSteps posts the held STEP_DONE messages whose frames are done
// with, or all of them (a flush, the end of the run). It runs after every
// record and every pushed frame while a message is held.
func (st *runState) releaseSteps(all bool) {
	if st.steps.n.Load() == 0 {
		return
	}
	var done uint64
	if !all {
		c := st.runner.Status().Counters
		lead := st.leadSide()
		done = st.steps.published.Load() + c.Skipped + c.Dropped + c.Unpaired[lead] + c.Discarded[lead]
	}
	// Posted under the lock, so that an ASYNC_DONE arriving meanwhile
	// cannot overtake a STEP_DONE.
	st.steps.mu.Lock()
	defer st.steps.mu.Unlock()
	keep := st.steps.held[:0]
	for _, h := range st.steps.held {
		if all || h.settled <= done {
			C.vs_post_step_done(st.e.self, h.msg)
		} else {
			keep = append(keep, h)
		}
	}
	clear(st.steps.held[len(keep):])
	st.steps.held = keep
	st.steps.n.Store(int32(len(keep)))
	if len(keep) == 0 {
		st.gate.setStepping(false)
		for _, m := range st.steps.async {
			C.vs_bin_message(st.e.self, m)
		}
		clear(st.steps.async)
		st.steps.async = st.steps.async[:0]
	}
}

// dropSteps forgets the held messages when the run stops: the bus is
// flushed on the way to READY, so a sink's pending step ends unannounced.
func (st *runState) dropSteps() {
	st.steps.mu.Lock()
	held, async := st.steps.held, st.steps.async
	st.steps.held, st.steps.async = nil, nil
	st.steps.n.Store(0)
	st.steps.mu.Unlock()
	for _, h := range held {
		C.vs_message_unref(h.msg)
	}
	for _, m := range async {
		C.vs_message_unref(m)
	}
}
