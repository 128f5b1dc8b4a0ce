package adm

import (
	"math"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// Level 0 of ADM: 16-bit detail bands carrying 6 more fractional bits than
// the samples.

// admRecip[i] is 2^30/i, libvmaf's reciprocal table for the decoupling
// division. Read-only after initialisation.
var admRecip = func() (t [32769]int32) {
	for i := 1; i < len(t); i++ {
		t[i] = (1 << 30) / int32(i)
	}
	return t
}()

// admCos1Sq is cos²(1°) rounded to float, as libvmaf computes it.
var admCos1Sq = func() float32 {
	deg := math.Pi // a variable, so the division below rounds as in C
	c := math.Cos(1.0 * deg / 180.0)
	return float32(c * c)
}()

// admSameDirection reports whether the distorted gradient (th, tv) lies
// within 1° of the reference one (oh, ov), tested on squares as libvmaf
// does, after rounding the products to float.
func admSameDirection(oh, ov, th, tv int64) bool {
	dot := float64(float32(oh*th+ov*tv)) / 4096.0
	if !(dot >= 0) {
		return false
	}
	om := float64(float32(oh*oh+ov*ov)) / 4096.0
	tm := float64(float32(th*th+tv*tv)) / 4096.0
	return dot*dot >= float64(admCos1Sq)*om*tm
}

// admEnhance applies the enhancement gain limit to a restored coefficient
// rst of reference o and distorted t: when the directions agree, the
// restored part may exceed the reference by up to gain, but never pass t.
func admEnhance(rst float64, o, t int64, gain float64) float64 {
	g := rst * gain
	if o > 0 {
		return min(g, float64(t))
	}
	return max(g, float64(t))
}

// admDecouple0 splits each distorted coefficient of a level-0 row into the
// part explained by the reference scaled by k = clamp(t/o, 0, 1)
// (restored) and the rest (additive), and weights both by the CSF.
func admDecouple0(r *admDecouple16Row, gain float64) {
	n := len(r.o[0])
	oh, ov, od := r.o[0][:n], r.o[1][:n], r.o[2][:n]
	th, tv, td := r.t[0][:n], r.t[1][:n], r.t[2][:n]
	rh, rv, rd := r.rst[0][:n], r.rst[1][:n], r.rst[2][:n]
	ah, av, ad := r.add[0][:n], r.add[1][:n], r.add[2][:n]
	for j := range oh {
		same := admSameDirection(int64(oh[j]), int64(ov[j]), int64(th[j]), int64(tv[j]))
		rh[j], ah[j] = admDecouple16(oh[j], th[j], same, gain)
		rv[j], av[j] = admDecouple16(ov[j], tv[j], same, gain)
		rd[j], ad[j] = admDecouple16(od[j], td[j], same, gain)
	}
	for t := range 3 {
		admCSF0(r.mR[t], r.fR[t], r.rst[t], t)
		admCSF0(r.mA[t], r.fA[t], r.add[t], t)
	}
}

// admDecouple16 splits one level-0 distorted coefficient t against its
// reference o into the restored and additive parts.
func admDecouple16(o, t int16, same bool, gain float64) (rst, add int16) {
	k := int32(32768)
	if o != 0 {
		r := int64(admRecip[admAbs32(int32(o))])
		if o < 0 {
			r = -r
		}
		k = min(max(int32((r*int64(t)+16384)>>15), 0), 32768)
	}
	rst = int16((k*int32(o) + 16384) >> 15)
	if same && k > 0 && o != 0 {
		rst = int16(admEnhance(float64(rst), int64(o), int64(t), gain))
	}
	return rst, t - rst
}

// admAbs32 is |x|, wrapping for the most negative value as C's abs does.
// It has no branch: the signs of ADM's coefficients do not follow a
// pattern a predictor could learn.
func admAbs32(x int32) int32 {
	m := x >> 31
	return (x ^ m) - m
}

// admCube0 sums |v|^3 over a level-0 row; a row of up to 2^19 samples
// cannot overflow.
func admCube0(row []int16) uint64 {
	var s uint64
	for _, v := range row {
		u := uint64(admAbs32(int32(v)))
		s += u * u * u
	}
	return s
}

// Level-0 CSF: Q21 (Q23 diagonal) factors, back to Q16 with these shifts.
// The diagonal rounding constant is 65535, not 65536, in libvmaf.
var (
	admCSF0Shift = [3]uint{15, 15, 17}
	admCSF0Round = [3]int32{16384, 16384, 65535}
)

// admCSF0 weights src (orientation t) by the CSF into the masker m and
// derives each sample's contribution to the masking threshold,
// |masker|/30, into f.
func admCSF0(m, f, src []int16, t int) {
	rf, sh, rnd := admRF0[t], admCSF0Shift[t], admCSF0Round[t]
	m, f = m[:len(src)], f[:len(src)]
	for j, v := range src {
		c := int16((rf*int32(v) + rnd) >> sh)
		m[j] = c
		f[j] = int16((4369*admAbs32(int32(c)) + 2048) >> 12)
	}
}

// level0 transforms both pictures' level 0 and pools its detail loss,
// one band row at a time (see admRows): it returns the DLM numerator and
// denominator and the AIM numerator, and leaves the LL bands in
// a.refA[0] and a.disA[0].
func (a *adm) level0(ref, dist feature.Plane) (num, den, aim float32) {
	w, h := a.bw[0], a.bh[0]
	bx0, bx1 := admBorder(w)
	by0, by1 := admBorder(h)
	py0, py1 := admBorderPadded(h)

	// The cubes drop bits by band width so a row's sum fits in 64 bits,
	// and each row's sum drops bits by band height.
	lw := admCeilLog2(w)
	cubSh := [3]int{lw - 4, lw - 4, lw - 3}
	var cm admCMParams
	for t := range 3 {
		cm.rf[t], cm.sub[t], cm.sq[t] = int64(admRF0[t]), admCM0SubShift[t], admCM0SqShift[t]
		// Bands narrower than 9 samples: libvmaf's shift count wraps to a
		// huge value and every term vanishes.
		cm.skip[t] = cubSh[t] < 0
		cm.cs[t] = uint(max(cubSh[t], 0))
		// With no shift (bands of 9 to 16 samples), libvmaf's rounding
		// offset 2^(shift-1), computed in double with an unsigned shift,
		// is 2^(2^32-1), infinite. Its AVX-512 code converts that to 32
		// bits as 2^32-1 and adds it to every cube term (its C and AVX2
		// code get 0).
		a.cm0Bias[t] = 0
		if cubSh[t] == 0 {
			a.cm0Bias[t] = 1<<32 - 1
		}
	}
	a.cm0P = cm
	rowSh := uint(admCeilLog2(h))
	rowRnd := admRoundHalf(int(rowSh))
	// The denominator's row sums are scaled down so that the frame total
	// stays within 64 bits for up to 2^20 samples.
	area := (bx1 - bx0) * (by1 - by0)
	denSh := max(admCeilLog2(area)-20, 0)
	denRnd := uint64(admRoundHalf(denSh))

	var denAcc [3]uint64
	var numAcc, aimAcc [3]int64
	masked := func(r int) {
		n, m := a.cm0Row(r)
		for t := range 3 {
			numAcc[t] += (n[t] + rowRnd) >> rowSh
			aimAcc[t] += (m[t] + rowRnd) >> rowSh
		}
	}
	for i := range h {
		a.dwt0Row(ref, i, a.refA[0], &a.ref16)
		a.dwt0Row(dist, i, a.disA[0], &a.dis16)
		if by0 <= i && i < by1 {
			for t := range 3 {
				denAcc[t] += (a.kern.cube0(a.ref16[t][bx0:bx1]) + denRnd) >> denSh
			}
		}
		if py0 <= i && i < py1 {
			a.decouple0Row(i)
		}
		if r := i - 1; by0 <= r && r < by1 {
			masked(r)
		}
	}
	if r := h - 1; by0 <= r && r < by1 {
		masked(r)
	}

	var csf [3]float32
	scale := math.Ldexp(1, 18-denSh)
	for t := range 3 {
		csf[t] = float32(float64(denAcc[t]) / scale * a.csf.rfCub[0][t])
	}
	den = admPoolScale(csf[0], csf[1], csf[2], area, admNoiseWeight)
	num = admCM0Pool(numAcc, cubSh, int(rowSh), area, admNoiseWeight)
	aim = admCM0Pool(aimAcc, cubSh, int(rowSh), area, 0)
	return num, den, aim
}

// admCM0Pool undoes the remaining fixed-point scale of level-0 masked
// sums, 3*(6+21) bits for h and v, 3*(6+23) for d less the shifts already
// made, and pools them.
func admCM0Pool(acc [3]int64, cubSh [3]int, rowSh, area int, noiseWeight float64) float32 {
	fh := float32(float64(float32(acc[0])) / math.Ldexp(1, 52-cubSh[0]-rowSh))
	fv := float32(float64(acc[1]) / math.Ldexp(1, 52-cubSh[1]-rowSh))
	fd := float32(float64(acc[2]) / math.Ldexp(1, 57-cubSh[2]-rowSh))
	return admPoolScale(fh, fv, fd, area, noiseWeight)
}
