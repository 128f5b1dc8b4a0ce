package tune

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// RDPoint is one encode on a rate-quality curve: its bitrate (any unit,
// the same for both curves) and its quality score.
type RDPoint struct {
	Rate   float64 `json:"bitrate"`
	Metric float64 `json:"vmaf"`
}

// The reasons BDRate refuses a pair of curves.
var (
	ErrNotEnoughPoints = errors.New("bd-rate: each curve needs at least 4 points")
	ErrNonMonotonic    = errors.New("bd-rate: a curve is not monotonic (rate and score must both rise, point after point, once sorted by score)")
	ErrZeroRate        = errors.New("bd-rate: a curve has a point with zero rate")
	ErrNoOverlap       = errors.New("bd-rate: the curves' score ranges do not overlap")
)

// BDOptions are calculate_bd_rate's options. A zero MinMetric or
// MaxMetric sets no bound, as there.
type BDOptions struct {
	MinMetric, MaxMetric float64
	// ConvexHull computes on each curve's hull (ConvexHull) instead of
	// its points.
	ConvexHull bool
	// AtPerc, when set, compares the rates at one score instead of
	// averaging: that percentage (0 to 100) of the way across the
	// curves' common score range.
	AtPerc *float64
}

// bdSamples is how many evenly spaced scores the rates are interpolated
// at before integrating.
const bdSamples = 100

// infScore stands for an infinite score (PSNR of identical pictures).
const infScore = 100.0

// BDRate is the Bjøntegaard delta rate of curve b against curve a: the
// mean relative change in rate at equal score over the scores both
// curves cover, as a fraction (−0.1: b needs 10 % less rate). Log rate is
// interpolated over score with PCHIP at 100 evenly spaced scores and
// integrated by the trapezoid rule, as Netflix's calculate_bd_rate does.
func BDRate(a, b []RDPoint, opt BDOptions) (float64, error) {
	if len(a) == 0 || len(b) == 0 {
		return 0, fmt.Errorf("%w: a curve is empty", ErrNotEnoughPoints)
	}
	if opt.ConvexHull {
		a, b = ConvexHull(a), ConvexHull(b)
	}
	if opt.AtPerc != nil && (*opt.AtPerc < 0 || *opt.AtPerc > 100 || math.IsNaN(*opt.AtPerc)) {
		return 0, fmt.Errorf("bd-rate: --at-perc must be between 0 and 100, got %g", *opt.AtPerc)
	}
	a, b = sortedByMetric(a), sortedByMetric(b)
	if len(a) < 4 || len(b) < 4 {
		return 0, fmt.Errorf("%w (got %d and %d)", ErrNotEnoughPoints, len(a), len(b))
	}
	if !monotonic(a) || !monotonic(b) {
		return 0, ErrNonMonotonic
	}
	if !nonzeroRates(a) || !nonzeroRates(b) {
		return 0, ErrZeroRate
	}
	xa, ya := logRateCurve(a)
	xb, yb := logRateCurve(b)
	lo := math.Max(minOf(xa), minOf(xb))
	if opt.MinMetric != 0 {
		lo = math.Max(lo, opt.MinMetric)
	}
	hi := math.Min(maxOf(xa), maxOf(xb))
	if opt.MaxMetric != 0 {
		hi = math.Min(hi, opt.MaxMetric)
	}
	if !(hi > lo) {
		return 0, fmt.Errorf("%w (common range [%g, %g])", ErrNoOverlap, lo, hi)
	}
	pa, pb := newPCHIP(xa, ya), newPCHIP(xb, yb)
	if opt.AtPerc != nil {
		at := lo + (hi-lo)**opt.AtPerc/100
		return math.Exp(pb.at(at)-pa.at(at)) - 1, nil
	}
	step := (hi - lo) / (bdSamples - 1)
	va := make([]float64, bdSamples)
	vb := make([]float64, bdSamples)
	for i := range va {
		s := float64(i)*step + lo
		if i == bdSamples-1 {
			s = hi
		}
		va[i], vb[i] = pa.at(s), pb.at(s)
	}
	avg := (trapezoid(vb, step) - trapezoid(va, step)) / (hi - lo)
	return math.Exp(avg) - 1, nil
}

func sortedByMetric(p []RDPoint) []RDPoint {
	s := append([]RDPoint(nil), p...)
	sort.SliceStable(s, func(i, j int) bool { return s[i].Metric < s[j].Metric })
	return s
}

func monotonic(p []RDPoint) bool {
	for i := 1; i < len(p); i++ {
		if !(p[i-1].Rate < p[i].Rate && p[i-1].Metric < p[i].Metric) {
			return false
		}
	}
	return true
}

func nonzeroRates(p []RDPoint) bool {
	for _, q := range p {
		if q.Rate == 0 {
			return false
		}
	}
	return true
}

// logRateCurve splits the points into scores (an infinite one replaced
// by infScore) and natural logs of rate.
func logRateCurve(p []RDPoint) (metric, logRate []float64) {
	metric = make([]float64, len(p))
	logRate = make([]float64, len(p))
	for i, q := range p {
		metric[i] = q.Metric
		if math.IsInf(q.Metric, 1) {
			metric[i] = infScore
		}
		logRate[i] = math.Log(q.Rate)
	}
	return metric, logRate
}

func minOf(v []float64) float64 {
	m := v[0]
	for _, x := range v[1:] {
		m = math.Min(m, x)
	}
	return m
}

func maxOf(v []float64) float64 {
	m := v[0]
	for _, x := range v[1:] {
		m = math.Max(m, x)
	}
	return m
}

// trapezoid integrates evenly spaced samples. The interval areas are
// summed as NumPy's add.reduce sums them (the first, then the rest
// pairwise in eight lanes), so the result is NumPy's to the last bit.
func trapezoid(v []float64, dx float64) float64 {
	areas := make([]float64, len(v)-1)
	for i := range areas {
		areas[i] = dx * (v[i+1] + v[i]) / 2
	}
	if len(areas) == 0 {
		return 0
	}
	return areas[0] + pairwiseSum(areas[1:])
}

// pairwiseSum is NumPy's pairwise summation.
func pairwiseSum(a []float64) float64 {
	n := len(a)
	switch {
	case n < 8:
		s := 0.0
		for _, x := range a {
			s += x
		}
		return s
	case n <= 128:
		var r [8]float64
		copy(r[:], a[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for j := range r {
				r[j] += a[i+j]
			}
		}
		s := (r[0] + r[1]) + (r[2] + r[3]) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			s += a[i]
		}
		return s
	}
	half := n / 2
	half -= half % 8
	return pairwiseSum(a[:half]) + pairwiseSum(a[half:])
}

// ConvexHull keeps the points of a rate-quality curve that no mix of two
// others beats, as calculate_bd_rate's use_convex_hull does: duplicates
// dropped, points sorted by rate, any point scoring below a cheaper one
// dropped, then the hull built from the highest rate down with collinear
// points left out. The result runs from the highest rate down.
func ConvexHull(points []RDPoint) []RDPoint {
	seen := make(map[RDPoint]bool, len(points))
	var ps []RDPoint
	for _, p := range points {
		if !seen[p] {
			seen[p] = true
			ps = append(ps, p)
		}
	}
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].Rate != ps[j].Rate {
			return ps[i].Rate < ps[j].Rate
		}
		return ps[i].Metric < ps[j].Metric
	})
	var mono []RDPoint
	for _, p := range ps {
		if len(mono) == 0 || p.Metric >= mono[len(mono)-1].Metric {
			mono = append(mono, p)
		}
	}
	if len(mono) < 2 {
		return mono
	}
	var hull []RDPoint
	for i := len(mono) - 1; i >= 0; i-- {
		p := mono[i]
		for len(hull) >= 2 && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	return hull
}

// cross is the z component of OA × OB: positive for a counter-clockwise
// turn O→A→B.
func cross(o, a, b RDPoint) float64 {
	return (a.Rate-o.Rate)*(b.Metric-o.Metric) - (a.Metric-o.Metric)*(b.Rate-o.Rate)
}
