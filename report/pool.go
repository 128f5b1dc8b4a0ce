package report

import "github.com/vmafsink/vmafsink/analytics"

// stat pools one metric over the frames that carried it, with libvmaf's
// arithmetic: sums accumulated in frame order, harmonic mean as
// n / Σ 1/(x+1) − 1.
type stat struct {
	name      string
	n         int
	min, max  float64
	sum, isum float64
	// hist holds a model score's values for Options.Percentiles; nil
	// for the other metrics.
	hist *analytics.Histogram
}

func (s *stat) add(x float64) {
	if s.n == 0 || x < s.min {
		s.min = x
	}
	if s.n == 0 || x > s.max {
		s.max = x
	}
	s.n++
	s.sum += x
	s.isum += 1 / (x + 1)
}

func (s *stat) mean() float64         { return s.sum / float64(s.n) }
func (s *stat) harmonicMean() float64 { return float64(s.n)/s.isum - 1 }

// pooler keeps one stat per metric name in first-seen order, which is the
// order libvmaf lists pooled metrics in.
type pooler struct {
	index map[string]int
	stats []stat
}

func (p *pooler) add(m Metric) {
	i, ok := p.index[m.Name]
	if !ok {
		if p.index == nil {
			p.index = make(map[string]int)
		}
		i = len(p.stats)
		p.index[m.Name] = i
		p.stats = append(p.stats, stat{name: outputName(m.Name)})
	}
	p.stats[i].add(m.Value)
}
