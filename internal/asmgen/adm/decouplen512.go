package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The AVX-512 kernel of levels 1 to 3: decoupleN on 16 columns a block,
// the same operations per lane. Comparisons go into mask registers; the
// 64-bit clamps of restoreRatio, which AVX2 forms from compares and
// blends, are VPMAXSQ and VPMINSQ, which give the same values.

// bcastQ loads the first 64-bit lane of m into every lane.
func bcastQ(m Mem) VecVirtual {
	z := ZMM()
	VPBROADCASTQ(m, z)
	return z
}

// evenOdd512 returns the even 32-bit lanes of v in place and the odd ones
// shifted down, each in the low half of a 64-bit lane.
func evenOdd512(v VecVirtual) [2]VecVirtual {
	o := ZMM()
	VPSRLQ(U8(32), v, o)
	return [2]VecVirtual{v, o}
}

// combine512 packs the low doublewords of the 64-bit lanes of even and
// odd back into sixteen 32-bit lanes in order.
func combine512(even, odd VecVirtual, oddMask OpmaskVirtual) VecVirtual {
	out := ZMM()
	VPSLLQ(U8(32), odd, odd)
	VPBLENDMD(odd, even, oddMask, out)
	return out
}

// toFloat64x16 converts sixteen 32-bit lanes to two vectors of eight
// float64.
func toFloat64x16(v VecVirtual) [2]VecVirtual {
	lo, hi, y := ZMM(), ZMM(), YMM()
	VCVTDQ2PD(v.AsY(), lo)
	VEXTRACTI64X4(U8(1), v, y)
	VCVTDQ2PD(y, hi)
	return [2]VecVirtual{lo, hi}
}

// decoupleNConsts are the constants decoupleNAVX512 keeps in registers;
// the others are broadcast from memory where they are used.
type decoupleNConsts struct {
	z, gain, cos, one32, one64 VecVirtual
	odd                        OpmaskVirtual
}

func decoupleNAVX512() {
	TEXT("admDecoupleNAVX512", NOSPLIT, "func(r *[]int32, j0, n int, gain, cos float64, recip *int32) int")
	Pragma("noescape")
	Doc("admDecoupleNAVX512 is admDecoupleNAVX2 on blocks of 16 columns (j0",
		"and n a multiple of 16 apart); it stops at the first block holding",
		"detail the float64 angle test cannot take and returns its first",
		"column, or n.")
	r := Load(Param("r"), GP64())
	j := Load(Param("j0"), GP64())
	n := Load(Param("n"), GP64())
	recip := Load(Param("recip"), GP64())
	c := decoupleNConsts{z: zeroZ(), gain: ZMM(), cos: ZMM()}
	VBROADCASTSD(paramAddr("gain"), c.gain)
	VBROADCASTSD(paramAddr("cos"), c.cos)
	c.one32, c.one64 = bcastZ(one32), bcastQ(one64)
	c.odd = oddDwords()

	Label("decNw")
	CMPQ(j, n)
	JAE(LabelRef("decNwDone"))
	load := func(off, b int) VecVirtual {
		v := ZMM()
		VMOVDQU32(Mem{Base: field(r, off, b), Index: j, Scale: 4}, v)
		return v
	}
	oh, ov, th, tv := load(decO, 0), load(decO, 1), load(decT, 0), load(decT, 1)
	mag := ZMM()
	VPABSD(oh, mag)
	for _, v := range []VecVirtual{ov, th, tv} {
		a := ZMM()
		VPABSD(v, a)
		VPORD(a, mag, mag)
	}
	large := K()
	VPTESTMD_BCST(bigMask, mag, large)
	KORTESTW(large, large)
	JNZ(LabelRef("decNwDone"))
	same := sameDirectionN512(oh, ov, th, tv, c)

	for b := range 3 {
		o, t := load(decO, b), load(decT, b)
		k := restoreRatio512(o, t, recip, c)
		oz := K()
		VPCMPEQD(c.z, o, oz)
		VPORD_BCST(k32768, k, oz, k)
		// rst = int32((k·o + 2^14) >> 15), k·o in 47 bits.
		var p [2]VecVirtual
		os := evenOdd512(o)
		for h, kv := range evenOdd512(k) {
			p[h] = ZMM()
			VPMULDQ(os[h], kv, p[h])
			VPADDQ_BCST(round15q, p[h], p[h])
			VPSRLQ(U8(15), p[h], p[h])
		}
		rst := combine512(p[0], p[1], c.odd)
		live, cond := K(), K()
		KANDNW(same, oz, live)
		VPCMPGTD(c.z, k, live, cond)
		rst = enhanceN512(rst, t, o, cond, c)
		add := ZMM()
		VPSUBD(rst, t, add)
		VMOVDQU32(rst, Mem{Base: field(r, decRst, b), Index: j, Scale: 4})
		VMOVDQU32(add, Mem{Base: field(r, decAdd, b), Index: j, Scale: 4})
		rf := ZMM()
		VPBROADCASTD(Mem{Base: r, Disp: decRF + 8*b}, rf)
		for _, dst := range [][3]int{{decMR, decFR, 0}, {decMA, decFA, 1}} {
			src := rst
			if dst[2] == 1 {
				src = add
			}
			var q [2]VecVirtual
			for h, v := range evenOdd512(src) {
				q[h] = ZMM()
				VPMULDQ(rf, v, q[h])
				VPADDQ_BCST(round27q, q[h], q[h])
				VPSRLQ(U8(28), q[h], q[h])
			}
			m := combine512(q[0], q[1], c.odd)
			VMOVDQU32(m, Mem{Base: field(r, dst[0], b), Index: j, Scale: 4})
			// int32((|m|·(2^32/30) - 2^31) >> 32).
			a := ZMM()
			VPABSD(m, a)
			var e [2]VecVirtual
			for h, v := range evenOdd512(a) {
				e[h] = ZMM()
				VPMULDQ_BCST(c30th, v, e[h])
				VPSUBQ_BCST(two31q, e[h], e[h])
			}
			VPSRLQ(U8(32), e[0], e[0])
			VPBLENDMD(e[1], e[0], c.odd, e[0])
			VMOVDQU32(e[0], Mem{Base: field(r, dst[1], b), Index: j, Scale: 4})
		}
	}
	ADDQ(U8(16), j)
	JMP(LabelRef("decNw"))
	Label("decNwDone")
	Store(j, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// sameDirectionN512 is sameDirectionN on sixteen lanes, into a mask.
func sameDirectionN512(oh, ov, th, tv VecVirtual, c decoupleNConsts) OpmaskVirtual {
	fo, fv, ft, fw := toFloat64x16(oh), toFloat64x16(ov), toFloat64x16(th), toFloat64x16(tv)
	var m [2]OpmaskVirtual
	for h := range m {
		dot, om, tm, t := ZMM(), ZMM(), ZMM(), ZMM()
		VMULPD(ft[h], fo[h], dot)
		VMULPD(fw[h], fv[h], t)
		VADDPD(t, dot, dot)
		VMULPD(fo[h], fo[h], om)
		VMULPD(fv[h], fv[h], t)
		VADDPD(t, om, om)
		VMULPD(ft[h], ft[h], tm)
		VMULPD(fw[h], fw[h], t)
		VADDPD(t, tm, tm)
		for _, v := range []VecVirtual{dot, om, tm} {
			y := YMM()
			VCVTPD2PS(v, y)
			VCVTPS2PD(y, v)
		}
		dd, rr := ZMM(), ZMM()
		VMULPD(dot, dot, dd)
		VMULPD(om, c.cos, rr)
		VMULPD(tm, rr, rr)
		p := K()
		VCMPPD(U8(0x1d), c.z, dot, p)
		m[h] = K()
		VCMPPD(U8(0x1d), rr, dd, p, m[h])
	}
	same := K()
	KUNPCKBW(m[0], m[1], same)
	return same
}

// restoreRatio512 is restoreRatio on sixteen lanes.
func restoreRatio512(o, t VecVirtual, recip Register, c decoupleNConsts) VecVirtual {
	m, f, sh := ZMM(), ZMM(), ZMM()
	VPABSD(o, m)
	VPANDD_BCST(clearLow8, m, f)
	VCVTDQ2PS(f, f)
	VPSRLD(U8(23), f, sh)
	VPANDD_BCST(expMask, sh, sh)
	VPSUBD_BCST(exp141, sh, sh)
	VPMAXSD(c.z, sh, sh)
	rnd := ZMM()
	VPSLLVD(sh, c.one32, rnd)
	VPSRLD(U8(1), rnd, rnd)
	VPADDD(rnd, m, m)
	VPSRLVD(sh, m, m)
	all, rc := K(), ZMM()
	KXNORW(c.odd, c.odd, all)
	VPXORD(c.z, c.z, rc)
	VPGATHERDD(Mem{Base: recip, Index: m, Scale: 4}, all, rc)

	sign := ZMM()
	VPSRAD(U8(31), o, sign)
	var k [2]VecVirtual
	rs, ts := evenOdd512(rc), evenOdd512(t)
	for h := range k {
		p, s, cnt := ZMM(), ZMM(), ZMM()
		VPMULDQ(ts[h], rs[h], p)
		VPSHUFD(U8([]int{0xa0, 0xf5}[h]), sign, s)
		VPXORQ(s, p, p)
		VPSUBQ(s, p, p)
		if h == 0 {
			VPANDQ_BCST(lowDword, sh, cnt)
		} else {
			VPSRLQ(U8(32), sh, cnt)
		}
		r, b, e := ZMM(), ZMM(), ZMM()
		VPADDQ_BCST(c14q, cnt, e)
		VPSLLVQ(e, c.one64, r) // 2^(14+sh)
		VPADDQ(r, p, p)
		VPADDQ_BCST(c15q, cnt, cnt) // s = 15+sh
		VPADDQ_BCST(c15q, cnt, e)
		VPSLLVQ(e, c.one64, b) // 32768·2^s
		VPMAXSQ(c.z, p, p)
		VPMINSQ(b, p, p)
		VPSRLVQ(cnt, p, p)
		k[h] = p
	}
	return combine512(k[0], k[1], c.odd)
}

// enhanceN512 is enhanceN on sixteen lanes.
func enhanceN512(rst, t, o VecVirtual, cond OpmaskVirtual, c decoupleNConsts) VecVirtual {
	pos, posHi := K(), K()
	VPCMPGTD(c.z, o, pos)
	KSHIFTRW(U8(8), pos, posHi)
	g, ft := toFloat64x16(rst), toFloat64x16(t)
	var e [2]VecVirtual
	for h, pm := range []OpmaskVirtual{pos, posHi} {
		mn, mx := ZMM(), ZMM()
		VMULPD(c.gain, g[h], g[h])
		VMINPD(ft[h], g[h], mn)
		VMAXPD(ft[h], g[h], mx)
		VBLENDMPD(mn, mx, pm, mx)
		e[h] = YMM()
		VCVTTPD2DQ(mx, e[h])
	}
	out := ZMM()
	VINSERTI64X4(U8(1), e[1], e[0].AsZ(), out)
	VPBLENDMD(out, rst, cond, out)
	return out
}
