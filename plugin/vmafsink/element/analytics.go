package element

/*
#include <stdlib.h>
#include "gstglue.h"
*/
import "C"

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/report"
)

// liveSettings are the window, percentile and alert properties; the
// Runner's analytics.Monitor does the work (pipeline.Config.Analytics).
type liveSettings struct {
	windowFrames   uint
	windowDuration uint64 // nanoseconds of running time
	windowStep     uint
	percentiles    string
	alertThreshold float64
	alertFrames    uint
}

func parsePercentilesProperty(v string) ([]float64, error) {
	ps, err := analytics.ParsePercentiles(v)
	if err != nil {
		return nil, fmt.Errorf("percentiles %q: %w", v, err)
	}
	return ps, nil
}

// analyticsConfig is the Monitor's configuration; an error names the
// property at fault.
func (s *settings) analyticsConfig() (analytics.Config, error) {
	l := s.live
	ps, err := parsePercentilesProperty(l.percentiles)
	if err != nil {
		return analytics.Config{}, err
	}
	if l.windowStep > 0 && l.windowFrames == 0 {
		return analytics.Config{}, fmt.Errorf("window-step %d is set without window-frames", l.windowStep)
	}
	c := analytics.Config{
		WindowFrames:   int(l.windowFrames),
		WindowDuration: time.Duration(l.windowDuration),
		WindowStep:     int(l.windowStep),
		Percentiles:    ps,
		AlertThreshold: l.alertThreshold,
		AlertFrames:    int(l.alertFrames),
	}
	if err := c.Validate(); err != nil {
		return analytics.Config{}, err
	}
	return c, nil
}

var (
	cWindow       = C.CString("window")
	cAlert        = C.CString("alert")
	cFirst        = C.CString("first")
	cLast         = C.CString("last")
	cStart        = C.CString("running-time-start")
	cEnd          = C.CString("running-time-end")
	cFrames       = C.CString("frames")
	cMean         = C.CString("mean")
	cHarmonicMean = C.CString("harmonic-mean")
	cMin          = C.CString("min")
	cMax          = C.CString("max")
	cState        = C.CString("state")
	cID           = C.CString("id")
	cThreshold    = C.CString("threshold")
	cAtEOS        = C.CString("at-eos")
)

// liveMessenger posts the Monitor's windows and drops as VMAF element
// messages. It runs on the Runner's publishing goroutine (Subscribe's
// callback), as the frame messages do, and posting only queues the
// message on the bus, so scoring never waits for the application.
type liveMessenger struct {
	e        *vmafSink
	cStrings // percentile, state and model names
}

func newLiveMessenger(e *vmafSink) *liveMessenger { return &liveMessenger{e: e} }

func (m *liveMessenger) post(ev analytics.Event) {
	switch {
	case ev.Window != nil:
		m.postWindow(ev.Window)
	case ev.Alert != nil:
		m.postAlert(ev.Alert)
	}
}

// postWindow: type=window, first, last (gint, frame indices as frame
// messages give them), running-time-start/-end (guint64 ns, NONE when
// unknown), frames, mean, harmonic-mean, min, max, one pN per
// percentile, model (the key the score is pooled under).
func (m *liveMessenger) postWindow(w *analytics.Window) {
	s := C.vs_structure_new(cVMAF, cWindow)
	C.vs_structure_set_int(s, cFirst, C.gint(w.First))
	C.vs_structure_set_int(s, cLast, C.gint(w.Last))
	C.vs_structure_set_uint64(s, cStart, clockTime(w.Start))
	C.vs_structure_set_uint64(s, cEnd, clockTime(w.End))
	C.vs_structure_set_uint64(s, cFrames, C.guint64(w.Frames))
	C.vs_structure_set_double(s, cMean, C.gdouble(w.Mean))
	C.vs_structure_set_double(s, cHarmonicMean, C.gdouble(w.HarmonicMean))
	C.vs_structure_set_double(s, cMin, C.gdouble(w.Min))
	C.vs_structure_set_double(s, cMax, C.gdouble(w.Max))
	for _, p := range w.Percentiles {
		C.vs_structure_set_double(s, m.cname(report.PercentileKey(p.P)), C.gdouble(p.Value))
	}
	C.vs_structure_set_string(s, cModel, m.cname(w.Model))
	C.vs_post_element_message(m.e.self, s)
}

// postAlert: type=alert, state (begin or end), id, first, last, frames,
// running-time-start/-end, min, mean, threshold, model, at-eos.
func (m *liveMessenger) postAlert(a *analytics.Alert) {
	s := C.vs_structure_new(cVMAF, cAlert)
	C.vs_structure_set_string(s, cState, m.cname(a.State.String()))
	C.vs_structure_set_uint64(s, cID, C.guint64(a.ID))
	C.vs_structure_set_int(s, cFirst, C.gint(a.First))
	C.vs_structure_set_int(s, cLast, C.gint(a.Last))
	C.vs_structure_set_uint64(s, cStart, clockTime(a.Start))
	C.vs_structure_set_uint64(s, cEnd, clockTime(a.End))
	C.vs_structure_set_uint64(s, cFrames, C.guint64(a.Frames))
	C.vs_structure_set_double(s, cMin, C.gdouble(a.Min))
	C.vs_structure_set_double(s, cMean, C.gdouble(a.Mean))
	C.vs_structure_set_double(s, cThreshold, C.gdouble(a.Threshold))
	C.vs_structure_set_string(s, cModel, m.cname(a.Model))
	C.vs_structure_set_boolean(s, cAtEOS, cBool(a.AtEOS))
	C.vs_post_element_message(m.e.self, s)
}

func cBool(b bool) C.gboolean {
	if b {
		return C.TRUE
	}
	return C.FALSE
}

// startLive posts the Monitor's events as messages and hands them to the
// results file, when windows or alerts are on.
func (st *runState) startLive() {
	c := st.runner.Analytics().Config()
	if c.WindowFrames == 0 && c.WindowDuration == 0 && c.AlertThreshold == 0 {
		return
	}
	st.live = newLiveMessenger(st.e)
	post := st.e.guardEvent("analytics messages", st.live.post)
	st.unsub = append(st.unsub, st.runner.Analytics().Subscribe(post))
}

// guardEvent is guard for the Monitor's callbacks: a panic in fn is an
// element error and turns fn off, never a crash of the host.
func (e *vmafSink) guardEvent(what string, fn func(analytics.Event)) func(analytics.Event) {
	var dead atomic.Bool
	return func(ev analytics.Event) {
		if dead.Load() {
			return
		}
		defer e.recoverPanic(what, func() { dead.Store(true) })
		fn(ev)
	}
}

// pooledPercentiles adds the whole run's percentiles of each model's
// score to the pooled message, as <key>-p5, <key>-p99.9, ...
func pooledPercentiles(set func(string, float64), pcts map[string][]analytics.Percentile) {
	for key, ps := range pcts {
		for _, p := range ps {
			set(key+"-"+report.PercentileKey(p.P), p.Value)
		}
	}
}
