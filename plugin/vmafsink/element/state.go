package element

/*
#include "gstglue.h"
*/
import "C"

import (
	"math"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/vmafsink/vmafsink/metrics"
	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/vmaf"
)

// runState is everything that exists only while the element runs.
type runState struct {
	e        *vmafSink
	settings settings
	features []string    // the extra metrics' requests (settings.features)
	scorer   vmaf.Config // the engine's configuration, for checking a format
	runner   *pipeline.Runner
	frames   framePool
	results  *resultsFile  // nil without results-filename
	control  ControlServer // nil without mcp-uds
	messages *frameMessenger
	live     *liveMessenger // nil without windows and alerts
	unsub    []func()
	// metrics serves Prometheus' /metrics; nil without metrics-addr.
	metrics *metrics.Exporter

	frameMessage atomic.Bool
	panicHook    *panicHook
	trace        traceState
	// mismatchPosted makes the pads' format mismatch one error a run.
	mismatchPosted atomic.Bool
	// rateWarned makes the pads' frame-rate mismatch one warning a run.
	rateWarned atomic.Bool
	checks     formatChecks
	liveMu     sync.Mutex
	lives      liveState

	// codec is what dist_sink's tags say of the encode, for a
	// codec-aware model (streamcodec.go).
	codec streamCodec

	// worstFiles are the pictures worst-dir last wrote, removed before a
	// run restarted after its end writes its own (finish holds finishMu).
	worstFiles []string

	// pads is each sink pad's state. A pad's streaming thread is the only
	// writer of its entry; formatMu guards the formats, which the other
	// pad's thread compares against.
	pads     [2]padState
	rates    [2]*padRate // the fps property's conformers; nil without it
	formatMu sync.Mutex

	// finishMu guards finished: a run finishes at EOS on both pads, and
	// a flushing seek from there reopens it (reopen).
	finishMu sync.Mutex
	finished bool
	gate     playGate
	// last is the timing of the last scored frame, for the pooled message.
	lastMu sync.Mutex
	last   pipeline.Timing
	// lastNotify is when frames-scored and last-score were last notified;
	// only the publishing goroutine uses it.
	lastNotify time.Time
	steps      stepHold
}

type padState struct {
	format  *videoFormat
	segment C.GstSegment
	flowed  bool // a buffer has been pushed since the caps were set
	probed  bool // upstream has been asked whether it is live

	// The pool the last buffer came from and how many of its buffers
	// may wait in the Runner; looked up again only when the pool changes.
	pool      *C.GstBufferPool
	holdLimit int
}

// poolHoldLimit is pipeline.Frame.HoldLimit for a buffer: half its
// pool's buffers when the pool is bounded, so upstream keeps enough to
// work with; 0 (hold freely) for unbounded pools; CopyAtOnce for buffers
// from no pool (parsers, demuxers), which are fresh heap memory: held
// while they wait and are scored, they fragmented the upstream threads'
// heap, so that most new buffers landed on untouched pages and the page
// faults cost far more than a copy.
func (ps *padState) poolHoldLimit(buf *C.GstBuffer) int {
	pool := C.vs_buffer_pool(buf)
	if pool == nil {
		ps.pool = nil
		return pipeline.CopyAtOnce
	}
	if pool != ps.pool {
		ps.pool, ps.holdLimit = pool, 0
		if n := int(C.vs_pool_max_buffers(pool)); n > 0 {
			ps.holdLimit = max(n/2, 1)
		}
	}
	return ps.holdLimit
}

// geometry is the stream's picture size, 0×0 before the first pair.
func (st *runState) geometry() (width, height int) {
	if f := st.runner.Status().Format; f != nil {
		return f.Width, f.Height
	}
	return 0, 0
}

// onRecord runs on the Runner's publishing goroutine for every record.
func (st *runState) onRecord(r *pipeline.Record) {
	st.e.framesScored.Add(1)
	st.steps.published.Add(1)
	st.e.lastScore.Store(math.Float64bits(r.Score))
	st.lastMu.Lock()
	st.last = r.Timing
	st.lastMu.Unlock()
	if st.frameMessage.Load() {
		st.messages.post(r)
	}
	if now := time.Now(); now.Sub(st.lastNotify) >= notifyInterval {
		st.lastNotify = now
		st.e.notifyScores()
	}
	st.releaseSteps(false)
}

// notifyInterval bounds how often frames-scored and last-score announce
// a change: applications bind them to a display, which a notify per frame
// at hundreds of frames a second would only load.
const notifyInterval = 250 * time.Millisecond

// propertyChanged applies the properties a running element honours at once.
func (st *runState) propertyChanged(id uint, s *settings) {
	switch id {
	case propPauseMode:
		st.runner.SetPauseMode(s.pauseMode)
	case propFrameMessage:
		st.frameMessage.Store(s.frameMessage)
	}
}

// finish ends the run once both pads reached EOS, or when the element
// stops: the pairs in flight are scored, the pooled message posted and
// the results file completed. It reports whether this call did the work.
func (st *runState) finish() bool {
	st.finishMu.Lock()
	defer st.finishMu.Unlock()
	if st.finished {
		return false
	}
	st.finished = true
	if err := st.runner.Finish(); err != nil {
		st.e.fail(errFailed, "VMAF scoring failed", err.Error())
	}
	st.releaseSteps(true)
	st.lastMu.Lock()
	last := st.last
	st.lastMu.Unlock()
	aggregates := st.runner.Aggregates()
	st.e.postPooled(st.runner.Status(), st.runner.Pooled(), aggregates, st.settings.poolMethod, last, st.runner.Analytics().Percentiles())
	st.e.notifyScores()
	if st.settings.worstDir != "" {
		st.writeWorst()
	}
	if st.results != nil {
		if err := st.results.complete(aggregates); err != nil {
			st.e.fail(errWrite, "cannot write the VMAF results file", err.Error())
		}
	}
	return true
}

// reopen starts a finished run again when a flushing seek restarts the
// streams after their end, as any sink prerolls and plays to a new EOS
// then: frames are scored again, indices and pooled statistics carry on,
// and the next EOS posts a pooled message over the whole run and
// completes the results file again.
func (st *runState) reopen(s pipeline.Side) {
	st.finishMu.Lock()
	defer st.finishMu.Unlock()
	if !st.finished || !st.runner.Reopen() {
		return
	}
	st.finished = false
	st.e.logf(lvlInfo, "%s: flushed after the end of the streams: scoring again", padNames[s])
}

// stop ends the run when the element leaves PAUSED: what was scored is
// kept (finish), then the control plane, the Runner and the frame memory
// go away.
func (st *runState) stop() {
	st.finish()
	st.abort()
}

// abort releases everything without finishing.
func (st *runState) abort() {
	st.dropSteps()
	st.stopMetrics()
	if st.control != nil {
		if err := st.control.Close(); err != nil {
			st.e.warn("control plane did not shut down cleanly", err.Error())
		}
	}
	st.runner.Close()
	st.resetRate(pipeline.Ref)
	st.resetRate(pipeline.Dist)
	for _, u := range st.unsub {
		u()
	}
	if st.results != nil {
		st.results.close()
	}
	st.messages.free()
	if st.live != nil {
		st.live.free()
	}
	st.frames.destroy()
}

func (e *vmafSink) name() string {
	c := C.gst_object_get_name((*C.GstObject)(unsafe.Pointer(e.self)))
	defer C.g_free(C.gpointer(c))
	return C.GoString(c)
}
