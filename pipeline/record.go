package pipeline

import "github.com/vmafsink/vmafsink/vmaf"

// Record is one scored frame as the Runner publishes it.
type Record struct {
	// Index counts every pair the Runner formed from 0, including pairs
	// skipped while paused or dropped under back-pressure, so gaps show
	// where frames were not scored.
	Index int
	// Timing is the distorted frame's (the reference frame's when the
	// distorted one has none).
	Timing Timing
	// Models scored the frame; Models[0]'s score is Score.
	Models []*vmaf.Model
	Score  float64
	// Metrics holds the features, the extra metrics and every model's
	// outputs, under libvmaf's names.
	Metrics []vmaf.Metric
}

// Model returns the model whose score is Score.
func (r *Record) Model() *vmaf.Model {
	if len(r.Models) == 0 {
		return nil
	}
	return r.Models[0]
}

// Get returns the named metric's value.
func (r *Record) Get(name string) (float64, bool) {
	for _, m := range r.Metrics {
		if m.Name == name {
			return m.Value, true
		}
	}
	return 0, false
}

// Clone returns a copy that does not share the Runner's memory.
func (r *Record) Clone() *Record {
	c := *r
	c.Models = append([]*vmaf.Model(nil), r.Models...)
	c.Metrics = append([]vmaf.Metric(nil), r.Metrics...)
	return &c
}

// fill copies a Result into r, reusing r's slices.
func (r *Record) fill(index int, t Timing, res *vmaf.Result) {
	r.Index = index
	r.Timing = t
	r.Models = append(r.Models[:0], res.Models...)
	r.Metrics = append(r.Metrics[:0], res.Metrics...)
	r.Score = 0
	if m := r.Model(); m != nil {
		r.Score, _ = res.Get(m.Name)
	}
}
