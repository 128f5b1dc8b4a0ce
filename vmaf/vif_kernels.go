package vmaf

// Row kernels of integer VIF. Each output row is filtered vertically into
// full-width sums, the sums are rounded to libvmaf's fixed-point scale and
// mirrored at both ends, and the horizontal pass then runs tap by tap over
// contiguous rows. The windows are symmetric, so both passes add the two
// samples that share a coefficient before multiplying. Every term is
// non-negative and every total fits its integer type for its input depth,
// so no partial sum can overflow and the summation order is free.

// vifVerticalStats8 sums ref, dis, ref², dis² and ref·dis of 8-bit rows
// under the window, one row per tap. At 8 bits all five fit 32 bits.
func vifVerticalStats8(ref, dis [][]byte, taps []uint16, mu1, mu2, xx, yy, xy []uint32) {
	w := len(mu1)
	mu2, xx, yy, xy = mu2[:w], xx[:w], yy[:w], xy[:w]
	n := len(taps)
	c := uint32(taps[n/2])
	r, d := ref[n/2][:w], dis[n/2][:w]
	for j := range w {
		a, b := uint32(r[j]), uint32(d[j])
		mu1[j] = c * a
		mu2[j] = c * b
		xx[j] = c * a * a
		yy[j] = c * b * b
		xy[j] = c * a * b
	}
	for k := range n / 2 {
		c := uint32(taps[k])
		r0, d0 := ref[k][:w], dis[k][:w]
		r1, d1 := ref[n-1-k][:w], dis[n-1-k][:w]
		for j := range w {
			a0, b0 := uint32(r0[j]), uint32(d0[j])
			a1, b1 := uint32(r1[j]), uint32(d1[j])
			mu1[j] += c * (a0 + a1)
			mu2[j] += c * (b0 + b1)
			xx[j] += c * (a0*a0 + a1*a1)
			yy[j] += c * (b0*b0 + b1*b1)
			xy[j] += c * (a0*b0 + a1*b1)
		}
	}
}

// vifVerticalStats16 is vifVerticalStats8 for 16-bit samples, whose
// second moments need 64 bits.
func vifVerticalStats16(ref, dis [][]uint16, taps []uint16, mu1, mu2 []uint32, xx, yy, xy []uint64) {
	w := len(mu1)
	mu2, xx, yy, xy = mu2[:w], xx[:w], yy[:w], xy[:w]
	n := len(taps)
	c := uint32(taps[n/2])
	r, d := ref[n/2][:w], dis[n/2][:w]
	for j := range w {
		a, b := uint32(r[j]), uint32(d[j])
		mu1[j] = c * a
		mu2[j] = c * b
		xx[j] = uint64(c*a) * uint64(a)
		yy[j] = uint64(c*b) * uint64(b)
		xy[j] = uint64(c*a) * uint64(b)
	}
	for k := range n / 2 {
		c := uint32(taps[k])
		c64 := uint64(c)
		r0, d0 := ref[k][:w], dis[k][:w]
		r1, d1 := ref[n-1-k][:w], dis[n-1-k][:w]
		for j := range w {
			a0, b0 := uint32(r0[j]), uint32(d0[j])
			a1, b1 := uint32(r1[j]), uint32(d1[j])
			mu1[j] += c * (a0 + a1)
			mu2[j] += c * (b0 + b1)
			xx[j] += c64 * (uint64(a0*a0) + uint64(a1*a1))
			yy[j] += c64 * (uint64(b0*b0) + uint64(b1*b1))
			xy[j] += c64 * (uint64(a0*b0) + uint64(a1*b1))
		}
	}
}

// vifVerticalMeans sums ref and dis under the window, one row per tap.
func vifVerticalMeans[T uint8 | uint16](ref, dis [][]T, taps []uint16, mu1, mu2 []uint32) {
	w := len(mu1)
	mu2 = mu2[:w]
	n := len(taps)
	c := uint32(taps[n/2])
	r, d := ref[n/2][:w], dis[n/2][:w]
	for j := range w {
		mu1[j] = c * uint32(r[j])
		mu2[j] = c * uint32(d[j])
	}
	for k := range n / 2 {
		c := uint32(taps[k])
		r0, d0 := ref[k][:w], dis[k][:w]
		r1, d1 := ref[n-1-k][:w], dis[n-1-k][:w]
		for j := range w {
			mu1[j] += c * (uint32(r0[j]) + uint32(r1[j]))
			mu2[j] += c * (uint32(d0[j]) + uint32(d1[j]))
		}
	}
}

// vifRound32 and vifRound64 round sums right by shift bits (none when
// shift is 0) into the middle of a padded row, then mirror half samples
// beyond each end.
func vifRound32(dst, src []uint32, shift uint, half int) {
	w := len(src)
	var round uint32
	if shift > 0 {
		round = 1 << (shift - 1)
	}
	row := dst[vifPad : vifPad+w]
	for j, s := range src {
		row[j] = (s + round) >> shift
	}
	vifMirrorEnds(dst, w, half)
}

func vifRound64(dst []uint32, src []uint64, shift uint, half int) {
	w := len(src)
	var round uint64
	if shift > 0 {
		round = 1 << (shift - 1)
	}
	row := dst[vifPad : vifPad+w]
	for j, s := range src {
		row[j] = uint32((s + round) >> shift)
	}
	vifMirrorEnds(dst, w, half)
}

// vifMirrorEnds reflects the w samples starting at dst[vifPad] into the
// half samples before and after them, not repeating the edge samples.
func vifMirrorEnds(dst []uint32, w, half int) {
	for f := 1; f <= half; f++ {
		dst[vifPad-f] = dst[vifPad+f]
		dst[vifPad+w-1+f] = dst[vifPad+w-1-f]
	}
}

// vifHorizontalMean sums a padded row under the window for every column.
func vifHorizontalMean(dst, src []uint32, taps []uint16) {
	w := len(dst)
	n := len(taps)
	base := vifPad - n/2
	c := uint32(taps[n/2])
	mid := src[vifPad : vifPad+w]
	for j := range w {
		dst[j] = c * mid[j]
	}
	for k := range n / 2 {
		c := uint32(taps[k])
		s0 := src[base+k : base+k+w]
		s1 := src[base+n-1-k : base+n-1-k+w]
		for j := range w {
			dst[j] += c * (s0[j] + s1[j])
		}
	}
}

// vifHorizontalMoment is vifHorizontalMean for second moments, whose sums
// need 64 bits.
func vifHorizontalMoment(dst []uint64, src []uint32, taps []uint16) {
	w := len(dst)
	n := len(taps)
	base := vifPad - n/2
	c := uint64(taps[n/2])
	mid := src[vifPad : vifPad+w]
	for j := range w {
		dst[j] = c * uint64(mid[j])
	}
	for k := range n / 2 {
		c := uint64(taps[k])
		s0 := src[base+k : base+k+w]
		s1 := src[base+n-1-k : base+n-1-k+w]
		for j := range w {
			dst[j] += c * (uint64(s0[j]) + uint64(s1[j]))
		}
	}
}

// vifAccumulateRow turns one row of filtered sums into local variances and
// covariance and adds every pixel's contribution to sums.
func vifAccumulateRow(mu1, mu2 []uint32, xx, yy, xy []uint64, gainLimit float64, lg *vifLog2Table, sums *vifSums) {
	w := len(mu1)
	mu2, xx, yy, xy = mu2[:w], xx[:w], yy[:w], xy[:w]
	for j := range w {
		a1, a2 := uint64(mu1[j]), uint64(mu2[j])
		// The means carry 32 fractional bits here; their products are
		// rounded back to the 16 of the second moments.
		mu1Sq := uint32((a1*a1 + 1<<31) >> 32)
		mu2Sq := uint32((a2*a2 + 1<<31) >> 32)
		mu12 := uint32((a1*a2 + 1<<31) >> 32)
		fxx := uint32((xx[j] + 1<<15) >> 16)
		fyy := uint32((yy[j] + 1<<15) >> 16)
		fxy := uint32((xy[j] + 1<<15) >> 16)
		// The differences wrap as in libvmaf's 32-bit arithmetic.
		sums.add(int32(fxx-mu1Sq), int32(fyy-mu2Sq), int32(fxy-mu12), gainLimit, lg)
	}
}

// vifDecimateRow filters padded rows horizontally at every other column and
// stores the rounded results as a row of the next scale.
func vifDecimateRow(dstRef, dstDis []uint16, ref, dis []uint32, taps []uint16) {
	n := len(taps)
	base := vifPad - n/2
	dstDis = dstDis[:len(dstRef)]
	for j := range dstRef {
		r, d := ref[2*j+base:2*j+base+n], dis[2*j+base:2*j+base+n]
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
