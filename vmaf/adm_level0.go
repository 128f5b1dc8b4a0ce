package vmaf

import "math"

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

// decouple0 splits the level-0 distorted detail into the part explained
// by the reference scaled by k = clamp(t/o, 0, 1) (restored) and the rest
// (additive), over the padded pooling window.
func (a *adm) decouple0(w, h int) {
	x0, x1 := admBorderPadded(w)
	y0, y1 := admBorderPadded(h)
	gain := a.gain
	for i := y0; i < y1; i++ {
		lo, hi := i*w+x0, i*w+x1
		oh, ov, od := a.ref16[0][lo:hi], a.ref16[1][lo:hi], a.ref16[2][lo:hi]
		th, tv, td := a.dis16[0][lo:hi], a.dis16[1][lo:hi], a.dis16[2][lo:hi]
		rh, rv, rd := a.rst16[0][lo:hi], a.rst16[1][lo:hi], a.rst16[2][lo:hi]
		ah, av, ad := a.add16[0][lo:hi], a.add16[1][lo:hi], a.add16[2][lo:hi]
		for j := range oh {
			same := admSameDirection(int64(oh[j]), int64(ov[j]), int64(th[j]), int64(tv[j]))
			rh[j], ah[j] = admDecouple16(oh[j], th[j], same, gain)
			rv[j], av[j] = admDecouple16(ov[j], tv[j], same, gain)
			rd[j], ad[j] = admDecouple16(od[j], td[j], same, gain)
		}
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
func admAbs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// csfDen0 is the level-0 denominator: cube-root pooled reference detail,
// CSF-weighted. The weights are applied after cubing, in double.
func (a *adm) csfDen0(w, h int) float32 {
	x0, x1 := admBorder(w)
	y0, y1 := admBorder(h)
	area := (x1 - x0) * (y1 - y0)
	// Each row's sum is scaled down so that the frame total stays within
	// 64 bits for up to 2^20 samples.
	shift := max(admCeilLog2(area)-20, 0)
	round := uint64(admRoundHalf(shift))
	var acc [3]uint64
	for i := y0; i < y1; i++ {
		for t := range 3 {
			row := a.ref16[t][i*w+x0 : i*w+x1]
			var s uint64
			for _, v := range row {
				u := uint64(admAbs32(int32(v)))
				s += u * u * u
			}
			acc[t] += (s + round) >> shift
		}
	}
	var csf [3]float32
	scale := math.Ldexp(1, 18-shift)
	for t := range 3 {
		csf[t] = float32(float64(acc[t]) / scale * a.csf.rfCub[0][t])
	}
	return admPoolScale(csf[0], csf[1], csf[2], area, admNoiseWeight)
}

// Level-0 CSF: Q21 (Q23 diagonal) factors, back to Q16 with these shifts.
// The diagonal rounding constant is 65535, not 65536, in libvmaf.
var (
	admCSF0Shift = [3]uint{15, 15, 17}
	admCSF0Round = [3]int32{16384, 16384, 65535}
)

// csf0 weights src by the CSF into the masker bands and derives each
// sample's contribution to the masking threshold, |masker|/30, over the
// padded pooling window.
func (a *adm) csf0(src [3][]int16, w, h int) {
	x0, x1 := admBorderPadded(w)
	y0, y1 := admBorderPadded(h)
	for t := range 3 {
		rf, sh, rnd := admRF0[t], admCSF0Shift[t], admCSF0Round[t]
		for i := y0; i < y1; i++ {
			s := src[t][i*w+x0 : i*w+x1]
			m := a.msk16[t][i*w+x0 : i*w+x1]
			f := a.flt16[t][i*w+x0 : i*w+x1]
			for j, v := range s {
				c := int16((rf*int32(v) + rnd) >> sh)
				m[j] = c
				f[j] = int16((4369*admAbs32(int32(c)) + 2048) >> 12)
			}
		}
	}
}
