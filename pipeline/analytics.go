package pipeline

import (
	"sort"
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
	m          *analytics.Monitor
	model      *vmaf.Model // the last record's first model, whose key and label these are
	key, label string
	end        time.Duration // running time just past the last record, or NoTime
}

func (r *Runner) feedMonitor(rec *Record) {
	f := &r.mon
	if m := rec.Model(); m != f.model {
		f.model, f.key, f.label = m, "", ""
		if m != nil {
			f.label = m.Label()
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
	f.m.Add(analytics.Sample{Index: rec.Index, RunningTime: rt, Model: f.key, Label: f.label, Score: rec.Score})
}

// Range returns copies of the kept records (the last Config.Recent) with
// from <= Index <= to, oldest first, at most limit of them. Only those are
// copied, so a narrow range of a long ring is cheap.
func (r *Runner) Range(from, to, limit int) []*Record { return r.pub.between(from, to, limit) }

func (p *publisher) between(from, to, limit int) []*Record {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := min(p.written, len(p.ring))
	at := func(i int) *Record { return &p.ring[(p.written-n+i)%len(p.ring)] }
	// Indices grow along the ring.
	lo := sort.Search(n, func(i int) bool { return at(i).Index >= from })
	var out []*Record
	for i := lo; i < n && len(out) < limit && at(i).Index <= to; i++ {
		out = append(out, at(i).Clone())
	}
	return out
}
