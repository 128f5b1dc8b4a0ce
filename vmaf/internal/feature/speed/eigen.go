package speed

import "math"

// The eigenvalues of the 25×25 covariance matrix, by Householder
// tridiagonalisation and implicit symmetric QR steps (the method of GSL's
// symmtd and symm, which libvmaf adapted), in float32 with libvmaf's
// operation order: the eigenvalues feed the entropies directly, so the
// same steps are needed to get the same values.

// eigenEps is libvmaf's threshold for negligible subdiagonal entries and
// for eigenvalues too small to invert; maxQRSteps bounds the iteration.
const (
	eigenEps   = 1e-6
	maxQRSteps = 500
)

// sqrt32 is a float32 square root taken in float64, as C's sqrt of a
// float is.
func sqrt32(x float32) float32 { return float32(math.Sqrt(float64(x))) }

func sign32(x float32) float32 {
	if x >= 0 {
		return 1
	}
	return -1
}

func hypot32(x, y float32) float32 { return sqrt32(x*x + y*y) }

// eigenWork is the scratch of eigenvalues for an n×n matrix.
type eigenWork struct {
	n        int
	a        []float32 // n×n copy being reduced
	d, sd, v []float32
	x        []float32
}

func newEigenWork(n int) *eigenWork {
	return &eigenWork{n: n, a: make([]float32, n*n), d: make([]float32, n), sd: make([]float32, n),
		v: make([]float32, n), x: make([]float32, n)}
}

// eigenvalues writes the eigenvalues of the symmetric n×n matrix m to out,
// in the order the QR steps leave them.
func (w *eigenWork) eigenvalues(m, out []float32) {
	n := w.n
	copy(w.a, m)
	if n == 1 {
		out[0] = w.a[0]
		return
	}
	w.tridiagonalise()
	d, sd := w.d, w.sd
	chop(d, sd)
	b, steps := n-1, 0
	for b > 0 && steps < maxQRSteps {
		if sd[b-1] == 0 {
			b--
			continue
		}
		a := b - 1
		for a > 0 && sd[a-1] != 0 {
			a--
		}
		qrStep(d[a:b+1], sd[a:b+1])
		chop(d[a:b+1], sd[a:b+1])
		steps++
	}
	copy(out, d)
}

// householder turns column col of a below row start into a reflector
// whose first entry is 1 (implicit; the entry keeps beta) and returns its
// tau, or 0 when the column is already zero below start.
func householder(a []float32, n, col, start int) float32 {
	if n-start == 1 {
		return 0
	}
	var norm float32
	for i := start + 1; i < n; i++ {
		norm += a[i*n+col] * a[i*n+col]
	}
	xnorm := sqrt32(norm)
	if xnorm == 0 {
		return 0
	}
	alpha := a[start*n+col]
	beta := -sign32(alpha) * hypot32(alpha, xnorm)
	tau := (beta - alpha) / beta
	if s := alpha - beta; s != 0 {
		for i := start; i < n; i++ {
			a[i*n+col] /= s
		}
		a[start*n+col] = beta
	}
	return tau
}

// tridiagonalise reduces w.a to tridiagonal form, leaving its diagonal in
// w.d and its subdiagonal in w.sd.
func (w *eigenWork) tridiagonalise() {
	n, a, v, x := w.n, w.a, w.v, w.x
	for i := 0; i < n-2; i++ {
		tau := householder(a, n, i, i+1)
		for j := i + 1; j < n; j++ {
			v[j] = a[j*n+i]
		}
		if tau == 0 {
			continue
		}
		v[i+1] = 1
		lo := i + 1
		// x = tau·A·v
		for r := lo; r < n; r++ {
			var s float32
			for c := lo; c < n; c++ {
				s += tau * a[r*n+c] * v[c]
			}
			x[r] = s
		}
		// x -= ½·tau·(x·v)·v; libvmaf forms the factor in double.
		var xv float32
		for r := lo; r < n; r++ {
			xv += x[r] * v[r]
		}
		alpha := float32(-0.5 * float64(tau) * float64(xv))
		for r := lo; r < n; r++ {
			x[r] += alpha * v[r]
		}
		// A -= x·vᵀ + v·xᵀ
		for r := lo; r < n; r++ {
			for c := lo; c < n; c++ {
				a[r*n+c] -= x[r]*v[c] + v[r]*x[c]
			}
		}
	}
	for i := 0; i < n; i++ {
		w.d[i] = a[i*n+i]
	}
	for i := 0; i < n-1; i++ {
		w.sd[i] = a[(i+1)*n+i]
	}
}

// chop zeroes the subdiagonal entries negligible beside their diagonal
// neighbours (the comparison in double, as in libvmaf).
func chop(d, sd []float32) {
	for i := 0; i < len(d)-1; i++ {
		if float64(abs32(sd[i])) < eigenEps*float64(abs32(d[i])+abs32(d[i+1])) {
			sd[i] = 0
		}
	}
}

// trailingEigenvalue is Wilkinson's shift from the trailing 2×2 block.
func trailingEigenvalue(d, sd []float32) float32 {
	n := len(d)
	ta, tb, tab := d[n-2], d[n-1], sd[n-2]
	dt := float32(float64(ta-tb) / 2.0)
	switch {
	case dt > 0:
		return tb - tab*(tab/(dt+hypot32(dt, tab)))
	case dt == 0:
		return tb - abs32(tab)
	}
	return tb + tab*(tab/(-dt+hypot32(dt, tab)))
}

// givens is the rotation (c, s) zeroing b against a; the reciprocal
// square root is taken in double, as in libvmaf.
func givens(a, b float32) (c, s float32) {
	switch {
	case b == 0:
		return 1, 0
	case abs32(b) > abs32(a):
		t := -a / b
		s1 := float32(1.0 / math.Sqrt(float64(1+t*t)))
		return s1 * t, s1
	}
	t := -b / a
	c1 := float32(1.0 / math.Sqrt(float64(1+t*t)))
	return c1, c1 * t
}

// qrStep applies one implicit shifted QR step to the unreduced
// tridiagonal block (d, sd), len(d) >= 2.
func qrStep(d, sd []float32) {
	n := len(d)
	mu := trailingEigenvalue(d, sd)
	if eigenEps*float64(abs32(mu)) > float64(abs32(d[0])+abs32(sd[0])) {
		mu = 0
	}
	x, z := d[0]-mu, sd[0]
	var bk, zk float32
	ap, bp, aq := d[0], sd[0], d[1]
	if n == 2 {
		c, s := givens(x, z)
		ap1 := c*(c*ap-s*bp) + s*(s*aq-c*bp)
		bp1 := c*(s*ap+c*bp) - s*(s*bp+c*aq)
		aq1 := s*(s*ap+c*bp) + c*(s*bp+c*aq)
		d[0], sd[0], d[1] = ap1, bp1, aq1
		return
	}
	bq := sd[1]
	for k := 0; k < n-1; k++ {
		c, s := givens(x, z)
		bk1 := c*bk - s*zk
		ap1 := c*(c*ap-s*bp) + s*(s*aq-c*bp)
		bp1 := c*(s*ap+c*bp) - s*(s*bp+c*aq)
		zp1 := -s * bq
		aq1 := s*(s*ap+c*bp) + c*(s*bp+c*aq)
		bq1 := c * bq
		bk, zk = bp1, zp1
		ap, bp = aq1, bq1
		if k < n-2 {
			aq = d[k+2]
		}
		if k < n-3 {
			bq = sd[k+2]
		}
		d[k] = ap1
		if k > 0 {
			sd[k-1] = bk1
		}
		if k < n-2 {
			sd[k+1] = bp
		}
		x, z = bk, zk
	}
	d[n-1] = ap
	sd[n-2] = bk
}
