package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

var (
	evenFirst  Mem // VPERMD indices 0, 2, 4, 6, 1, 3, 5, 7
	lowDword   Mem // 0xffffffff in 64-bit lanes
	one64      Mem // 1 in 64-bit lanes
	c14q, c15q Mem // 14 and 15 in 64-bit lanes
	c30q       Mem // 30 in 64-bit lanes
	round27q   Mem // 1<<27 in 64-bit lanes
	two31q     Mem // 1<<31 in 64-bit lanes
	one32      Mem // 1 in 32-bit lanes
	expMask    Mem // 0xff in 32-bit lanes
	exp141     Mem // 141 in 32-bit lanes
	clearLow8  Mem // 0xffffff00 in 32-bit lanes
	bigMask    Mem // 0xfc000000 in 32-bit lanes
	c15th      Mem // 286331153 (2^32/15) in 32-bit lanes
	c30th      Mem // 143165577 (2^32/30) in 32-bit lanes
)

func decoupleNConstants() {
	evenFirst = GLOBL("admEvenFirst", RODATA|NOPTR)
	for i, v := range []uint32{0, 2, 4, 6, 1, 3, 5, 7} {
		DATA(4*i, U32(v))
	}
	lowDword = constant64("admLowDword", 0xffffffff)
	one64 = constant64("admOne64", 1)
	c14q = constant64("admC14Q", 14)
	c15q = constant64("admC15Q", 15)
	c30q = constant64("admC30Q", 30)
	round27q = constant64("admRound27Q", 1<<27)
	two31q = constant64("admTwo31Q", 1<<31)
	one32 = constant32("admOne32", 1)
	expMask = constant32("admExpMask", 0xff)
	exp141 = constant32("admExp141", 141)
	clearLow8 = constant32("admClearLow8", 0xffffff00)
	bigMask = constant32("admBigMask", 0xfc000000)
	c15th = constant32("admC15th", 286331153)
	c30th = constant32("admC30th", 143165577)
}

// evenOdd returns the even 32-bit lanes of v in place and the odd ones
// shifted down, each in the low half of a 64-bit lane.
func evenOdd(v VecVirtual) [2]VecVirtual {
	o := YMM()
	VPSRLQ(U8(32), v, o)
	return [2]VecVirtual{v, o}
}

// mulShift32 returns the eight 32-bit lanes int32((x·c + round) >> shift)
// for a factor c below 2^31 in every 32-bit lane at c, in 64 bits; the
// shift is at most 32, so a logical shift gives the wanted low half.
func mulShift32(x VecVirtual, c Mem, round Mem, shift int) VecVirtual {
	var r [2]VecVirtual
	for h, v := range evenOdd(x) {
		r[h] = YMM()
		VPMULDQ(c, v, r[h])
		VPADDQ(round, r[h], r[h])
		VPSRLQ(U8(shift), r[h], r[h])
	}
	return combineEvenOdd(r[0], r[1])
}

// highMul returns the eight 32-bit lanes int32((|m|·c - 2^31) >> 32) of
// the 32-bit lanes m, for a factor c below 2^31: the high halves of the
// 64-bit results. |m| wraps for -2^31 as admAbs32 does.
func highMul(m VecVirtual, c Mem) VecVirtual {
	a := YMM()
	VPABSD(m, a)
	var r [2]VecVirtual
	for h, v := range evenOdd(a) {
		r[h] = YMM()
		VPMULDQ(c, v, r[h])
		VPSUBQ(two31q, r[h], r[h])
	}
	VPSRLQ(U8(32), r[0], r[0])
	VPBLENDD(U8(0xaa), r[1], r[0], r[0])
	return r[0]
}

// toFloat64 converts eight 32-bit lanes to two vectors of four float64.
func toFloat64(v VecVirtual) [2]VecVirtual {
	lo, hi, x := YMM(), YMM(), XMM()
	VCVTDQ2PD(v.AsX(), lo)
	VEXTRACTI128(U8(1), v, x)
	VCVTDQ2PD(x, hi)
	return [2]VecVirtual{lo, hi}
}

// roundFloat32 rounds four float64 to float32 and back.
func roundFloat32(v VecVirtual) {
	x := XMM()
	VCVTPD2PSY(v, x)
	VCVTPS2PD(x, v)
}

// sameDirectionN is sameDirection for 32-bit detail below 2^26 in
// magnitude: the products and their sums are then exact in float64, so
// that rounding them to float32 rounds the exact 64-bit integer once, as
// the portable code does.
func sameDirectionN(oh, ov, th, tv VecVirtual, cos VecVirtual) VecVirtual {
	fo, fv, ft, fw := toFloat64(oh), toFloat64(ov), toFloat64(th), toFloat64(tv)
	var dot, om, tm [2]VecVirtual
	for h := range 2 {
		dot[h], om[h], tm[h] = YMM(), YMM(), YMM()
		t := YMM()
		VMULPD(ft[h], fo[h], dot[h])
		VMULPD(fw[h], fv[h], t)
		VADDPD(t, dot[h], dot[h])
		VMULPD(fo[h], fo[h], om[h])
		VMULPD(fv[h], fv[h], t)
		VADDPD(t, om[h], om[h])
		VMULPD(ft[h], ft[h], tm[h])
		VMULPD(fw[h], fw[h], t)
		VADDPD(t, tm[h], tm[h])
		roundFloat32(dot[h])
		roundFloat32(om[h])
		roundFloat32(tm[h])
	}
	return sameDirection(dot, om, tm, cos)
}

// restoreRatio returns admRestoreRatio(o, t) for eight lanes, and 0 where
// o is 0. |o| of 2^15 and more is first rounded to 15 significant bits
// by sh = bits.Len32(|o|) - 15, found from the float32 exponent of |o|
// with its low 8 bits cleared (which converts exactly). The product with
// the reciprocal and t needs 62 bits; it is clamped to [0, 32768·2^s]
// before the shift by s = 15+sh, which the portable code's clamp after
// the shift equals.
func restoreRatio(o, t VecVirtual, recip Register, z VecVirtual) VecVirtual {
	m, f, sh := YMM(), YMM(), YMM()
	VPABSD(o, m)
	VPAND(clearLow8, m, f)
	VCVTDQ2PS(f, f)
	VPSRLD(U8(23), f, sh)
	VPAND(expMask, sh, sh)
	VPSUBD(exp141, sh, sh)
	VPMAXSD(z, sh, sh)
	rnd := YMM()
	VMOVDQU(one32, rnd)
	VPSLLVD(sh, rnd, rnd)
	VPSRLD(U8(1), rnd, rnd)
	VPADDD(rnd, m, m)
	VPSRLVD(sh, m, m)
	all, rc := YMM(), YMM()
	VPCMPEQD(all, all, all)
	VPXOR(rc, rc, rc)
	VPGATHERDD(all, Mem{Base: recip, Index: m, Scale: 4}, rc)

	sign := YMM()
	VPSRAD(U8(31), o, sign)
	var k [2]VecVirtual
	rs, ts := evenOdd(rc), evenOdd(t)
	for h := range k {
		p, s, cnt := YMM(), YMM(), YMM()
		VPMULDQ(ts[h], rs[h], p)
		// Negate where o < 0: the sign of lane 2i (or 2i+1) in both
		// halves of 64-bit lane i.
		VPSHUFD(U8([]int{0xa0, 0xf5}[h]), sign, s)
		VPXOR(s, p, p)
		VPSUBQ(s, p, p)
		if h == 0 {
			VPAND(lowDword, sh, cnt)
		} else {
			VPSRLQ(U8(32), sh, cnt)
		}
		r, b, c := YMM(), YMM(), YMM()
		VPADDQ(c14q, cnt, c)
		VMOVDQU(one64, r)
		VPSLLVQ(c, r, r) // 2^(14+sh)
		VPADDQ(r, p, p)
		VPADDQ(c15q, cnt, cnt) // s = 15+sh
		VPADDQ(c15q, cnt, c)
		VMOVDQU(one64, b)
		VPSLLVQ(c, b, b) // 32768·2^s
		neg, big := YMM(), YMM()
		VPCMPGTQ(p, z, neg)
		VPANDN(p, neg, p)
		VPCMPGTQ(b, p, big)
		VPBLENDVB(big, b, p, p)
		VPSRLVQ(cnt, p, p)
		k[h] = p
	}
	return combineEvenOdd(k[0], k[1])
}

// enhanceN returns, for the lanes in cond, min(rst·gain, t) where o > 0
// and max(rst·gain, t) where o < 0, converted back with truncation, in
// float64 as the portable code computes it; rst elsewhere.
func enhanceN(rst, t, o, cond VecVirtual, gain VecVirtual, z VecVirtual) VecVirtual {
	pos := YMM()
	VPCMPGTD(z, o, pos)
	g, ft := toFloat64(rst), toFloat64(t)
	var e [2]VecVirtual
	for h := range e {
		mn, mx, pm, x := YMM(), YMM(), YMM(), XMM()
		VMULPD(gain, g[h], g[h])
		VMINPD(ft[h], g[h], mn)
		VMAXPD(ft[h], g[h], mx)
		if h == 0 {
			VPMOVSXDQ(pos.AsX(), pm)
		} else {
			VEXTRACTI128(U8(1), pos, x)
			VPMOVSXDQ(x, pm)
		}
		VBLENDVPD(pm, mn, mx, mx)
		e[h] = XMM()
		VCVTTPD2DQY(mx, e[h])
	}
	out := YMM()
	VINSERTI128(U8(1), e[1], e[0].AsY(), out)
	VPBLENDVB(cond, out, rst, out)
	return out
}

func decoupleN() {
	TEXT("admDecoupleNAVX2", NOSPLIT, "func(r *[]int32, j0, n int, gain, cos float64, recip *int32) int")
	Pragma("noescape")
	Doc("admDecoupleNAVX2 is admDecoupleN for the columns from j0 to n (a",
		"multiple of 8 apart) of r, for a finite gain; cos is",
		"float64(admCos1Sq), recip admRecip. It stops at the first block",
		"of 8 columns holding h or v detail of 2^26 or more in magnitude",
		"(which the float64 angle test cannot take) and returns its first",
		"column, or n.")
	r := Load(Param("r"), GP64())
	j := Load(Param("j0"), GP64())
	n := Load(Param("n"), GP64())
	recip := Load(Param("recip"), GP64())
	gain, cos := YMM(), YMM()
	VBROADCASTSD(paramAddr("gain"), gain)
	VBROADCASTSD(paramAddr("cos"), cos)
	z := zero()

	Label("decN")
	CMPQ(j, n)
	JAE(LabelRef("decNDone"))
	load := func(off, b int) VecVirtual {
		v := YMM()
		VMOVDQU(Mem{Base: field(r, off, b), Index: j, Scale: 4}, v)
		return v
	}
	oh, ov, th, tv := load(decO, 0), load(decO, 1), load(decT, 0), load(decT, 1)
	big := YMM()
	VPABSD(oh, big)
	for _, v := range []VecVirtual{ov, th, tv} {
		a := YMM()
		VPABSD(v, a)
		VPOR(a, big, big)
	}
	VPTEST(bigMask, big)
	JNZ(LabelRef("decNDone"))
	same := sameDirectionN(oh, ov, th, tv, cos)

	for b := range 3 {
		o, t := load(decO, b), load(decT, b)
		k := restoreRatio(o, t, recip, z)
		oz, zk := YMM(), YMM()
		VPCMPEQD(z, o, oz)
		VPAND(k32768, oz, zk)
		VPOR(zk, k, k)
		// rst = int32((k·o + 2^14) >> 15), k·o in 47 bits.
		var p [2]VecVirtual
		os := evenOdd(o)
		for h, kv := range evenOdd(k) {
			p[h] = YMM()
			VPMULDQ(os[h], kv, p[h])
			VPADDQ(round15q, p[h], p[h])
			VPSRLQ(U8(15), p[h], p[h])
		}
		rst := combineEvenOdd(p[0], p[1])
		cond := YMM()
		VPCMPGTD(z, k, cond)
		VPAND(same, cond, cond)
		VPANDN(cond, oz, cond)
		rst = enhanceN(rst, t, o, cond, gain, z)
		add := YMM()
		VPSUBD(rst, t, add)
		VMOVDQU(rst, Mem{Base: field(r, decRst, b), Index: j, Scale: 4})
		VMOVDQU(add, Mem{Base: field(r, decAdd, b), Index: j, Scale: 4})
		// CSF: int32((rf·v + 2^27) >> 28), and its threshold contribution.
		rf := YMM()
		VPBROADCASTD(Mem{Base: r, Disp: decRF + 8*b}, rf)
		for _, dst := range [][3]int{{decMR, decFR, 0}, {decMA, decFA, 1}} {
			src := rst
			if dst[2] == 1 {
				src = add
			}
			m := mulShiftReg(src, rf, 28)
			VMOVDQU(m, Mem{Base: field(r, dst[0], b), Index: j, Scale: 4})
			VMOVDQU(highMul(m, c30th), Mem{Base: field(r, dst[1], b), Index: j, Scale: 4})
		}
	}
	ADDQ(U8(8), j)
	JMP(LabelRef("decN"))
	Label("decNDone")
	Store(j, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// mulShiftReg is mulShift32 with the factor in a register and rounding
// 2^(shift-1).
func mulShiftReg(x, c VecVirtual, shift int) VecVirtual {
	var r [2]VecVirtual
	xs := evenOdd(x)
	for h := range r {
		r[h] = YMM()
		VPMULDQ(c, xs[h], r[h])
		VPADDQ(round27q, r[h], r[h])
		VPSRLQ(U8(shift), r[h], r[h])
	}
	return combineEvenOdd(r[0], r[1])
}
