package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

var (
	taps01 Mem // 3571 and 16004 as the two words of 32-bit lanes
	round8 Mem // 128 in 32-bit lanes
)

// bcastZ loads the first 32-bit lane of m into every lane of a 512-bit
// register.
func bcastZ(m Mem) VecVirtual {
	z := ZMM()
	VPBROADCASTD(m, z)
	return z
}

// vertical8AVX512 is the 8-bit vertical pass on 16 columns a block,
// without 32-bit multiplies: the sums x0+x4 and x1+x3 (at most 510) are
// packed as the two words of each lane and VPMADDWD weighs them with the
// outer taps at once; VPDPWSSD adds the centre's, x2 being a lane whose
// high word is zero against a lane holding 26386 and zero. Every product
// and sum is the exact non-negative integer the AVX2 kernel forms.
func vertical8AVX512() {
	TEXT("motionVert8AVX512", NOSPLIT, "func(out *uint32, a, b, c, d, e *byte, n int)")
	Pragma("noescape")
	Doc("motionVert8AVX512 is motionVert8AVX2 for n a multiple of 16.")
	out := Load(Param("out"), GP64())
	var rows [5]Register
	for k, p := range []string{"a", "b", "c", "d", "e"} {
		rows[k] = Load(Param(p), GP64())
	}
	n := Load(Param("n"), GP64())
	t01, t2 := bcastZ(taps01), bcastZ(tap2)
	loopStep("vertw", n, 16, func(j Register) {
		var x [5]VecVirtual
		for k := range x {
			x[k] = ZMM()
			VPMOVZXBD(Mem{Base: rows[k], Index: j, Scale: 1}, x[k])
		}
		s, t := ZMM(), ZMM()
		VPADDD(x[4], x[0], s)
		VPADDD(x[3], x[1], t)
		VPSLLD(U8(16), t, t)
		VPORD(t, s, s)
		acc := ZMM()
		VPMADDWD(t01, s, acc)
		VPDPWSSD(x[2], t2, acc)
		VMOVDQU32(acc, Mem{Base: out, Index: j, Scale: 4})
	})
	VZEROUPPER()
	RET()
}

// diff8AVX512 is the rounded vertical difference of two 8-bit frames'
// windows on 16 columns a block, taken from the samples rather than from
// stored vertical sums: the sums' difference is the filtered difference of
// the samples, so d_k = prev_k - cur_k (at most 255 in magnitude) is
// weighed as vertical8AVX512 weighs the samples, the outer pairs' sums (at
// most 510 in magnitude) packed as the two words of each lane for
// VPMADDWD, the centre's by VPDPWSSD against a lane holding 26386 and zero
// (d_2 sign-extended, its low word is d_2). The total is below 2^24 in
// magnitude, then rounded back by 8 bits with an arithmetic shift, as the
// portable kernel does.
func diff8AVX512() {
	TEXT("motionDiff8AVX512", NOSPLIT, "func(v *int32, p, c **byte, n int) bool")
	Pragma("noescape")
	Doc("motionDiff8AVX512 is motionDiff8 for the first n columns (a",
		"multiple of 16); p and c point at the five rows of each window.")
	v := Load(Param("v"), GP64())
	pp, cp := Load(Param("p"), GP64()), Load(Param("c"), GP64())
	var prow, crow [5]Register
	for k := range prow {
		prow[k], crow[k] = GP64(), GP64()
		MOVQ(Mem{Base: pp, Disp: 8 * k}, prow[k])
		MOVQ(Mem{Base: cp, Disp: 8 * k}, crow[k])
	}
	n := Load(Param("n"), GP64())
	t01, t2, half := bcastZ(taps01), bcastZ(tap2), bcastZ(round8)
	odd := K()
	m := GP32()
	MOVL(U32(0xaaaaaaaa), m)
	KMOVD(m, odd)
	any := ZMM()
	VPXORD(any, any, any)
	loopStep("diff8w", n, 16, func(j Register) {
		var d [5]VecVirtual
		for k := range d {
			a, b := ZMM(), ZMM()
			VPMOVZXBD(Mem{Base: prow[k], Index: j, Scale: 1}, a)
			VPMOVZXBD(Mem{Base: crow[k], Index: j, Scale: 1}, b)
			VPSUBD(b, a, a)
			d[k] = a
		}
		s, t := ZMM(), ZMM()
		VPADDD(d[4], d[0], s)
		VPADDD(d[3], d[1], t)
		VPSLLD(U8(16), t, t)
		VPBLENDMW(t, s, odd, s)
		acc := ZMM()
		VPMADDWD(t01, s, acc)
		VPDPWSSD(d[2], t2, acc)
		VPADDD(half, acc, acc)
		VPSRAD(U8(8), acc, acc)
		VMOVDQU32(acc, Mem{Base: v, Index: j, Scale: 4})
		VPORD(acc, any, any)
	})
	k := K()
	VPTESTMD(any, any, k)
	r := GP8()
	KORTESTW(k, k)
	SETNE(r)
	Store(r, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// rowSAD512 is rowSAD on 16 outputs a block. As there, each difference d
// is split into d>>8 (at most 256 in magnitude) and d&255, each part is
// filtered on its own, and the parts are combined before the rounding
// shift, which gives the 16.16 rounding of the whole. Both parts fit in
// words, so each is filtered as vertical8AVX512 filters samples: the
// outer pairs' sums packed as the two words of a lane for VPMADDWD, the
// centre by VPDPWSSD against 26386 and zero (the high part sign-extended,
// its low word is itself). The sums of magnitudes wrap in 32 bits, as
// the portable kernel's do.
func rowSAD512() {
	TEXT("motionRowSADAVX512", NOSPLIT, "func(row *int32, n int) uint32")
	Pragma("noescape")
	Doc("motionRowSADAVX512 is motionRowSAD for the first n outputs (a",
		"multiple of 16) of the padded row; it reads n+4 samples.")
	row := Load(Param("row"), GP64())
	n := Load(Param("n"), GP64())
	t01, t2, l8, r15 := bcastZ(taps01), bcastZ(tap2), bcastZ(low8), bcastZ(round15)
	odd := K()
	m := GP32()
	MOVL(U32(0xaaaaaaaa), m)
	KMOVD(m, odd)
	acc := ZMM()
	VPXORD(acc, acc, acc)
	filter := func(x [5]VecVirtual) VecVirtual {
		s, t := ZMM(), ZMM()
		VPADDD(x[4], x[0], s)
		VPADDD(x[3], x[1], t)
		VPSLLD(U8(16), t, t)
		VPBLENDMW(t, s, odd, s)
		f := ZMM()
		VPMADDWD(t01, s, f)
		VPDPWSSD(x[2], t2, f)
		return f
	}
	loopStep("sadw", n, 16, func(j Register) {
		var hi, lo [5]VecVirtual
		for k := range hi {
			hi[k], lo[k] = ZMM(), ZMM()
			VMOVDQU32(Mem{Base: row, Index: j, Scale: 4, Disp: 4 * k}, hi[k])
			VPANDD(l8, hi[k], lo[k])
			VPSRAD(U8(8), hi[k], hi[k])
		}
		a, b := filter(hi), filter(lo)
		VPADDD(r15, b, b)
		VPSRAD(U8(8), b, b)
		VPADDD(b, a, a)
		VPSRAD(U8(8), a, a)
		VPABSD(a, a)
		VPADDD(a, acc, acc)
	})
	y := YMM()
	VEXTRACTI64X4(U8(1), acc, y)
	VPADDD(y, acc.AsY(), y)
	x, z := XMM(), XMM()
	VEXTRACTI128(U8(1), y, x)
	VPADDD(x, y.AsX(), x)
	VPSHUFD(U8(0x4e), x, z)
	VPADDD(z, x, x)
	VPSHUFD(U8(0xb1), x, z)
	VPADDD(z, x, x)
	s := GP32()
	VMOVD(x, s)
	Store(s, ReturnIndex(0))
	VZEROUPPER()
	RET()
}
