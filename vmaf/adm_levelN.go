package vmaf

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

// decoupleN is decouple0 for level 1 to 3 bands.
func (a *adm) decoupleN(w, h int) {
	x0, x1 := admBorderPadded(w)
	y0, y1 := admBorderPadded(h)
	gain := a.gain
	for i := y0; i < y1; i++ {
		lo, hi := i*w+x0, i*w+x1
		oh, ov, od := a.ref32[0][lo:hi], a.ref32[1][lo:hi], a.ref32[2][lo:hi]
		th, tv, td := a.dis32[0][lo:hi], a.dis32[1][lo:hi], a.dis32[2][lo:hi]
		rh, rv, rd := a.rst32[0][lo:hi], a.rst32[1][lo:hi], a.rst32[2][lo:hi]
		ah, av, ad := a.add32[0][lo:hi], a.add32[1][lo:hi], a.add32[2][lo:hi]
		for j := range oh {
			same := admSameDirection(int64(oh[j]), int64(ov[j]), int64(th[j]), int64(tv[j]))
			rh[j], ah[j] = admDecouple32(oh[j], th[j], same, gain)
			rv[j], av[j] = admDecouple32(ov[j], tv[j], same, gain)
			rd[j], ad[j] = admDecouple32(od[j], td[j], same, gain)
		}
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

// Denominator rounding of levels 1 to 3, by level-1: the squares drop 31,
// 30 and 31 bits, with an offset of a whole (not half) unit as in
// libvmaf, and the sums keep 32, 27 and 23 fractional bits before the
// width and height shifts.
var (
	admDenSqShift = [3]uint{31, 30, 31}
	admDenQ       = [3]int{32, 27, 23}
)

// csfDenN is csfDen0 for level l (1..3).
func (a *adm) csfDenN(l, w, h int) float32 {
	x0, x1 := admBorder(w)
	y0, y1 := admBorder(h)
	sq := admDenSqShift[l-1]
	sqRnd := uint64(1) << sq
	cs := uint(admCeilLog2(x1 - x0))
	cRnd := uint64(admRoundHalf(int(cs)))
	rs := uint(admCeilLog2(y1 - y0))
	rRnd := uint64(admRoundHalf(int(rs)))
	var acc [3]uint64
	for i := y0; i < y1; i++ {
		for t := range 3 {
			row := a.ref32[t][i*w+x0 : i*w+x1]
			var s uint64
			for _, v := range row {
				u := uint64(uint32(admAbs32(v)))
				s += (((u*u+sqRnd)>>sq)*u + cRnd) >> cs
			}
			acc[t] += (s + rRnd) >> rs
		}
	}
	var csf [3]float32
	scale := math.Ldexp(1, admDenQ[l-1]-int(rs)-int(cs))
	for t := range 3 {
		csf[t] = float32(float64(acc[t]) / scale * a.csf.rfCub[l][t])
	}
	return admPoolScale(csf[0], csf[1], csf[2], (x1-x0)*(y1-y0), admNoiseWeight)
}

// csfN is csf0 for level l: Q32 factors, results back in the bands' Q
// format; the threshold contribution is |masker|*(2^32/30) less 2^31,
// shifted down by 32 (libvmaf's rounding constant wraps to -2^31).
func (a *adm) csfN(l int, src [3][]int32, w, h int) {
	x0, x1 := admBorderPadded(w)
	y0, y1 := admBorderPadded(h)
	for t := range 3 {
		rf := int64(a.csf.rf32[l][t])
		for i := y0; i < y1; i++ {
			s := src[t][i*w+x0 : i*w+x1]
			m := a.msk32[t][i*w+x0 : i*w+x1]
			f := a.flt32[t][i*w+x0 : i*w+x1]
			for j, v := range s {
				c := int32((rf*int64(v) + (1 << 27)) >> 28)
				m[j] = c
				f[j] = int32((143165577*int64(admAbs32(c)) - (1 << 31)) >> 32)
			}
		}
	}
}
