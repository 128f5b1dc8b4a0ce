package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Byte offsets of the fields of vmaf's admDecouple16Row and
// admDecouple32Row: eight arrays of three slices (24 bytes each), then
// (32-bit rows only) the CSF factors. TestADMVecLayout checks them.
const (
	decO   = 0
	decT   = 72
	decRst = 144
	decAdd = 216
	decMR  = 288
	decFR  = 360
	decMA  = 432
	decFA  = 504
	decRF  = 576
)

// field loads the data pointer of orientation b's slice of a row struct
// field.
func field(r Register, off, b int) GPVirtual {
	p := GP64()
	MOVQ(Mem{Base: r, Disp: off + 24*b}, p)
	return p
}

// CSF constants of level 0 in 16-bit lanes (see csf16).
var c3685, c16119, c4368, one16 Mem

func csfConstants() {
	c3685 = constant16("admC3685", 3685)
	c16119 = constant16("admC16119", 16119)
	c4368 = constant16("admC4368", 4368)
	one16 = constant16("admOne16", 1)
}

// csf16 returns the level-0 CSF weighting of eight words v of orientation
// b, int16((rf·v + round) >> shift), computed in 16-bit lanes:
//
//   - h and v (rf 36453 = 2^15 + 3685, shift 15, round 2^14): v plus
//     (3685·v + 2^14) >> 15, which is VPMULHRSW; the sum wraps as the
//     int16 conversion does.
//   - d (rf 49417 = 2^16 - 16119, shift 17, round 2^17 - 1): with
//     c = ceil(-16119·v / 2^16) = -VPMULHW(v, 16119), the result is
//     floor((v + c) / 2), formed without overflow as
//     (v >> 1) + (c >> 1) + (v & c & 1).
func csf16(b int, v VecVirtual, z VecVirtual) VecVirtual {
	return csfWords(b, v, z.AsX(), XMM)
}

// csfWords is csf16 on the words of registers newVec makes (XMM for
// eight, YMM for sixteen); z is a zeroed register of that width.
func csfWords(b int, v VecVirtual, z Register, newVec func() VecVirtual) VecVirtual {
	m := newVec()
	if b < 2 {
		VPMULHRSW(c3685.Offset(0), v, m)
		VPADDW(v, m, m)
		return m
	}
	c, e, h := newVec(), newVec(), newVec()
	VPMULHW(c16119.Offset(0), v, c)
	VPSUBW(c, z, c)
	VPAND(v, c, e)
	VPAND(one16.Offset(0), e, e)
	VPSRAW(U8(1), v, h)
	VPSRAW(U8(1), c, m)
	VPADDW(h, m, m)
	VPADDW(e, m, m)
	return m
}

// flt16 returns the threshold contributions int16((4369·|m| + 2048) >> 12)
// of eight words: with x = |m| taken unsigned (VPABSW leaves 0x8000 for
// -32768, which is 32768), that is x + (4368·x + 2^15) >> 16, whose high
// part is VPMULHUW and whose rounding carry is bit 15 of the low product.
// The sum wraps as the int16 conversion does.
func flt16(m VecVirtual) VecVirtual { return fltWords(m, XMM) }

// fltWords is flt16 on the words of registers newVec makes.
func fltWords(m VecVirtual, newVec func() VecVirtual) VecVirtual {
	x, h, l := newVec(), newVec(), newVec()
	VPABSW(m, x)
	VPMULHUW(c4368.Offset(0), x, h)
	VPMULLW(c4368.Offset(0), x, l)
	VPSRLW(U8(15), l, l)
	VPADDW(h, x, x)
	VPADDW(l, x, x)
	return x
}

// toFloat32 converts eight 32-bit products, summed by VPMADDWD, to
// float32. The only sum that does not fit, 2^31, wrapped to -2^31; it is
// the only one to convert to -2^31, and flipping its sign gives 2^31.
func toFloat32(x VecVirtual) VecVirtual {
	f, e := YMM(), YMM()
	VCVTDQ2PS(x, f)
	VPCMPEQD(signD, x, e)
	VPAND(x, e, e)
	VXORPS(e, f, f)
	return f
}

// widen splits eight float32 into two vectors of four float64.
func widen(f VecVirtual) [2]VecVirtual {
	lo, hi, x := YMM(), YMM(), XMM()
	VCVTPS2PD(f.AsX(), lo)
	VEXTRACTF128(U8(1), f, x)
	VCVTPS2PD(x, hi)
	return [2]VecVirtual{lo, hi}
}

// sameDirection returns the mask of the lanes whose distorted gradient
// lies within 1° of the reference one, as admSameDirection decides it
// from the float32-rounded dot product and squared magnitudes. The
// portable code divides each by 4096 before comparing; powers of two
// change no rounding in these ranges, so the kernels leave that out.
func sameDirection(dot, om, tm [2]VecVirtual, cos VecVirtual) VecVirtual {
	var m [2]VecVirtual
	zpd := zero()
	for h := range m {
		dd, r, p := YMM(), YMM(), YMM()
		VMULPD(dot[h], dot[h], dd)
		VMULPD(om[h], cos, r)
		VMULPD(tm[h], r, r)
		VCMPPD(U8(0x1d), r, dd, dd) // dot² >= cos²·om·tm
		VCMPPD(U8(0x1d), zpd, dot[h], p)
		VANDPD(p, dd, dd)
		m[h] = dd
	}
	out := YMM()
	VSHUFPS(U8(0x88), m[1], m[0], out)
	VPERMQ(U8(0xd8), out, out)
	return out
}

func decouple0() {
	TEXT("admDecouple0AVX2", NOSPLIT, "func(r *[]int16, n int, gain int32, cos float64, recip *int32)")
	Pragma("noescape")
	Doc("admDecouple0AVX2 is admDecouple0 for the first n columns (a multiple",
		"of 8) of r, for a gain limit that is an integer from 1 to 65535: the",
		"enhanced coefficient rst·gain is then exact in 32 bits. cos is",
		"float64(admCos1Sq), recip admRecip.")
	r := Load(Param("r"), GP64())
	n := Load(Param("n"), GP64())
	recip := Load(Param("recip"), GP64())
	gain := broadcastParam32("gain")
	cos := YMM()
	VBROADCASTSD(paramAddr("cos"), cos)
	z := zero()

	loop("dec0", n, 8, func(j Register) {
		load := func(off, b int) VecVirtual {
			v := YMM()
			VPMOVSXWD(Mem{Base: field(r, off, b), Index: j, Scale: 2}, v)
			return v
		}
		// Angle test on (oh, ov) and (th, tv) packed as word pairs.
		pair := func(off int) VecVirtual {
			h, v := load(off, 0), load(off, 1)
			VPSLLD(U8(16), v, v)
			VPBLENDW(U8(0xaa), v, h, h)
			return h
		}
		o, t := pair(decO), pair(decT)
		dot, om, tm := YMM(), YMM(), YMM()
		VPMADDWD(t, o, dot)
		VPMADDWD(o, o, om)
		VPMADDWD(t, t, tm)
		same := sameDirection(widen(toFloat32(dot)), widen(toFloat32(om)), widen(toFloat32(tm)), cos)

		for b := range 3 {
			o, t := load(decO, b), load(decT, b)
			// k = clamp((recip[|o|]·sign(o)·t + 2^14) >> 15, 0, 32768), or
			// 32768 where o is 0. The product needs 46 bits; its shifted
			// value fits 32, so a logical shift gives the same low half.
			a, all, rc := YMM(), YMM(), YMM()
			VPABSD(o, a)
			VPCMPEQD(all, all, all)
			VPXOR(rc, rc, rc)
			VPGATHERDD(all, Mem{Base: recip, Index: a, Scale: 4}, rc)
			ts := YMM()
			VPSIGND(o, t, ts)
			even, odd, ro, to := YMM(), YMM(), YMM(), YMM()
			VPMULDQ(ts, rc, even)
			VPSRLQ(U8(32), rc, ro)
			VPSRLQ(U8(32), ts, to)
			VPMULDQ(to, ro, odd)
			VPADDQ(round15q, even, even)
			VPADDQ(round15q, odd, odd)
			VPSRLQ(U8(15), even, even)
			VPSRLQ(U8(15), odd, odd)
			k := combineEvenOdd(even, odd)
			VPMAXSD(z, k, k)
			VPMINSD(k32768, k, k)
			oz, zk := YMM(), YMM()
			VPCMPEQD(z, o, oz)
			VPAND(k32768, oz, zk)
			VPOR(zk, k, k)
			// rst = (k·o + 2^14) >> 15, fits in 16 bits.
			rst := YMM()
			VPMULLD(o, k, rst)
			VPADDD(round14, rst, rst)
			VPSRAD(U8(15), rst, rst)
			// Enhancement where the directions agree, k > 0 and o != 0:
			// min(rst·gain, t) for o > 0, max for o < 0.
			cond, pos, g, mn, mx := YMM(), YMM(), YMM(), YMM(), YMM()
			VPCMPGTD(z, k, cond)
			VPAND(same, cond, cond)
			VPANDN(cond, oz, cond)
			VPCMPGTD(z, o, pos)
			VPMULLD(gain, rst, g)
			VPMINSD(t, g, mn)
			VPMAXSD(t, g, mx)
			VPBLENDVB(pos, mn, mx, g)
			VPBLENDVB(cond, g, rst, rst)

			rst16, add16 := packWords(rst), XMM()
			VMOVDQU(Mem{Base: field(r, decT, b), Index: j, Scale: 2}, add16)
			VPSUBW(rst16, add16, add16)
			VMOVDQU(rst16, Mem{Base: field(r, decRst, b), Index: j, Scale: 2})
			VMOVDQU(add16, Mem{Base: field(r, decAdd, b), Index: j, Scale: 2})
			for _, dst := range [][2]int{{decMR, decFR}, {decMA, decFA}} {
				src := rst16
				if dst[0] == decMA {
					src = add16
				}
				m := csf16(b, src, z)
				VMOVDQU(m, Mem{Base: field(r, dst[0], b), Index: j, Scale: 2})
				VMOVDQU(flt16(m), Mem{Base: field(r, dst[1], b), Index: j, Scale: 2})
			}
		}
	})
	VZEROUPPER()
	RET()
}
