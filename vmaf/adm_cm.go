package vmaf

import "math"

// Contrast masking: each CSF-weighted source coefficient is reduced by the
// masking threshold around it (taken from the masker bands) and what
// remains is cubed and summed. The DLM numerator uses the restored detail
// as source and the additive impairment as masker; AIM swaps the two.

// admRowNeighbours returns the rows above and below row i of an n-row
// band as the masking filter reads them: reflected about row 0 at the top,
// repeated at the bottom (and likewise for columns).
func admRowNeighbours(i, n int) (up, dn int) {
	up, dn = i-1, i+1
	if i == 0 {
		up = min(1, n-1)
	}
	if i == n-1 {
		dn = n - 1
	}
	return up, dn
}

// admAddBoxSums adds to thr[x0:x1] the 3x3 sums of the column sums cs.
func admAddBoxSums(thr, cs []int32, w, x0, x1 int) {
	for j := x0; j < x1; j++ {
		l, r := j-1, j+1
		if j == 0 {
			l = min(1, w-1)
		}
		if j == w-1 {
			r = w - 1
		}
		thr[j] += cs[l] + cs[j] + cs[r]
	}
}

// thrRow0 fills a.thr[x0:x1] with the level-0 masking threshold of row i:
// over the three orientations, the 3x3 sum of the maskers' /30
// contributions, with the centre sample counted at /15 instead. libvmaf
// truncates that centre term to 16 bits except in the columns [v0, v1)
// its AVX-512 loop covers; the truncation only shows for maskers of
// 15360 and more (thin lines at full contrast).
func (a *adm) thrRow0(i, w, h, x0, x1, v0, v1 int) {
	up, dn := admRowNeighbours(i, h)
	c0, c1 := max(x0-1, 0), min(x1+1, w)
	cs, thr := a.colSum[:w], a.thr[:w]
	clear(cs[c0:c1])
	clear(thr[x0:x1])
	for t := range 3 {
		fu, fc := a.flt16[t][up*w:up*w+w], a.flt16[t][i*w:i*w+w]
		fd, mc := a.flt16[t][dn*w:dn*w+w], a.msk16[t][i*w:i*w+w]
		for j := c0; j < c1; j++ {
			cs[j] += int32(fu[j]) + int32(fc[j]) + int32(fd[j])
		}
		for j := x0; j < x1; j++ {
			c := (8738*admAbs32(int32(mc[j])) + 2048) >> 12
			if j < v0 || j >= v1 {
				c = int32(int16(c))
			}
			thr[j] += c - int32(fc[j])
		}
	}
	admAddBoxSums(thr, cs, w, x0, x1)
}

// Level-0 masking shifts per orientation (h, v, d): the threshold is
// brought to the source's Q format, the squares drop 29 (30) bits.
var (
	admCM0SubShift = [3]uint{10, 10, 12}
	admCM0SqShift  = [3]uint{29, 29, 30}
)

// cm0 is the level-0 masked, cube-root pooled sum of src (one of
// a.rst16/a.add16) against the masker left in a.msk16/a.flt16 by csf0.
func (a *adm) cm0(src [3][]int16, w, h int, noiseWeight float64) float32 {
	x0, x1 := admBorder(w)
	y0, y1 := admBorder(h)
	lw := admCeilLog2(w)
	// The cubes drop bits by band width so a row's sum fits in 64 bits,
	// and each row's sum drops bits by band height.
	cubSh := [3]int{lw - 4, lw - 4, lw - 3}
	rowSh := uint(admCeilLog2(h))
	rowRnd := admRoundHalf(int(rowSh))
	// libvmaf's AVX-512 loop covers the rows away from the band edge and
	// whole blocks of 14 columns, when the window is inside the band.
	v0, v1 := x0, x0
	if x0 > 0 {
		v1 = x1 - (x1-x0)%14
	}
	var acc [3]int64
	for i := y0; i < y1; i++ {
		if i == 0 || i == h-1 {
			a.thrRow0(i, w, h, x0, x1, x0, x0)
		} else {
			a.thrRow0(i, w, h, x0, x1, v0, v1)
		}
		thr := a.thr[x0:x1]
		for t := range 3 {
			if cubSh[t] < 0 {
				// Bands narrower than 9 samples: libvmaf's shift count
				// wraps to a huge value and every term vanishes.
				continue
			}
			s := src[t][i*w+x0 : i*w+x1]
			s = s[:len(thr)]
			rf, sub := admRF0[t], admCM0SubShift[t]
			sq := admCM0SqShift[t]
			sqRnd := int64(1) << (sq - 1)
			cs, cRnd := uint(cubSh[t]), admRoundHalf(cubSh[t])
			var inner int64
			for j, v := range s {
				x := admAbs32(int32(v)*rf) - thr[j]<<sub
				if x <= 0 {
					continue
				}
				x64 := int64(x)
				x2 := int64(int32((x64*x64 + sqRnd) >> sq))
				inner += (x2*x64 + cRnd) >> cs
			}
			acc[t] += (inner + rowRnd) >> rowSh
		}
	}
	// Undo the remaining fixed-point scale: 3*(6+21) bits for h and v,
	// 3*(6+23) for d, less the shifts already made.
	r := int(rowSh)
	fh := float32(float64(float32(acc[0])) / math.Ldexp(1, 52-cubSh[0]-r))
	fv := float32(float64(acc[1]) / math.Ldexp(1, 52-cubSh[1]-r))
	fd := float32(float64(acc[2]) / math.Ldexp(1, 57-cubSh[2]-r))
	return admPoolScale(fh, fv, fd, (x1-x0)*(y1-y0), noiseWeight)
}

// thrRowN is thrRow0 for levels 1 to 3, whose centre term is the Q32
// product |m|*(2^32/15) less 2^31, shifted down by 32 (libvmaf's rounding
// constant wraps to -2^31).
func (a *adm) thrRowN(i, w, h, x0, x1 int) {
	up, dn := admRowNeighbours(i, h)
	c0, c1 := max(x0-1, 0), min(x1+1, w)
	cs, thr := a.colSum[:w], a.thr[:w]
	clear(cs[c0:c1])
	clear(thr[x0:x1])
	for t := range 3 {
		fu, fc := a.flt32[t][up*w:up*w+w], a.flt32[t][i*w:i*w+w]
		fd, mc := a.flt32[t][dn*w:dn*w+w], a.msk32[t][i*w:i*w+w]
		for j := c0; j < c1; j++ {
			cs[j] += fu[j] + fc[j] + fd[j]
		}
		for j := x0; j < x1; j++ {
			thr[j] += int32((286331153*int64(admAbs32(mc[j]))-(1<<31))>>32) - fc[j]
		}
	}
	admAddBoxSums(thr, cs, w, x0, x1)
}

// admCMNShift is the Q format left in the cubed sums of levels 1 to 3
// (indexed by level-1), before the width and height shifts.
var admCMNShift = [3]int{45, 39, 36}

// cmN is cm0 for level l (1..3), against the masker left in
// a.msk32/a.flt32 by csfN.
func (a *adm) cmN(l int, src [3][]int32, w, h int, noiseWeight float64) float32 {
	x0, x1 := admBorder(w)
	y0, y1 := admBorder(h)
	cs := uint(admCeilLog2(w))
	cRnd := admRoundHalf(int(cs))
	rowSh := uint(admCeilLog2(h))
	rowRnd := admRoundHalf(int(rowSh))
	var acc [3]int64
	for i := y0; i < y1; i++ {
		a.thrRowN(i, w, h, x0, x1)
		thr := a.thr[x0:x1]
		for t := range 3 {
			s := src[t][i*w+x0 : i*w+x1]
			s = s[:len(thr)]
			rf := int64(a.csf.rf32[l][t])
			var inner int64
			for j, v := range s {
				x := admAbs32(int32((int64(v)*rf+(1<<27))>>28)) - thr[j]
				if x <= 0 {
					continue
				}
				x64 := int64(x)
				x2 := int64(int32((x64*x64 + (1 << 29)) >> 30))
				inner += (x2*x64 + cRnd) >> cs
			}
			acc[t] += (inner + rowRnd) >> rowSh
		}
	}
	// libvmaf divides in float here.
	scale := float32(math.Ldexp(1, admCMNShift[l-1]-int(cs)-int(rowSh)))
	return admPoolScale(float32(acc[0])/scale, float32(acc[1])/scale, float32(acc[2])/scale,
		(x1-x0)*(y1-y0), noiseWeight)
}
