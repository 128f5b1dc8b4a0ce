package element

/*
#include "gstglue.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"time"
	"unsafe"

	"github.com/vmafsink/vmafsink/pipeline"
)

var padNames = [2]string{"ref_sink", "dist_sink"}

//export vmafsinkChain
func vmafsinkChain(parent *C.GstObject, side C.gint, buf *C.GstBuffer) (ret C.GstFlowReturn) {
	var e *vmafSink
	defer recoverChain(&e, side, &ret)
	e = fromParent(unsafe.Pointer(parent))
	if e == nil {
		return C.GST_FLOW_ERROR
	}
	st := e.state.Load()
	if st == nil {
		return C.GST_FLOW_FLUSHING
	}
	ret = st.chain(pipeline.Side(side), buf)
	st.releaseSteps(false)
	return ret
}

//export vmafsinkEvent
func vmafsinkEvent(parent *C.GstObject, side C.gint, ev *C.GstEvent) (ok C.gboolean) {
	var e *vmafSink
	defer recoverEvent(&e, side, &ok)
	e = fromParent(unsafe.Pointer(parent))
	if e == nil {
		return 0
	}
	st := e.state.Load()
	if st == nil {
		// Flushes may arrive while the element is not running.
		return 1
	}
	if C.vs_event_type(ev) == C.GST_EVENT_FLUSH_START && pipeline.Side(side) == st.leadSide() {
		// A step the inner sink completed before the flush is done.
		st.releaseSteps(true)
	}
	if st.event(pipeline.Side(side), ev) {
		return 1
	}
	return 0
}

// recoverChain and recoverEvent are the pad functions' deferred panic
// guards: recover only works in the deferred function itself, and
// pointers, unlike a closure, cost no allocation per buffer.
func recoverChain(e **vmafSink, side C.gint, ret *C.GstFlowReturn) {
	if v := recover(); v != nil {
		(*e).panicked(padNames[side&1]+" chain", v)
		*ret = C.GST_FLOW_ERROR
	}
}

func recoverEvent(e **vmafSink, side C.gint, ok *C.gboolean) {
	if v := recover(); v != nil {
		(*e).panicked(padNames[side&1]+" event", v)
		*ok = 0
	}
}

// chain maps a buffer and pushes it into the Runner.
func (st *runState) chain(s pipeline.Side, buf *C.GstBuffer) C.GstFlowReturn {
	st.panicHook.buffer()
	noRef := st.settings.noReference
	switch {
	case noRef && s == pipeline.Ref:
		st.e.fail(errSettings, "no-reference=true scores dist_sink alone, but ref_sink received a buffer",
			"ref_sink was linked after the run started; unlink it or set no-reference=false")
		return C.GST_FLOW_ERROR
	case !noRef && s == pipeline.Dist && !st.gate.pass():
		// In no-reference mode the distorted stream is the one the
		// inner sink prerolls and holds: no gate.
		return C.GST_FLOW_FLUSHING
	}
	ps := &st.pads[s]
	if ps.format == nil {
		st.e.fail(errFormat, fmt.Sprintf("%s received a buffer before caps", padNames[s]), "no caps event")
		return C.GST_FLOW_NOT_NEGOTIATED
	}
	m, err := st.frames.mapBuffer(ps.format, buf)
	if err != nil {
		st.e.fail(errFailed, fmt.Sprintf("%s: cannot read the frame", padNames[s]), err.Error())
		return C.GST_FLOW_ERROR
	}
	hold := ps.poolHoldLimit(buf)
	if !m.mapped {
		// Every component was copied out: the buffer is back upstream.
		hold = 0
	}
	ps.flowed = true
	if !ps.probed {
		st.probe(s, ps)
	}
	var before pipeline.Status
	var t0 time.Time
	traced := st.e.logOn(lvlInfo)
	if traced {
		before = st.runner.Status()
		if st.e.logOn(lvlLog) {
			st.e.logPad(lvlLog, s, "buffer pts %v, %s; %s", fromClockTime(C.vs_buffer_pts(buf)), memoryNote(hold), describe(&before))
		}
		t0 = time.Now()
	}
	f := pipeline.Frame{Picture: &m.pic, Timing: st.timing(ps, buf), Owner: m, HoldLimit: hold}
	if noRef {
		err = st.pushMirrored(f, m)
	} else {
		err = st.pushFrame(s, f, m)
	}
	if traced {
		st.tracePush(s, &before, time.Since(t0), err)
	}
	var fe *pipeline.FormatError
	switch {
	case err == nil:
		if s == pipeline.Ref {
			st.gate.refDelivered()
			st.checkLag(buf)
		}
		return C.GST_FLOW_OK
	case errors.Is(err, pipeline.ErrFlushing):
		return C.GST_FLOW_FLUSHING
	case errors.Is(err, pipeline.ErrFinished):
		return C.GST_FLOW_EOS
	case errors.Is(err, pipeline.ErrPartnerEnded) && s == pipeline.Ref && st.e.pass:
		// vmafpass's reference is the stream it passes on: it keeps
		// flowing after the distorted stream ended, its frames unpaired.
		st.gate.refDelivered()
		return C.GST_FLOW_OK
	case errors.Is(err, pipeline.ErrPartnerEnded):
		// Upstream stops and sends its EOS, which ends the run.
		st.e.logf(lvlDebug, "%s: the other pad has ended: frame counted as unpaired, upstream told EOS", padNames[s])
		return C.GST_FLOW_EOS
	case errors.As(err, &fe):
		st.formatMu.Lock()
		short := [2]string{pictureFormat(&fe.Ref, st.pads[pipeline.Ref].format), pictureFormat(&fe.Dist, st.pads[pipeline.Dist].format)}
		st.formatMu.Unlock()
		st.failMismatch(s, uint64(fe.Index), short, err.Error())
		return C.GST_FLOW_NOT_NEGOTIATED
	}
	st.e.fail(errFailed, "VMAF scoring failed", err.Error())
	return C.GST_FLOW_ERROR
}

// timing places a buffer on the pad's segment. A buffer without duration
// lasts one frame at the caps' frame rate.
func (st *runState) timing(ps *padState, buf *C.GstBuffer) pipeline.Timing {
	pts := C.vs_buffer_pts(buf)
	t := pipeline.Timing{
		PTS:         fromClockTime(pts),
		RunningTime: fromClockTime(C.vs_running_time(&ps.segment, pts)),
		StreamTime:  fromClockTime(C.vs_stream_time(&ps.segment, pts)),
		Duration:    fromClockTime(C.vs_buffer_duration(buf)),
	}
	if t.Duration == pipeline.NoTime {
		var den C.gint
		if num := C.vs_info_fps(&ps.format.info, &den); num > 0 && den > 0 {
			t.Duration = time.Duration(int64(time.Second) * int64(den) / int64(num))
		}
	}
	return t
}

func fromClockTime(t C.guint64) time.Duration {
	if t == C.GST_CLOCK_TIME_NONE || t > C.guint64(1<<63-1) {
		return pipeline.NoTime
	}
	return time.Duration(t)
}

func (st *runState) event(s pipeline.Side, ev *C.GstEvent) bool {
	if st.e.logOn(lvlDebug) {
		st.e.logPad(lvlDebug, s, "%s event", C.GoString(C.gst_event_type_get_name(C.vs_event_type(ev))))
	}
	if st.settings.noReference {
		return st.eventNoReference(s, ev)
	}
	switch C.vs_event_type(ev) {
	case C.GST_EVENT_CAPS:
		return st.setCaps(s, C.vs_event_caps(ev))
	case C.GST_EVENT_STREAM_START:
		if s == pipeline.Dist {
			st.distStreamStart(ev)
		}
	case C.GST_EVENT_TAG:
		if s == pipeline.Dist {
			st.distTags(ev)
		}
	case C.GST_EVENT_SEGMENT:
		C.gst_event_copy_segment(ev, &st.pads[s].segment)
	case C.GST_EVENT_EOS:
		st.endRate(s)
		both := st.runner.EndOfStream(s)
		if !both && C.vs_pad_linked(st.e.self, C.gint(1-s)) == 0 {
			// Nothing can ever arrive on an unlinked pad: it has ended too.
			st.e.logf(lvlInfo, "%s: EOS while %s is not linked: ending the run", padNames[s], padNames[1-s])
			both = st.runner.EndOfStream(1 - s)
		}
		if st.e.logOn(lvlInfo) {
			status := st.runner.Status()
			st.e.logf(lvlInfo, "%s: EOS; both pads ended: %v; %s", padNames[s], both, describe(&status))
			if st.e.logOn(lvlDebug) {
				st.traceUnpaired(&status, "", false)
			}
		}
		if both && st.finish() {
			// The inner sink posts EOS when the pipeline is PLAYING.
			C.vs_inner_push_eos(st.e.self, C.gst_event_get_seqnum(ev))
		}
	case C.GST_EVENT_FLUSH_START:
		if s == pipeline.Dist {
			st.gate.setFlushing(true)
		} else {
			// The frames counted before the flush are gone: a distorted
			// frame after it must not pass for them.
			st.gate.refFlushing()
		}
		st.runner.FlushStart(s)
	case C.GST_EVENT_FLUSH_STOP:
		st.resetRate(s)
		st.reopen(s)
		if s == pipeline.Dist {
			st.gate.setFlushing(false)
		} else {
			st.gate.refFlushed()
		}
		st.runner.FlushStop(s)
		C.gst_segment_init(&st.pads[s].segment, C.GST_FORMAT_TIME)
	}
	return true
}

// setCaps takes a pad's new format. Before any buffer has flowed, caps
// that differ from the other pad's are an error at once; later, a
// resolution change reaches the two pads one after the other, and the
// Runner checks each pair instead.
func (st *runState) setCaps(s pipeline.Side, caps *C.GstCaps) bool {
	f, err := parseCaps(caps)
	if err != nil {
		st.e.fail(errFormat, fmt.Sprintf("%s: unsupported caps", padNames[s]), err.Error())
		return false
	}
	if err := st.checkFormat(f); err != nil {
		st.e.fail(errFormat, fmt.Sprintf("%s: %s frames cannot be scored with these settings: %v", padNames[s], f.short(), err),
			fmt.Sprintf("caps %s refused: %v", f.caps, err))
		return false
	}
	st.formatMu.Lock()
	st.pads[s].format = f
	o := &st.pads[1-s]
	mismatch := o.format != nil && !o.flowed && !st.pads[s].flowed && !f.sameStream(o.format)
	var rates [2]string
	if o.format != nil {
		rates[s], rates[1-s] = f.rate(), o.format.rate()
	}
	st.formatMu.Unlock()
	if rates[0] != "" && rates[1] != "" && rates[0] != rates[1] && st.settings.fps.Num == 0 && !st.rateWarned.Swap(true) {
		st.e.warn(fmt.Sprintf("ref_sink is %s fps but dist_sink is %s fps: frames are paired by %s, so most pairs are not the same picture",
			rates[0], rates[1], st.settings.pairing),
			"the two streams' frame rates differ; set fps (e.g. fps="+rates[0]+") to conform both as FFmpeg's fps filter does, or videorate one to the other's rate before the element")
	}
	if mismatch {
		next := st.runner.Status().Counters.Pairs
		var short [2]string
		short[s], short[1-s] = f.short(), o.format.short()
		st.failMismatch(s, next, short, "the pads' caps differ before the first frame")
		return false
	}
	st.e.logPad(lvlInfo, s, "caps accepted: %s", f.caps)
	return true
}

// failMismatch posts the error for pads whose frames cannot be scored
// together: the pad whose frame found the mismatch, the frame index and
// both formats in the headline, both pads' caps in the details. Once per
// run: upstream sends its caps again with every buffer it tries, and
// each would repeat the same error.
func (st *runState) failMismatch(s pipeline.Side, index uint64, short [2]string, debug string) {
	if st.mismatchPosted.Swap(true) {
		st.e.logf(lvlDebug, "%s: frame %d: formats still differ (%s)", padNames[s], index, debug)
		return
	}
	st.formatMu.Lock()
	var caps [2]string
	for i, p := range st.pads {
		caps[i] = "(none)"
		if p.format != nil {
			caps[i] = p.format.caps
		}
	}
	st.formatMu.Unlock()
	st.e.fail(errFormat, fmt.Sprintf("%s: frame %d is %s but %s's is %s: ref_sink and dist_sink must have the same width, height and format",
		padNames[s], index, short[s], padNames[1-s], short[1-s]),
		fmt.Sprintf("%s; ref_sink caps %s; dist_sink caps %s", debug, caps[0], caps[1]))
}
