package vmaf

import (
	"fmt"
	"math"
)

// PoolMethod selects how per-frame values are summarised over a run.
type PoolMethod int

const (
	PoolMean PoolMethod = iota
	PoolHarmonicMean
	PoolMin
	PoolMax
)

func (m PoolMethod) String() string {
	switch m {
	case PoolMean:
		return "mean"
	case PoolHarmonicMean:
		return "harmonic_mean"
	case PoolMin:
		return "min"
	case PoolMax:
		return "max"
	}
	return fmt.Sprintf("PoolMethod(%d)", int(m))
}

// ParsePoolMethod reads "mean", "harmonic_mean" (or "harmonic-mean"),
// "min" or "max".
func ParsePoolMethod(s string) (PoolMethod, error) {
	switch s {
	case "mean":
		return PoolMean, nil
	case "harmonic_mean", "harmonic-mean":
		return PoolHarmonicMean, nil
	case "min":
		return PoolMin, nil
	case "max":
		return PoolMax, nil
	}
	return 0, fmt.Errorf("vmaf: unknown pool method %q (want mean, harmonic_mean, min or max)", s)
}

// Pooled summarises one metric over the frames added to a Pool.
type Pooled struct {
	Name         string
	Count        int
	Min, Max     float64
	Mean         float64
	HarmonicMean float64 // libvmaf's definition: n / Σ 1/(x+1) − 1, defined for scores ≥ 0
}

// Value returns the summary selected by m.
func (p Pooled) Value(m PoolMethod) float64 {
	switch m {
	case PoolHarmonicMean:
		return p.HarmonicMean
	case PoolMin:
		return p.Min
	case PoolMax:
		return p.Max
	}
	return p.Mean
}

// Pool accumulates per-frame metrics. The zero value is ready to use; it
// is not safe for concurrent use.
type Pool struct {
	index map[string]int
	acc   []accumulator
}

type accumulator struct {
	name         string
	n            int
	min, max     float64
	sum, invSum1 float64
}

// Add folds one frame's metrics into the pool. It allocates only the
// first time it meets a metric name.
func (p *Pool) Add(r *Result) {
	for _, m := range r.Metrics {
		p.add(m.Name, m.Value)
	}
}

func (p *Pool) add(name string, v float64) {
	if p.index == nil {
		p.index = make(map[string]int)
	}
	i, ok := p.index[name]
	if !ok {
		i = len(p.acc)
		p.index[name] = i
		p.acc = append(p.acc, accumulator{name: name, min: v, max: v})
	}
	a := &p.acc[i]
	a.n++
	a.sum += v
	a.invSum1 += 1 / (v + 1)
	a.min = math.Min(a.min, v)
	a.max = math.Max(a.max, v)
}

// Reset forgets every value added so far.
func (p *Pool) Reset() {
	p.index = nil
	p.acc = p.acc[:0]
}

// Summary returns every metric's summary, in the order first added.
func (p *Pool) Summary() []Pooled {
	out := make([]Pooled, len(p.acc))
	for i := range p.acc {
		out[i] = p.acc[i].pooled()
	}
	return out
}

// Get returns the summary of one metric.
func (p *Pool) Get(name string) (Pooled, bool) {
	i, ok := p.index[name]
	if !ok {
		return Pooled{}, false
	}
	return p.acc[i].pooled(), true
}

func (a *accumulator) pooled() Pooled {
	n := float64(a.n)
	return Pooled{
		Name: a.name, Count: a.n, Min: a.min, Max: a.max,
		Mean:         a.sum / n,
		HarmonicMean: n/a.invSum1 - 1,
	}
}
