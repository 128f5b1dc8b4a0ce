package speed

// Solving K·X = Y for the n×n covariance K and the n×m block samples Y,
// as libvmaf does: a Householder QR decomposition built from explicit
// reflector matrices and products, then back substitution, all float32
// with the products summed in order of the inner index.

type solveWork struct {
	n                int
	avx2             bool      // multiply with mulAVX2
	q, r, qk, z, tmp []float32 // n×n
	v                []float32
	rect             []float32 // n×m: Qᵀ·Y
}

func newSolveWork(n, m int, avx2 bool) *solveWork {
	nn := n * n
	return &solveWork{n: n, avx2: avx2, q: make([]float32, nn), r: make([]float32, nn), qk: make([]float32, nn),
		z: make([]float32, nn), tmp: make([]float32, nn), v: make([]float32, n), rect: make([]float32, n*m)}
}

// mul sets dst (rows×cols) to x (rows×inner) times y (inner×cols),
// accumulating each entry over the inner index in order.
func mul(dst, x, y []float32, rows, inner, cols int) {
	mulLD(dst, x, y, rows, inner, cols, cols, inner, cols)
}

// mulLD is mul for matrices whose rows are ldd, ldx and ldy samples
// apart: blocks of larger ones.
func mulLD(dst, x, y []float32, rows, inner, cols, ldd, ldx, ldy int) {
	for i := 0; i < rows; i++ {
		d := dst[i*ldd : i*ldd+cols]
		clear(d)
		for k := 0; k < inner; k++ {
			xik := x[i*ldx+k]
			if xik == 0 {
				// Adding zero products leaves every sum as it is; the
				// reflectors and their products are largely identity.
				continue
			}
			yk := y[k*ldy : k*ldy+cols]
			for j, yv := range yk {
				d[j] += xik * yv
			}
		}
	}
}

// mul is mul, with the vector kernel when the instance may use it.
func (w *solveWork) mul(dst, x, y []float32, rows, inner, cols int) {
	w.mulLD(dst, x, y, rows, inner, cols, cols, inner, cols)
}

// mulLD is mulLD, with the vector kernel when the instance may use it.
func (w *solveWork) mulLD(dst, x, y []float32, rows, inner, cols, ldd, ldx, ldy int) {
	if w.avx2 {
		_, _, _ = dst[(rows-1)*ldd+cols-1], x[(rows-1)*ldx+inner-1], y[(inner-1)*ldy+cols-1]
		mulAVX2(&dst[0], &x[0], &y[0], rows, inner, cols, ldd, ldx, ldy)
		return
	}
	mulLD(dst, x, y, rows, inner, cols, ldd, ldx, ldy)
}

func norm32(v []float32) float32 {
	var s float32
	for _, x := range v {
		s += x * x
	}
	return sqrt32(s)
}

// decompose leaves in w.q the product of the reflectors (Qᵀ of A = Q·R)
// and in w.r the upper triangular R.
func (w *solveWork) decompose(a []float32) {
	n, z, q, qk, v, tmp := w.n, w.z, w.q, w.qk, w.v, w.tmp
	copy(z, a)
	identity(q, n)
	for k := 0; k < n-1; k++ {
		// The leading k rows and columns become the identity's.
		for i := 0; i < k; i++ {
			row := z[i*n : (i+1)*n]
			clear(row)
			row[i] = 1
		}
		for i := k; i < n; i++ {
			clear(z[i*n : i*n+k])
		}
		for i := 0; i < n; i++ {
			v[i] = z[i*n+k]
		}
		// libvmaf takes the sign from the original matrix's diagonal.
		v[k] += sign32(a[k*n+k]) * norm32(v)
		nv := norm32(v)
		for i := range v {
			v[i] /= nv
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				qk[i*n+j] = -2 * v[i] * v[j]
			}
		}
		for i := 0; i < n; i++ {
			qk[i*n+i]++
		}
		// Of Qk·Z only the block from row and column k+1 on is read
		// again (the next step resets the rest; the last step's Z is not
		// read), and Qk's entries left of column k are zeros, which
		// the product skips anyway.
		w.mulLD(tmp[(k+1)*n+k+1:], qk[(k+1)*n+k:], z[k*n+k+1:], n-k-1, n-k, n-k-1, n, n, n)
		z, tmp = tmp, z
		w.mul(tmp, qk, q, n, n, n)
		q, tmp = tmp, q
	}
	w.z, w.q, w.tmp = z, q, tmp
	w.mul(w.r, q, a, n, n, n)
}

func identity(m []float32, n int) {
	clear(m[:n*n])
	for i := 0; i < n; i++ {
		m[i*n+i] = 1
	}
}

// solve writes X (n×m) with K·X = Y, or reports false when R has a
// diagonal entry below eigenEps in magnitude (X is then partly written).
func (w *solveWork) solve(k, y, x []float32, m int) bool {
	n := w.n
	w.decompose(k)
	w.mul(w.rect, w.q, y, n, n, m)
	r, b := w.r, w.rect
	for i := n - 1; i >= 0; i-- {
		den := r[i*n+i]
		if float64(abs32(den)) < eigenEps {
			return false
		}
		// Row i of X, each entry subtracting the known ones in order of
		// kk; the entries are independent, so the loop over them is
		// innermost.
		xi := x[i*m : (i+1)*m]
		copy(xi, b[i*m:(i+1)*m])
		for kk := i + 1; kk < n; kk++ {
			c, xk := r[i*n+kk], x[kk*m:(kk+1)*m]
			for j, v := range xk {
				xi[j] -= v * c
			}
		}
		for j := range xi {
			xi[j] /= den
		}
	}
	return true
}
