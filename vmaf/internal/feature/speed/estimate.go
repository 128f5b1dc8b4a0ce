package speed

import "math"

// estimate models e.down's 5×5 blocks as a Gaussian scale mixture and
// writes each block's entropy and variance to out. It reports false when
// the blocks' covariance cannot be inverted; the variances are then zero,
// as libvmaf makes them.
func (e *engine) estimate(out *result) bool {
	e.covariance()
	e.eigen.eigenvalues(e.cov, e.eig)

	// Y: one row per position in the block, one column per block.
	for p := 0; p < block; p++ {
		si, sj := p/blockSize, p%blockSize
		row := e.y[p*e.nb : (p+1)*e.nb]
		for bi := 0; bi < e.nbv; bi++ {
			src := e.down[(bi*blockSize+si)*e.dw+sj:]
			for bj := 0; bj < e.nbh; bj++ {
				row[bi*e.nbh+bj] = src[bj*blockSize]
			}
		}
	}
	regular := true
	for _, l := range e.eig {
		if float64(l) < eigenEps {
			regular = false
		}
	}
	ok := regular && e.solver.solve(e.cov, e.y, e.x, e.nb)
	if !ok {
		clear(e.x)
	}

	// Each block's variance is yᵀK⁻¹y / 25: the products, then the sum
	// over the block's positions in order.
	for i, x := range e.x {
		e.x[i] = (x * e.y[i]) / block
	}
	s := e.x[:e.nb]
	for p := 1; p < block; p++ {
		for j, v := range e.x[p*e.nb : (p+1)*e.nb] {
			s[j] += v
		}
	}

	// The entropy sums, per eigenvalue in order, log2(λ·s + σ²ₙ) + log2(2πe),
	// each term in double added to the float32 total.
	clear(out.entropy)
	for _, l := range e.eig {
		l = max(l, 0)
		for j, v := range s {
			out.entropy[j] = float32(float64(out.entropy[j]) + (math.Log2(float64(l*v+e.sigmaNN)) + log2TwoPiE))
		}
	}
	copy(out.variance, s)
	return ok
}

// covariance fills e.cov with the covariance between the 25 positions of
// a block, each position's samples being the span subW×subH starting at
// it.
func (e *engine) covariance() {
	n := e.subW * e.subH
	// Each position's float32 sum runs in raster order over its span;
	// the five positions of a block row read the same rows, so their
	// sums are taken side by side, five independent chains.
	var sums [block]float32
	for si := 0; si < blockSize; si++ {
		var s0, s1, s2, s3, s4 float32
		for i := 0; i < e.subH; i++ {
			row := e.down[(si+i)*e.dw : (si+i)*e.dw+e.subW+blockSize-1]
			for j := 0; j < e.subW; j++ {
				r := row[j : j+blockSize : j+blockSize]
				s0 += r[0]
				s1 += r[1]
				s2 += r[2]
				s3 += r[3]
				s4 += r[4]
			}
		}
		sums[si*blockSize], sums[si*blockSize+1], sums[si*blockSize+2] = s0, s1, s2
		sums[si*blockSize+3], sums[si*blockSize+4] = s3, s4
	}
	for p := 0; p < block; p++ {
		si, sj := p/blockSize, p%blockSize
		mean := float64(sums[p] / float32(n))
		c := e.centred[p]
		vec := 0
		if e.avx2 {
			vec = e.subW &^ 3
		}
		for i := 0; i < e.subH; i++ {
			row := c[i*e.subW : (i+1)*e.subW]
			src := e.down[(si+i)*e.dw+sj : (si+i)*e.dw+sj+e.subW]
			if vec > 0 {
				centreAVX2(&row[0], &src[0], mean, vec)
			}
			for j, v := range src[vec:] {
				row[vec+j] = float64(v) - mean
			}
		}
	}
	set := func(a, b int, s float64) {
		v := float32(s / float64(n))
		e.cov[a*block+b] = v
		e.cov[b*block+a] = v
	}
	for a := 0; a < block; a++ {
		b := 0
		if e.avx2 {
			// Four sums at a time: their chains interleave.
			var ys [4]*float64
			var sums [4]float64
			for ; b+4 <= a+1; b += 4 {
				for k := range ys {
					ys[k] = &e.centred[b+k][0]
				}
				covSum4AVX2(&e.centred[a][0], &ys, e.subW, e.subH, &sums)
				for k, s := range sums {
					set(a, b+k, s)
				}
			}
		}
		for ; b <= a; b++ {
			if e.avx2 {
				set(a, b, covSumAVX2(&e.centred[a][0], &e.centred[b][0], e.subW, e.subH))
			} else {
				set(a, b, covSum(e.centred[a], e.centred[b], e.subW, e.subH))
			}
		}
	}
}

// covSum is the sum of x·y over a w×h span, accumulated as libvmaf's AVX2
// kernel does (the golden numbers come from it): per row, runs of eight
// into two four-lane double accumulators with fused multiply-adds, a run
// of four into the first, the rest into a separate unfused sum; the lanes
// are added at the end.
func covSum(x, y []float64, w, h int) float64 {
	var a0, a1, a2, a3, b0, b1, b2, b3, tail float64
	for i := 0; i < h; i++ {
		rx := x[i*w : (i+1)*w]
		ry := y[i*w : (i+1)*w][:len(rx)]
		j := 0
		for ; j+7 < len(rx); j += 8 {
			p, q := rx[j:j+8:j+8], ry[j:j+8:j+8]
			a0 = math.FMA(p[0], q[0], a0)
			a1 = math.FMA(p[1], q[1], a1)
			a2 = math.FMA(p[2], q[2], a2)
			a3 = math.FMA(p[3], q[3], a3)
			b0 = math.FMA(p[4], q[4], b0)
			b1 = math.FMA(p[5], q[5], b1)
			b2 = math.FMA(p[6], q[6], b2)
			b3 = math.FMA(p[7], q[7], b3)
		}
		if j+3 < len(rx) {
			p, q := rx[j:j+4:j+4], ry[j:j+4:j+4]
			a0 = math.FMA(p[0], q[0], a0)
			a1 = math.FMA(p[1], q[1], a1)
			a2 = math.FMA(p[2], q[2], a2)
			a3 = math.FMA(p[3], q[3], a3)
			j += 4
		}
		for ; j < len(rx); j++ {
			tail += float64(rx[j] * ry[j])
		}
	}
	return (a0 + b0) + (a1 + b1) + (a2 + b2) + (a3 + b3) + tail
}
