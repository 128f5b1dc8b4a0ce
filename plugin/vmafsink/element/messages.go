package element

/*
#include <stdlib.h>
#include "gstglue.h"
*/
import "C"

import (
	"math"
	"time"
	"unsafe"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/vmaf"
)

// errorKind picks the GError domain and code of an element error.
type errorKind C.gint

const (
	errFormat   errorKind = C.VS_ERR_FORMAT   // caps the element cannot score
	errFailed   errorKind = C.VS_ERR_FAILED   // scoring failed
	errSettings errorKind = C.VS_ERR_SETTINGS // a property value is unusable
	errWrite    errorKind = C.VS_ERR_WRITE    // the results file cannot be written
)

// fail posts an element error: text for people, debug with the details.
// The message carries the Go source location that posted it.
func (e *vmafSink) fail(kind errorKind, text, debug string) {
	if e.logOn(lvlError) {
		e.logAt(lvlError, 2, nil, text+" ("+debug+")")
	}
	file, fn, line := caller(1)
	ct, cd, cf, cfn := C.CString(text), C.CString(debug), C.CString(file), C.CString(fn)
	defer freeAll(ct, cd, cf, cfn)
	C.vs_post_error(e.self, C.gint(kind), ct, cd, cf, cfn, C.gint(line))
}

// warn posts an element warning, with the Go source location.
func (e *vmafSink) warn(text, debug string) {
	if e.logOn(lvlWarning) {
		e.logAt(lvlWarning, 2, nil, text+" ("+debug+")")
	}
	file, fn, line := caller(1)
	ct, cd, cf, cfn := C.CString(text), C.CString(debug), C.CString(file), C.CString(fn)
	defer freeAll(ct, cd, cf, cfn)
	C.vs_post_warning(e.self, ct, cd, cf, cfn, C.gint(line))
}

func freeAll(ps ...*C.char) {
	for _, p := range ps {
		C.free(unsafe.Pointer(p))
	}
}

// Aliases GStreamer's vmaf element uses for the extra metrics.
var metricAliases = map[string]string{
	"psnr_y":        "psnr-y",
	"float_ssim":    "ssim",
	"float_ms_ssim": "ms-ssim",
}

// frameMessenger posts a VMAF element message per record. It runs on the
// Runner's publishing goroutine only, so its caches need no lock; field
// names are converted to C once per metric name.
type frameMessenger struct {
	e *vmafSink
	cStrings
	names  []*C.char
	values []C.gdouble
}

func newFrameMessenger(e *vmafSink) *frameMessenger { return &frameMessenger{e: e} }

var (
	cVMAF        = C.CString("VMAF")
	cFrame       = C.CString("frame")
	cPooled      = C.CString("pooled")
	cIndex       = C.CString("index")
	cScore       = C.CString("score")
	cTimestamp   = C.CString("timestamp")
	cStreamTime  = C.CString("stream-time")
	cRunningTime = C.CString("running-time")
	cDuration    = C.CString("duration")
	cModel       = C.CString("model")
	cModelName   = C.CString("model-name")
)

// post sends one frame's message: index, score, the four times (-1 as
// GST_CLOCK_TIME_NONE), the model, then every metric under its libvmaf
// name and the GStreamer vmaf element's aliases.
func (m *frameMessenger) post(r *pipeline.Record) {
	s := C.vs_structure_new(cVMAF, cFrame)
	// GStreamer's vmaf element posts the index as a gint.
	C.vs_structure_set_int(s, cIndex, C.gint(r.Index))
	C.vs_structure_set_double(s, cScore, C.gdouble(r.Score))
	C.vs_structure_set_uint64(s, cTimestamp, clockTime(r.Timing.PTS))
	C.vs_structure_set_uint64(s, cStreamTime, clockTime(r.Timing.StreamTime))
	C.vs_structure_set_uint64(s, cRunningTime, clockTime(r.Timing.RunningTime))
	C.vs_structure_set_uint64(s, cDuration, clockTime(r.Timing.Duration))
	if md := r.Model(); md != nil {
		C.vs_structure_set_string(s, cModel, m.cname(md.Version))
		C.vs_structure_set_string(s, cModelName, m.cname(md.Name))
	}
	m.names, m.values = m.names[:0], m.values[:0]
	for _, mt := range r.Metrics {
		m.names = append(m.names, m.cname(mt.Name))
		m.values = append(m.values, C.gdouble(mt.Value))
		if alias, ok := metricAliases[mt.Name]; ok {
			m.names = append(m.names, m.cname(alias))
			m.values = append(m.values, C.gdouble(mt.Value))
		}
	}
	if len(m.names) > 0 {
		C.vs_structure_set_doubles(s, C.gint(len(m.names)), &m.names[0], &m.values[0])
	}
	C.vs_post_element_message(m.e.self, s)
}

func clockTime(d time.Duration) C.guint64 {
	if d >= 0 {
		return C.guint64(d)
	}
	return C.guint64(math.MaxUint64) // GST_CLOCK_TIME_NONE
}

// postPooled sends the end-of-run summary: the frame counts, the model's
// score pooled by pool-method, and min, max, mean and harmonic mean of
// every metric as <metric>-min, <metric>-max, <metric>-mean and
// <metric>-harmonic-mean; after a model swap, each model's outputs under
// its own key (pipeline.Runner.Pooled).
//
// GStreamer's vmaf element's fields are there too: timestamp, stream-time
// and running-time of the last scored frame, duration (the frames scored
// times the last frame's duration), and psnr-y, ssim, ms-ssim pooled by
// pool-method.
//
// The engine's stream-level metrics (libvmaf's aggregate metrics, such
// as apsnr_y from psnr=enable_apsnr=true) follow under their own names.
//
// With the percentiles property, each model score's whole-run
// percentiles follow as <key>-p1, <key>-p99.9, ...
func (e *vmafSink) postPooled(st pipeline.Status, pooled []vmaf.Pooled, aggregates []vmaf.Metric, method vmaf.PoolMethod, last pipeline.Timing,
	pcts map[string][]analytics.Percentile) {
	s := C.vs_structure_new(cVMAF, cPooled)
	set := func(name string, v uint64) {
		c := C.CString(name)
		C.vs_structure_set_uint64(s, c, C.guint64(v))
		C.free(unsafe.Pointer(c))
	}
	setD := func(name string, v float64) {
		c := C.CString(name)
		C.vs_structure_set_double(s, c, C.gdouble(v))
		C.free(unsafe.Pointer(c))
	}
	setS := func(name, v string) {
		c, cv := C.CString(name), C.CString(v)
		C.vs_structure_set_string(s, c, cv)
		C.free(unsafe.Pointer(c))
		C.free(unsafe.Pointer(cv))
	}
	c := st.Counters
	set("frames-received-ref", c.Received[pipeline.Ref])
	set("frames-received-dist", c.Received[pipeline.Dist])
	set("frames-paired", c.Pairs)
	set("frames-scored", c.Scored)
	set("frames-skipped", c.Skipped)
	set("frames-dropped", c.Dropped)
	set("frames-unpaired-ref", c.Unpaired[pipeline.Ref])
	set("frames-unpaired-dist", c.Unpaired[pipeline.Dist])
	set("pending-high-ref", uint64(st.PendingHigh[pipeline.Ref]))
	set("pending-high-dist", uint64(st.PendingHigh[pipeline.Dist]))
	set("lead-releases", c.LeadReleases)
	setS("pool-method", method.String())
	set("timestamp", uint64(clockTime(last.PTS)))
	set("stream-time", uint64(clockTime(last.StreamTime)))
	set("running-time", uint64(clockTime(last.RunningTime)))
	total := pipeline.NoTime
	if last.Duration >= 0 {
		total = last.Duration * time.Duration(c.Scored)
	}
	set("duration", uint64(clockTime(total)))
	if len(st.Models) > 0 {
		m := st.Models[0]
		setS("model", m.Version)
		setS("model-name", m.Name)
		// After a swap each model is pooled under its own key.
		key := m.Name
		if len(st.ModelKeys) > 0 {
			key = st.ModelKeys[0]
		}
		for _, p := range pooled {
			if p.Name == key {
				setD("score", p.Value(method))
			}
		}
	}
	for _, p := range pooled {
		setD(p.Name+"-min", p.Min)
		setD(p.Name+"-max", p.Max)
		setD(p.Name+"-mean", p.Mean)
		setD(p.Name+"-harmonic-mean", p.HarmonicMean)
		if alias, ok := metricAliases[p.Name]; ok {
			setD(alias, p.Value(method))
		}
	}
	for _, a := range aggregates {
		setD(a.Name, a.Value)
	}
	pooledPercentiles(setD, pcts)
	C.vs_post_element_message(e.self, s)
}
