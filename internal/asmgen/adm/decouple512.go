package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// bcastZ loads the first 32-bit lane of m into every lane of a 512-bit
// register: the constants are laid out for eight lanes.
func bcastZ(m Mem) VecVirtual {
	z := ZMM()
	VPBROADCASTD(m, z)
	return z
}

// oddDwords returns a mask of the odd 32-bit lanes.
func oddDwords() OpmaskVirtual {
	r, k := GP32(), K()
	MOVL(U32(0xaaaa), r)
	KMOVW(r, k)
	return k
}

// decouple0AVX512 is decouple0 on 16 columns a block: the same
// operations per lane, with comparisons into mask registers and masked
// blends where AVX2 blends by vector masks. AVX-512 has no VPSIGND: the
// kernel negates t where o is negative, and sets k for o = 0 by a masked
// move rather than by OR, so the product it leaves there never counts.
// The 32-bit results narrow to words with VPMOVSDW (in order, saturating
// as VPACKSSDW); the CSF and threshold steps run on 16 words in YMM.
func decouple0AVX512() {
	TEXT("admDecouple0AVX512", NOSPLIT, "func(r *[]int16, n int, gain int32, cos float64, recip *int32)")
	Pragma("noescape")
	Doc("admDecouple0AVX512 is admDecouple0AVX2 for the first n columns (a",
		"multiple of 16) of r.")
	r := Load(Param("r"), GP64())
	n := Load(Param("n"), GP64())
	recip := Load(Param("recip"), GP64())
	gain := ZMM()
	broadcast32(Load(Param("gain"), GP32()), gain)
	cos := ZMM()
	VBROADCASTSD(paramAddr("cos"), cos)
	z := zeroZ()
	zy := YMM()
	VPXOR(zy, zy, zy)
	sign, big, r15, r14 := bcastZ(signD), bcastZ(k32768), ZMM(), bcastZ(round14)
	VPBROADCASTQ(round15q, r15)
	odd := oddDwords()

	loop("dec0w", n, 16, func(j Register) {
		load := func(off, b int) VecVirtual {
			v := ZMM()
			VPMOVSXWD(Mem{Base: field(r, off, b), Index: j, Scale: 2}, v)
			return v
		}
		// (h, v) as word pairs, h in the low word.
		pair := func(off int) VecVirtual {
			h, v := ZMM(), ZMM()
			VPMOVZXWD(Mem{Base: field(r, off, 0), Index: j, Scale: 2}, h)
			VPMOVZXWD(Mem{Base: field(r, off, 1), Index: j, Scale: 2}, v)
			VPSLLD(U8(16), v, v)
			VPORD(v, h, h)
			return h
		}
		o, t := pair(decO), pair(decT)
		dot, om, tm := ZMM(), ZMM(), ZMM()
		VPMADDWD(t, o, dot)
		VPMADDWD(o, o, om)
		VPMADDWD(t, t, tm)
		toF := func(x VecVirtual) [2]VecVirtual {
			f := ZMM()
			VCVTDQ2PS(x, f)
			e := K()
			VPCMPEQD(sign, x, e)
			VPXORD(sign, f, e, f)
			lo, hi, y := ZMM(), ZMM(), YMM()
			VCVTPS2PD(f.AsY(), lo)
			VEXTRACTF32X8(U8(1), f, y)
			VCVTPS2PD(y, hi)
			return [2]VecVirtual{lo, hi}
		}
		d, a2, b2 := toF(dot), toF(om), toF(tm)
		var m [2]OpmaskVirtual
		for h := range m {
			dd, rr := ZMM(), ZMM()
			VMULPD(d[h], d[h], dd)
			VMULPD(a2[h], cos, rr)
			VMULPD(b2[h], rr, rr)
			p := K()
			VCMPPD(U8(0x1d), z, d[h], p) // dot >= 0
			m[h] = K()
			VCMPPD(U8(0x1d), rr, dd, p, m[h]) // and dot² >= cos²·om·tm
		}
		same := K()
		KUNPCKBW(m[0], m[1], same)

		for b := range 3 {
			o, t := load(decO, b), load(decT, b)
			a, rc := ZMM(), ZMM()
			VPABSD(o, a)
			// Both from registers already set, so that no register is
			// read before it is written (which would keep it live
			// around the loop).
			all := K()
			KXNORW(odd, odd, all)
			VPXORD(z, z, rc)
			VPGATHERDD(Mem{Base: recip, Index: a, Scale: 4}, all, rc)
			neg, oz, pos := K(), K(), K()
			VPCMPGTD(o, z, neg) // o < 0
			VPCMPEQD(z, o, oz)
			VPCMPGTD(z, o, pos) // o > 0
			ts := ZMM()
			VMOVDQA32(t, ts)
			VPSUBD(t, z, neg, ts)
			even, oddp, ro, to := ZMM(), ZMM(), ZMM(), ZMM()
			VPMULDQ(ts, rc, even)
			VPSRLQ(U8(32), rc, ro)
			VPSRLQ(U8(32), ts, to)
			VPMULDQ(to, ro, oddp)
			VPADDQ(r15, even, even)
			VPADDQ(r15, oddp, oddp)
			VPSRLQ(U8(15), even, even)
			VPSRLQ(U8(15), oddp, oddp)
			VPSLLQ(U8(32), oddp, oddp)
			k := ZMM()
			VPBLENDMD(oddp, even, odd, k)
			VPMAXSD(z, k, k)
			VPMINSD(big, k, k)
			VMOVDQA32(big, oz, k)
			rst := ZMM()
			VPMULLD(o, k, rst)
			VPADDD(r14, rst, rst)
			VPSRAD(U8(15), rst, rst)
			// Enhancement where the directions agree, k > 0 and o != 0.
			live, cond := K(), K()
			KANDNW(same, oz, live) // same and not o = 0
			VPCMPGTD(z, k, live, cond)
			g, mn, mx := ZMM(), ZMM(), ZMM()
			VPMULLD(gain, rst, g)
			VPMINSD(t, g, mn)
			VPMAXSD(t, g, mx)
			VPBLENDMD(mn, mx, pos, g)
			VPBLENDMD(g, rst, cond, rst)

			rst16, add16 := YMM(), YMM()
			VPMOVSDW(rst, rst16)
			VMOVDQU(Mem{Base: field(r, decT, b), Index: j, Scale: 2}, add16)
			VPSUBW(rst16, add16, add16)
			VMOVDQU(rst16, Mem{Base: field(r, decRst, b), Index: j, Scale: 2})
			VMOVDQU(add16, Mem{Base: field(r, decAdd, b), Index: j, Scale: 2})
			for _, dst := range [][2]int{{decMR, decFR}, {decMA, decFA}} {
				src := rst16
				if dst[0] == decMA {
					src = add16
				}
				m := csfWords(b, src, zy, YMM)
				VMOVDQU(m, Mem{Base: field(r, dst[0], b), Index: j, Scale: 2})
				VMOVDQU(fltWords(m, YMM), Mem{Base: field(r, dst[1], b), Index: j, Scale: 2})
			}
		}
	})
	VZEROUPPER()
	RET()
}

// zeroZ returns a zeroed 512-bit register.
func zeroZ() VecVirtual {
	z := ZMM()
	VPXORD(z, z, z)
	return z
}
