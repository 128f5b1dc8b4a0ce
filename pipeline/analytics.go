package pipeline

import (
	"time"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/vmaf"
)

// Analytics returns the Runner's monitor: windows, percentiles, alerts,
// health and the whole-run score history of the published records, as
// Config.Analytics configures it. Never nil.
func (r *Runner) Analytics() *analytics.Monitor { return r.mon.m }

// monitorFeed hands each published record's primary score to the
// Runner's analytics.Monitor. It subscribes before anything is published,
// so the monitor sees every record, and runs on the publishing goroutine.
type monitorFeed struct {
	m     *analytics.Monitor
	model *vmaf.Model // the last record's first model, whose key is key
	key   string
	end   time.Duration // running time just past the last record, or NoTime
}

func (r *Runner) feedMonitor(rec *Record) {
	f := &r.mon
	if m := rec.Model(); m != f.model {
		f.model, f.key = m, ""
		if m != nil {
			// The pool has seen the model: deliver adds a result to it
			// before publishing it.
			r.statMu.Lock()
			f.key = r.st.modelKeys([]*vmaf.Model{m})[0]
			r.statMu.Unlock()
		}
	}
	rt := rec.Timing.RunningTime
	f.end = NoTime
	if rt != NoTime && rec.Timing.Duration != NoTime {
		f.end = rt + rec.Timing.Duration
	} else if rt != NoTime {
		f.end = rt
	}
	f.m.Add(analytics.Sample{Index: rec.Index, RunningTime: rt, Model: f.key, Score: rec.Score})
}
