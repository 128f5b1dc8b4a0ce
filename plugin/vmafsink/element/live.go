package element

/*
#include "gstglue.h"
*/
import "C"

import (
	"fmt"
	"time"

	"github.com/vmafsink/vmafsink/pipeline"
)

// liveState is what the element watches of live sources: their branches'
// latency, and whether it has warned that scoring falls behind them.
type liveState struct {
	live      [2]bool
	latency   [2]time.Duration // each branch's minimum latency
	lagWarned bool
}

// lagLimit is how far behind its live source scoring may fall, past the
// branches' latency, before the element warns: a source that cannot be
// held back, with backpressure=block, is then being held.
const lagLimit = time.Second

// probe asks, at a pad's first buffer, whether its source is live. A
// live source cannot be held back: a wait at the lead limit would only
// make it drop frames. A live reference with no distorted stream linked
// is scored against nothing, which is worth a warning.
func (st *runState) probe(s pipeline.Side, ps *padState) {
	ps.probed = true
	var lat C.GstClockTime
	if C.vs_upstream_live(st.e.self, C.gint(s), &lat) == 0 {
		return
	}
	st.liveMu.Lock()
	st.lives.live[s] = true
	st.lives.latency[s] = time.Duration(lat)
	st.liveMu.Unlock()
	st.runner.LiveSource()
	if s == pipeline.Ref && C.vs_pad_linked(st.e.self, C.gint(pipeline.Dist)) == 0 {
		st.e.warn("dist_sink is not linked: the live reference stream is not being scored",
			"every reference frame is counted as unpaired until a distorted stream is linked to dist_sink")
	}
}

// checkLag warns, once a run, when a live reference frame reaches the
// scorer more than lagLimit later than its running time allows (past
// the branches' latency): with backpressure=block the scorer is holding
// a source that cannot wait. It posts a QoS message with the lag too.
func (st *runState) checkLag(buf *C.GstBuffer) {
	if st.settings.backpressure != pipeline.Block {
		return
	}
	st.liveMu.Lock()
	defer st.liveMu.Unlock()
	l := &st.lives
	if !l.live[pipeline.Ref] || l.lagWarned {
		return
	}
	ps := &st.pads[pipeline.Ref]
	pts := C.vs_buffer_pts(buf)
	rt := C.vs_running_time(&ps.segment, pts)
	lag := time.Duration(C.vs_clock_lag(st.e.self, C.GstClockTime(rt)))
	if lag < 0 {
		return
	}
	excess := lag - max(l.latency[pipeline.Ref], l.latency[pipeline.Dist])
	if excess <= lagLimit {
		return
	}
	l.lagWarned = true
	scored := st.runner.Status().Counters.Scored
	C.vs_post_qos(st.e.self, 1, C.GstClockTime(rt), C.GstClockTime(C.vs_stream_time(&ps.segment, pts)), pts,
		C.vs_buffer_duration(buf), C.gint64(excess), C.guint64(scored), 0)
	st.e.warn(fmt.Sprintf("scoring is %.1f s behind the live source: backpressure=block is holding the source back",
		excess.Seconds()),
		fmt.Sprintf("a frame reached the scorer %v after its running time (branch latency %v); with a live source, "+
			"set backpressure=drop, more threads, or subsample", lag.Round(time.Millisecond),
			max(l.latency[pipeline.Ref], l.latency[pipeline.Dist])))
}
