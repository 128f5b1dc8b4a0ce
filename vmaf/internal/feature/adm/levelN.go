package adm

import (
	"math"
	"math/bits"
)

// Levels 1 to 3 of ADM: 32-bit detail bands.

// admRestoreRatio is k = t/o in Q15, clamped to [0, 1], for a 32-bit
// reference o != 0. Denominators of 2^15 and more are first rounded to 15
// significant bits so that the reciprocal table applies, and the product
// is shifted back accordingly.
func admRestoreRatio(o, t int32) int64 {
	m := uint32(admAbs32(o))
	sh := 0
	if m >= 32768 {
		sh = 17 - bits.LeadingZeros32(m)
		m = (m + 1<<(sh-1)) >> sh
	}
	p := int64(admRecip[m]) * int64(t)
	if o < 0 {
		p = -p
	}
	k := (p + 1<<(14+sh)) >> (15 + sh)
	return min(max(k, 0), 32768)
}

// admDecoupleN is admDecouple0 for levels 1 to 3.
func admDecoupleN(r *admDecouple32Row, gain float64) {
	n := len(r.o[0])
	oh, ov, od := r.o[0][:n], r.o[1][:n], r.o[2][:n]
	th, tv, td := r.t[0][:n], r.t[1][:n], r.t[2][:n]
	rh, rv, rd := r.rst[0][:n], r.rst[1][:n], r.rst[2][:n]
	ah, av, ad := r.add[0][:n], r.add[1][:n], r.add[2][:n]
	for j := range oh {
		same := admSameDirection(int64(oh[j]), int64(ov[j]), int64(th[j]), int64(tv[j]))
		rh[j], ah[j] = admDecouple32(oh[j], th[j], same, gain)
		rv[j], av[j] = admDecouple32(ov[j], tv[j], same, gain)
		rd[j], ad[j] = admDecouple32(od[j], td[j], same, gain)
	}
	for t := range 3 {
		admCSFN(r.mR[t], r.fR[t], r.rst[t], r.rf[t])
		admCSFN(r.mA[t], r.fA[t], r.add[t], r.rf[t])
	}
}

// admDecouple32 is admDecouple16 for 32-bit coefficients.
func admDecouple32(o, t int32, same bool, gain float64) (rst, add int32) {
	k := int64(32768)
	if o != 0 {
		k = admRestoreRatio(o, t)
	}
	rst = int32((k*int64(o) + 16384) >> 15)
	if same && k > 0 && o != 0 {
		rst = int32(admEnhance(float64(rst), int64(o), int64(t), gain))
	}
	return rst, t - rst
}

// admCSFN is admCSF0 for levels 1 to 3: a Q32 factor rf, results back in
// the bands' Q format; the threshold contribution is |masker|*(2^32/30)
// less 2^31, shifted down by 32 (libvmaf's rounding constant wraps to
// -2^31).
func admCSFN(m, f, src []int32, rf int64) {
	m, f = m[:len(src)], f[:len(src)]
	for j, v := range src {
		c := int32((rf*int64(v) + (1 << 27)) >> 28)
		m[j] = c
		f[j] = int32((143165577*int64(admAbs32(c)) - (1 << 31)) >> 32)
	}
}

// Denominator rounding of levels 1 to 3, by level-1: the squares drop 31,
// 30 and 31 bits, with an offset of a whole (not half) unit as in
// libvmaf, and the sums keep 32, 27 and 23 fractional bits before the
// width and height shifts.
var (
	admDenSqShift = [3]uint{31, 30, 31}
	admDenQ       = [3]int{32, 27, 23}
)

// admCubeN is the denominator sum of one level 1 to 3 row.
func admCubeN(row []int32, sq, cs uint) uint64 {
	sqRnd := uint64(1) << sq
	cRnd := uint64(admRoundHalf(int(cs)))
	var s uint64
	for _, v := range row {
		u := uint64(uint32(admAbs32(v)))
		s += (((u*u+sqRnd)>>sq)*u + cRnd) >> cs
	}
	return s
}

// admCMNShift is the Q format left in the cubed sums of levels 1 to 3
// (indexed by level-1), before the width and height shifts.
var admCMNShift = [3]int{45, 39, 36}

// levelN transforms level l (1..3) of both pictures from the previous
// level's LL bands and pools its detail loss, one band row at a time, as
// level0 does.
func (a *adm) levelN(l int) (num, den, aim float32) {
	w, h := a.bw[l], a.bh[l]
	bx0, bx1 := admBorder(w)
	by0, by1 := admBorder(h)
	py0, py1 := admBorderPadded(h)
	area := (bx1 - bx0) * (by1 - by0)

	cs := uint(admCeilLog2(w))
	var cm admCMParams
	for t := range 3 {
		cm.rf[t], cm.sq[t], cm.cs[t] = int64(a.csf.rf32[l][t]), 30, cs
	}
	a.cmNP = cm
	rowSh := uint(admCeilLog2(h))
	rowRnd := admRoundHalf(int(rowSh))
	sq := admDenSqShift[l-1]
	rs := uint(admCeilLog2(by1 - by0))
	dcs := uint(admCeilLog2(bx1 - bx0))
	rRnd := uint64(admRoundHalf(int(rs)))

	if h == 2 {
		a.fillAbove()
	}

	var denAcc [3]uint64
	var numAcc, aimAcc [3]int64
	masked := func(r int) {
		n, m := a.cmNRow(l, r)
		for t := range 3 {
			numAcc[t] += (n[t] + rowRnd) >> rowSh
			aimAcc[t] += (m[t] + rowRnd) >> rowSh
		}
	}
	for i := range h {
		a.dwtNRow(l, i, l < admLevels-1)
		if by0 <= i && i < by1 {
			for t := range 3 {
				denAcc[t] += (a.kern.cubeN(a.ref32[t][bx0:bx1], sq, dcs) + rRnd) >> rs
			}
		}
		if py0 <= i && i < py1 {
			a.decoupleNRow(l, i)
		}
		if r := i - 1; by0 <= r && r < by1 {
			masked(r)
		}
	}
	if r := h - 1; by0 <= r && r < by1 {
		masked(r)
	}

	var csf [3]float32
	scale := math.Ldexp(1, admDenQ[l-1]-int(rs)-int(dcs))
	for t := range 3 {
		csf[t] = float32(float64(denAcc[t]) / scale * a.csf.rfCub[l][t])
	}
	den = admPoolScale(csf[0], csf[1], csf[2], area, admNoiseWeight)
	// libvmaf divides in float here.
	cmScale := float32(math.Ldexp(1, admCMNShift[l-1]-int(cs)-int(rowSh)))
	num = admPoolScale(float32(numAcc[0])/cmScale, float32(numAcc[1])/cmScale, float32(numAcc[2])/cmScale, area, admNoiseWeight)
	aim = admPoolScale(float32(aimAcc[0])/cmScale, float32(aimAcc[1])/cmScale, float32(aimAcc[2])/cmScale, area, 0)
	return num, den, aim
}

// fillAbove sets a.above to what libvmaf's transform reads as row -1 of
// a level's input when the input has 3 or 4 rows: its table of filter
// taps then has -1 for the first output row, where every other size has
// the mirrored 1 (and likewise for the first column, see dwtNHorizRow).
// Pictures of 17 to 32 rows meet this at level 3. Row -1 lies before the
// LL band in libvmaf's scratch buffer. For the reference it is the end of
// the level-0 diagonal masker made from the restored detail, left there
// by the AIM pass: band row bh0-2, two 16-bit samples to a word, low one
// first, zero outside the columns the masker was computed over (memory
// libvmaf never writes). For the distorted picture it is a row of a band
// libvmaf never writes either, zero. Those zeros are libvmaf's freshly
// allocated memory; the masker row is still in a.ring16, which levels 1
// to 3 do not touch.
func (a *adm) fillAbove() {
	ref := a.above[0]
	clear(ref)
	r := a.bh[0] - 2
	if py0, py1 := admBorderPadded(a.bh[0]); r < py0 || r >= py1 {
		return
	}
	c0, c1 := admBorderPadded(a.bw[0])
	m := a.ring16[admMR][2][r%3][1:]
	at := func(c int) int32 {
		if c < c0 || c >= c1 {
			return 0
		}
		return int32(m[c])
	}
	for j := range ref {
		ref[j] = int32(uint16(at(2*j))) | at(2*j+1)<<16
	}
}
