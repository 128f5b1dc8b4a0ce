package element

/*
#include "gstglue.h"
*/
import "C"

import (
	"github.com/vmafsink/vmafsink/pipeline"
)

// postDropQoS reports a pair backpressure=drop left unscored because the
// scorer was saturated, as a GstBaseSink reports each buffer it drops: a
// QoS message with the pair's times and the run's processed and dropped
// pairs (format buffers); jitter is how late the pair was against the
// clock when the pipeline runs on one, else 0. It runs on the pusher's
// streaming thread, inside the Runner.
func (e *vmafSink) postDropQoS(index int, t pipeline.Timing, c pipeline.Counters) {
	live := false
	if st := e.state.Load(); st != nil {
		st.liveMu.Lock()
		live = st.lives.live[pipeline.Ref] || st.lives.live[pipeline.Dist]
		st.liveMu.Unlock()
	}
	rt := clockTime(t.RunningTime)
	var jitter C.gint64
	if t.RunningTime != pipeline.NoTime {
		if lag := C.vs_clock_lag(e.self, C.GstClockTime(rt)); lag > 0 {
			jitter = lag
		}
	}
	processed := c.Pairs - c.Dropped - c.Skipped
	C.vs_post_qos(e.self, cbool(live), C.GstClockTime(rt), C.GstClockTime(clockTime(t.StreamTime)),
		C.GstClockTime(clockTime(t.PTS)), C.GstClockTime(clockTime(t.Duration)), jitter, C.guint64(processed), C.guint64(c.Dropped))
	if e.logOn(lvlDebug) {
		e.logf(lvlDebug, "pair %d dropped: the scorer is saturated (backpressure=drop); %d dropped, %d processed", index, c.Dropped, processed)
	}
}
