package vmaf

import (
	"fmt"
	"math"
)

// The arithmetic below follows libvmaf's order of operations step by step.
// Explicit float64 conversions around products keep the compiler from
// fusing multiply-adds, which round once instead of twice and so would
// drift from libvmaf's results.

// score scores one frame: features holds the values of featureSpecs()
// in order; out receives metricNames() in order. Only a learned model
// can fail (ONNX Runtime's error, or a score that is not a number).
func (m *Model) score(features []float64, out []float64) error {
	if m.learned != nil {
		if err := m.learned.predict(features, out); err != nil {
			return fmt.Errorf("vmaf: model %s: %w", m.Name, err)
		}
		return nil
	}
	m.predict(features, out)
	return nil
}

// predict scores one frame with the SVM: features holds the values of
// featureSpecs() in order; out receives metricNames() in order. It does
// not allocate.
func (m *Model) predict(features []float64, out []float64) {
	out[0] = m.main.finish(m.main.raw(features))
	if len(m.members) == 0 {
		return
	}
	// Statistics are taken over the members' raw scores; each member's own
	// score is reported transformed and clipped as it would be alone.
	var buf [maxMembers]float64
	raw := buf[:len(m.members)]
	for i := range m.members {
		raw[i] = m.members[i].raw(features)
		out[1+i] = m.members[i].finish(raw[i])
	}
	n := float64(len(raw))
	var sum float64
	for _, s := range raw {
		sum += s
	}
	mean := sum / n
	var ssd float64
	for _, s := range raw {
		d := s - mean
		ssd += float64(d * d)
	}
	stddev := math.Sqrt(ssd / n)
	insertionSort(raw)
	lo, hi := percentile(raw, 2.5), percentile(raw, 97.5)

	// The spread is carried through the transform and clip by their slope
	// around the mean, as libvmaf does.
	const delta = 0.01
	first := &m.members[0]
	plus, minus := first.finish(mean+delta), first.finish(mean-delta)
	slope := (plus - minus) / (2.0 * delta)

	k := 1 + len(m.members)
	out[k] = first.finish(mean)
	out[k+1] = stddev * slope
	out[k+2] = first.finish(lo)
	out[k+3] = first.finish(hi)
}

// raw is the SVM's score for the features, denormalised, before the
// score transform and clip.
func (s *subModel) raw(features []float64) float64 {
	var buf [maxFeatures]float64
	x := buf[:len(s.inputs)]
	for i, j := range s.inputs {
		v := features[j]
		if s.rescale {
			v = float64(s.slopes[i]*v) + s.intercepts[i]
		}
		x[i] = v
	}
	y := s.svm.Predict(x)
	if s.rescale {
		y = (y - s.intercept) / s.slope
	}
	return y
}

// finish applies the score transform, when enabled, then the clip.
func (s *subModel) finish(y float64) float64 {
	if s.transform {
		y = s.tf.apply(y)
	}
	if s.clip {
		if y < s.clipMin {
			y = s.clipMin
		}
		if y > s.clipMax {
			y = s.clipMax
		}
	}
	return y
}

// apply maps a score through the polynomial, then the piecewise-linear
// knots, then the rectification.
func (t *transformDict) apply(in float64) float64 {
	y := in
	if t.P[0].Set || t.P[1].Set || t.P[2].Set {
		y = 0
		if t.P[0].Set {
			y += t.P[0].V
		}
		if t.P[1].Set {
			y += float64(t.P[1].V * in)
		}
		if t.P[2].Set {
			y += float64(float64(t.P[2].V*in) * in)
		}
	}
	if t.HasKnots && len(t.Knots) > 1 {
		y = piecewiseLinear(t.Knots, y)
	}
	if t.OutLTEIn && y > in {
		y = in
	}
	if t.OutGTEIn && y < in {
		y = in
	}
	return y
}

// piecewiseLinear evaluates the polyline through knots at x, extending the
// first and last segments beyond the knots. Where x lies on a knot shared
// by two segments the later segment decides, as in libvmaf.
func piecewiseLinear(knots [][2]float64, x float64) float64 {
	y := 0.0
	last := len(knots) - 2
	for i := 0; i <= last; i++ {
		x0, y0, x1, y1 := knots[i][0], knots[i][1], knots[i+1][0], knots[i+1][1]
		inside := x0 <= x && x <= x1
		below := i == 0 && x < x0
		above := i == last && x > x1
		if !inside && !below && !above {
			continue
		}
		if y0 == y1 {
			y = y0
			continue
		}
		var a, b float64
		if x0 == 0 {
			b = y0
			a = (y1 - b) / x1
		} else {
			a = (y1 - y0) / (x1 - x0)
			b = y0 - float64(x0*a)
		}
		y = float64(a*x) + b
	}
	return y
}

// checkKnots accepts knots whose x rises strictly and y never falls, the
// only ones libvmaf maps without failing part way.
func checkKnots(knots [][2]float64) error {
	for i := 1; i < len(knots); i++ {
		if !(knots[i-1][0] < knots[i][0] && knots[i-1][1] <= knots[i][1]) {
			return fmt.Errorf("knot %d (%g, %g) does not rise from knot %d (%g, %g)",
				i, knots[i][0], knots[i][1], i-1, knots[i-1][0], knots[i-1][1])
		}
	}
	return nil
}

// percentile interpolates linearly between the sorted scores around the
// perc'th percentile.
func percentile(sorted []float64, perc float64) float64 {
	p := perc * float64(len(sorted)-1) / 100
	l, r := math.Floor(p), math.Ceil(p)
	if l == r {
		return sorted[int(l)]
	}
	return float64(sorted[int(l)]*(r-p)) + float64(sorted[int(r)]*(p-l))
}

// insertionSort sorts a short slice in place without allocating.
func insertionSort(s []float64) {
	for i := 1; i < len(s); i++ {
		v := s[i]
		j := i
		for ; j > 0 && s[j-1] > v; j-- {
			s[j] = s[j-1]
		}
		s[j] = v
	}
}
