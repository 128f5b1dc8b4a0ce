package vif

// Portable row kernels of integer VIF. The vertical passes run tap by tap
// over contiguous rows, in column blocks so that their accumulators stay
// in cache, and round straight into the padded rows; the horizontal pass
// runs column by column with every sum in a register. The windows are
// symmetric, so both passes add the two samples that share a coefficient
// before multiplying. Every term is non-negative and every total fits its
// integer type for its input depth, so no partial sum can overflow and the
// summation order is free.

// vifScalarKernels works on every architecture and is the reference the
// vector kernels are tested against.
var vifScalarKernels = vifKernels{
	name:       "scalar",
	vertical8:  vifVertical8,
	vertical16: vifVertical16,
	horizontal: vifHorizontal,
	means8:     vifMeans[uint8],
	means16:    vifMeans[uint16],
	decimate:   vifDecimateRow,
	accumulate: (*vifSums).addRow,
}

// vifVertical8 sums ref, dis, ref², dis² and ref·dis of 8-bit rows under
// the window. At 8 bits all five fit 32 bits and the moments need no
// rounding.
func vifVertical8(b *vifRowBuf, ref, dis [][]byte, taps []uint16, w int) {
	n := len(taps)
	half := n / 2
	for j0 := 0; j0 < w; j0 += vifBlock {
		cols := b.cols[vifPad+j0 : vifPad+min(j0+vifBlock, w)]
		m := len(cols)
		mu1, mu2, xx, yy, xy := b.acc[0][:m], b.acc[1][:m], b.acc[2][:m], b.acc[3][:m], b.acc[4][:m]
		c := uint32(taps[half])
		r, d := ref[half][j0:][:m], dis[half][j0:][:m]
		for j := range mu1 {
			a, b := uint32(r[j]), uint32(d[j])
			mu1[j] = c * a
			mu2[j] = c * b
			xx[j] = c * a * a
			yy[j] = c * b * b
			xy[j] = c * a * b
		}
		for k := range half {
			c := uint32(taps[k])
			r0, d0 := ref[k][j0:][:m], dis[k][j0:][:m]
			r1, d1 := ref[n-1-k][j0:][:m], dis[n-1-k][j0:][:m]
			for j := range mu1 {
				a0, b0 := uint32(r0[j]), uint32(d0[j])
				a1, b1 := uint32(r1[j]), uint32(d1[j])
				mu1[j] += c * (a0 + a1)
				mu2[j] += c * (b0 + b1)
				xx[j] += c * (a0*a0 + a1*a1)
				yy[j] += c * (b0*b0 + b1*b1)
				xy[j] += c * (a0*b0 + a1*b1)
			}
		}
		for j := range cols {
			cols[j] = vifCol{(mu1[j] + 1<<7) >> 8, (mu2[j] + 1<<7) >> 8, xx[j], yy[j], xy[j]}
		}
	}
}

// vifVertical16 is vifVertical8 for 16-bit samples, whose second moments
// need 64 bits until they are rounded.
func vifVertical16(b *vifRowBuf, ref, dis [][]uint16, taps []uint16, w int, muShift, sqShift uint) {
	n := len(taps)
	half := n / 2
	muRound, sqRound := vifRounding(muShift), uint64(vifRounding(sqShift))
	for j0 := 0; j0 < w; j0 += vifBlock {
		cols := b.cols[vifPad+j0 : vifPad+min(j0+vifBlock, w)]
		m := len(cols)
		mu1, mu2 := b.acc[0][:m], b.acc[1][:m]
		xx, yy, xy := b.deep[0][:m], b.deep[1][:m], b.deep[2][:m]
		c := uint32(taps[half])
		r, d := ref[half][j0:][:m], dis[half][j0:][:m]
		for j := range mu1 {
			a, b := uint32(r[j]), uint32(d[j])
			mu1[j] = c * a
			mu2[j] = c * b
			xx[j] = uint64(c*a) * uint64(a)
			yy[j] = uint64(c*b) * uint64(b)
			xy[j] = uint64(c*a) * uint64(b)
		}
		for k := range half {
			c := uint32(taps[k])
			c64 := uint64(c)
			r0, d0 := ref[k][j0:][:m], dis[k][j0:][:m]
			r1, d1 := ref[n-1-k][j0:][:m], dis[n-1-k][j0:][:m]
			for j := range mu1 {
				a0, b0 := uint32(r0[j]), uint32(d0[j])
				a1, b1 := uint32(r1[j]), uint32(d1[j])
				mu1[j] += c * (a0 + a1)
				mu2[j] += c * (b0 + b1)
				xx[j] += c64 * (uint64(a0*a0) + uint64(a1*a1))
				yy[j] += c64 * (uint64(b0*b0) + uint64(b1*b1))
				xy[j] += c64 * (uint64(a0*b0) + uint64(a1*b1))
			}
		}
		for j := range cols {
			cols[j] = vifCol{
				(mu1[j] + muRound) >> muShift, (mu2[j] + muRound) >> muShift,
				uint32((xx[j] + sqRound) >> sqShift), uint32((yy[j] + sqRound) >> sqShift), uint32((xy[j] + sqRound) >> sqShift),
			}
		}
	}
}

// vifRounding is what libvmaf adds before shifting right by shift bits:
// half the divisor, or nothing for no shift.
func vifRounding(shift uint) uint32 {
	if shift == 0 {
		return 0
	}
	return 1 << (shift - 1)
}

// vifMeans sums ref and dis under the window and rounds the sums by shift
// bits.
func vifMeans[T uint8 | uint16](b *vifRowBuf, ref, dis [][]T, taps []uint16, w int, shift uint) {
	n := len(taps)
	half := n / 2
	mu1 := b.mu1[vifPad : vifPad+w]
	mu2 := b.mu2[vifPad:][:w]
	c := uint32(taps[half])
	r, d := ref[half][:w], dis[half][:w]
	for j := range mu1 {
		mu1[j] = c * uint32(r[j])
		mu2[j] = c * uint32(d[j])
	}
	for k := range half {
		c := uint32(taps[k])
		r0, d0 := ref[k][:w], dis[k][:w]
		r1, d1 := ref[n-1-k][:w], dis[n-1-k][:w]
		for j := range mu1 {
			mu1[j] += c * (uint32(r0[j]) + uint32(r1[j]))
			mu2[j] += c * (uint32(d0[j]) + uint32(d1[j]))
		}
	}
	round := vifRounding(shift)
	for j := range mu1 {
		mu1[j] = (mu1[j] + round) >> shift
		mu2[j] = (mu2[j] + round) >> shift
	}
}

// vifHorizontal filters the mirrored padded rows horizontally and turns
// each column's sums into variances and covariance.
func vifHorizontal(b *vifRowBuf, taps []uint16, w int) {
	n := len(taps)
	half := n / 2
	base := vifPad - half
	s1, s2, s12 := b.sigma1Sq[:w], b.sigma2Sq[:w], b.sigma12[:w]
	s2, s12 = s2[:len(s1)], s12[:len(s1)]
	for j := range s1 {
		win := b.cols[base+j:][:n]
		c := uint32(taps[half])
		mid := &win[half]
		a1, a2 := c*mid.mu1, c*mid.mu2
		sxx, syy, sxy := uint64(c)*uint64(mid.xx), uint64(c)*uint64(mid.yy), uint64(c)*uint64(mid.xy)
		for k := range half {
			c := uint32(taps[k])
			c64 := uint64(c)
			p, q := &win[k], &win[n-1-k]
			a1 += c * (p.mu1 + q.mu1)
			a2 += c * (p.mu2 + q.mu2)
			sxx += c64 * (uint64(p.xx) + uint64(q.xx))
			syy += c64 * (uint64(p.yy) + uint64(q.yy))
			sxy += c64 * (uint64(p.xy) + uint64(q.xy))
		}
		s1[j], s2[j], s12[j] = vifSigmas(a1, a2, sxx, syy, sxy)
	}
}

// vifSigmas turns one column's filtered means and second moments into the
// variances and covariance as libvmaf rounds them. The means carry 32
// fractional bits; their products are rounded back to the 16 of the
// second moments, and the differences wrap as in 32-bit arithmetic.
func vifSigmas(a1, a2 uint32, xx, yy, xy uint64) (sigma1Sq, sigma2Sq, sigma12 int32) {
	m1, m2 := uint64(a1), uint64(a2)
	mu1Sq := uint32((m1*m1 + 1<<31) >> 32)
	mu2Sq := uint32((m2*m2 + 1<<31) >> 32)
	mu12 := uint32((m1*m2 + 1<<31) >> 32)
	fxx := uint32((xx + 1<<15) >> 16)
	fyy := uint32((yy + 1<<15) >> 16)
	fxy := uint32((xy + 1<<15) >> 16)
	return int32(fxx - mu1Sq), int32(fyy - mu2Sq), int32(fxy - mu12)
}

// vifDecimateRow filters padded rows horizontally at every other column and
// stores the rounded results as a row of the next scale.
func vifDecimateRow(dstRef, dstDis []uint16, ref, dis []uint32, taps []uint16) {
	n := len(taps)
	base := vifPad - n/2
	dstDis = dstDis[:len(dstRef)]
	for j := range dstRef {
		r, d := ref[2*j+base:][:n], dis[2*j+base:][:n]
		ar := uint32(taps[n/2]) * r[n/2]
		ad := uint32(taps[n/2]) * d[n/2]
		for k := range n / 2 {
			c := uint32(taps[k])
			ar += c * (r[k] + r[n-1-k])
			ad += c * (d[k] + d[n-1-k])
		}
		dstRef[j] = uint16((ar + 1<<15) >> 16)
		dstDis[j] = uint16((ad + 1<<15) >> 16)
	}
}
