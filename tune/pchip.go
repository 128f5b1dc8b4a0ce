package tune

import "math"

// pchip is a piecewise cubic Hermite interpolant whose slopes keep the
// data's shape (Fritsch and Carlson's, as SciPy's PchipInterpolator
// chooses them): between two knots the curve is monotone when the data
// are, and it never overshoots a local extremum.
type pchip struct {
	x []float64
	// c holds each interval's coefficients, highest power first: the
	// value at x in interval i is c[i][0]s³ + c[i][1]s² + c[i][2]s + c[i][3]
	// with s = x − x[i].
	c [][4]float64
}

// newPCHIP fits the interpolant through (x[i], y[i]); x must be strictly
// increasing and hold at least two knots.
func newPCHIP(x, y []float64) *pchip {
	n := len(x)
	h := make([]float64, n-1)
	m := make([]float64, n-1)
	for i := range h {
		h[i] = x[i+1] - x[i]
		m[i] = (y[i+1] - y[i]) / h[i]
	}
	d := make([]float64, n)
	if n == 2 {
		d[0], d[1] = m[0], m[0]
	} else {
		for k := 1; k < n-1; k++ {
			if sign(m[k]) != sign(m[k-1]) || m[k] == 0 || m[k-1] == 0 {
				continue // a local extremum or a flat step: a level tangent
			}
			// The weighted harmonic mean of the neighbouring slopes.
			w1 := 2*h[k] + h[k-1]
			w2 := h[k] + 2*h[k-1]
			d[k] = 1 / ((w1/m[k-1] + w2/m[k]) / (w1 + w2))
		}
		d[0] = pchipEnd(h[0], h[1], m[0], m[1])
		d[n-1] = pchipEnd(h[n-2], h[n-3], m[n-2], m[n-3])
	}
	p := &pchip{x: x, c: make([][4]float64, n-1)}
	for i := range p.c {
		t := (d[i] + d[i+1] - 2*m[i]) / h[i]
		p.c[i] = [4]float64{t / h[i], (m[i]-d[i])/h[i] - t, d[i], y[i]}
	}
	return p
}

// pchipEnd is the slope at an end knot: a three-point estimate, made
// level when its sign disagrees with the end interval's and limited to
// three times that interval's slope when the data turn.
func pchipEnd(h0, h1, m0, m1 float64) float64 {
	d := ((2*h0+h1)*m0 - h0*m1) / (h0 + h1)
	switch {
	case sign(d) != sign(m0):
		return 0
	case sign(m0) != sign(m1) && math.Abs(d) > 3*math.Abs(m0):
		return 3 * m0
	}
	return d
}

// at evaluates the interpolant; outside the knots it extends the end
// intervals' cubics.
func (p *pchip) at(v float64) float64 {
	i := intervalOf(p.x, v)
	s := v - p.x[i]
	c := &p.c[i]
	// Summed from the constant term up, as SciPy's PPoly evaluates.
	res, z := 0.0, 1.0
	for k := 3; k >= 0; k-- {
		res += c[k] * z
		if k > 0 {
			z *= s
		}
	}
	return res
}

// intervalOf is the interval i with x[i] ≤ v < x[i+1], the last interval
// for v at or beyond the last knot and the first below the first knot.
func intervalOf(x []float64, v float64) int {
	lo, hi := 0, len(x)-2
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if x[mid] <= v {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

func sign(v float64) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
