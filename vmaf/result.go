package vmaf

// Metric is one named per-frame value: a feature (libvmaf's name, such as
// integer_adm2 or psnr_y) or a model's score (the model's Name).
type Metric struct {
	Name  string
	Value float64
}

// Result is one frame's scores. A Context hands the same Result to its
// OnResult callback for every frame, so it is valid only during the call.
type Result struct {
	Index   int      // position of the pair among all submitted pairs, from 0
	Models  []*Model // the models that scored this frame
	Metrics []Metric // features first, then each model's outputs
}

// Get returns the value of the named metric.
func (r *Result) Get(name string) (float64, bool) {
	for _, m := range r.Metrics {
		if m.Name == name {
			return m.Value, true
		}
	}
	return 0, false
}

// Clone returns a copy that stays valid after the OnResult call returns.
func (r *Result) Clone() *Result {
	c := &Result{Index: r.Index}
	c.Models = append([]*Model(nil), r.Models...)
	c.Metrics = append([]Metric(nil), r.Metrics...)
	return c
}
