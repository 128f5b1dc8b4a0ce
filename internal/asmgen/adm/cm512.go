package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// cm0AVX512 is cm0 on 16 columns a block: the same lane arithmetic, with
// AVX-512's arithmetic 64-bit shift (VPSRAQ) in place of sra64, and the
// band parameters broadcast into registers once.
func cm0AVX512() {
	TEXT("admCM0AVX512", NOSPLIT, "func(r *[]int16, p *int32, n int) (h, v, d int64)")
	Pragma("noescape")
	Doc("admCM0AVX512 is admCM0AVX2 for the first n columns (a multiple of",
		"16, at least 16) of r.")
	r, p := Load(Param("r"), GP64()), Load(Param("p"), GP64())
	n := Load(Param("n"), GP64())
	load := func(ptr Register, k Register) VecVirtual {
		v := ZMM()
		VPMOVSXWD(Mem{Base: ptr, Index: k, Scale: 2}, v)
		return v
	}
	colSums512(r, n, load)
	z := zeroZ()
	var acc [3]VecVirtual
	var rf, sqRnd, cRnd [3]VecVirtual
	for b := range acc {
		acc[b] = zeroZ()
		band := Mem{Base: p, Disp: b * vbSize}
		rf[b], sqRnd[b], cRnd[b] = bcastZ(band.Offset(vbRF)), ZMM(), ZMM()
		VPBROADCASTQ(band.Offset(vbSqRnd), sqRnd[b])
		VPBROADCASTQ(band.Offset(vbCRnd), cRnd[b])
	}
	k8738, r12 := bcastZ(c8738), bcastZ(round12)
	loop("cm0w", n, 16, func(j Register) {
		thr := boxSums512(r, j)
		for b := range 3 {
			c := load(field(r, cmMsk, b), j)
			VPABSD(c, c)
			VPMULLD(k8738, c, c)
			VPADDD(r12, c, c)
			VPSRAD(U8(12), c, c)
			VPADDD(c, thr, thr)
			f := ZMM()
			VPMOVSXWD(Mem{Base: field(r, cmFMid, b), Index: j, Scale: 2, Disp: 2}, f)
			VPSUBD(f, thr, thr)
		}
		for b := range 3 {
			band := Mem{Base: p, Disp: b * vbSize}
			x, t := load(field(r, cmSrc, b), j), ZMM()
			VPMULLD(rf[b], x, x)
			VPABSD(x, x)
			VPSLLD(band.Offset(vbSub), thr, t)
			VPSUBD(t, x, x)
			VPMAXSD(z, x, x)
			cube512(x, acc[b], sqRnd[b], cRnd[b], band)
		}
	})
	storeSums512(acc)
	VZEROUPPER()
	RET()
}

// colSums512 is colSums on 16 columns a block; the last block is taken at
// n-14 so that it ends at n+2.
func colSums512(r, n Register, load func(p Register, k Register) VecVirtual) {
	cs := GP64()
	MOVQ(Mem{Base: r, Disp: cmColSum}, cs)
	body := func(k Register) {
		var s VecVirtual
		for _, f := range []int{cmFUp, cmFMid, cmFDn} {
			for b := range 3 {
				v := load(field(r, f, b), k)
				if s == nil {
					s = v
				} else {
					VPADDD(v, s, s)
				}
			}
		}
		VMOVDQU32(s, Mem{Base: cs, Index: k, Scale: 4})
	}
	loop("colsw", n, 16, body)
	k := GP64()
	LEAQ(Mem{Base: n, Disp: -14}, k)
	body(k)
}

// boxSums512 is boxSums for 16 columns.
func boxSums512(r, j Register) VecVirtual {
	cs := GP64()
	MOVQ(Mem{Base: r, Disp: cmColSum}, cs)
	thr := ZMM()
	VMOVDQU32(Mem{Base: cs, Index: j, Scale: 4}, thr)
	VPADDD(Mem{Base: cs, Index: j, Scale: 4, Disp: 4}, thr, thr)
	VPADDD(Mem{Base: cs, Index: j, Scale: 4, Disp: 8}, thr, thr)
	return thr
}

// cmNAVX512 is cmN on 16 columns a block, as cm0AVX512 is cm0.
func cmNAVX512() {
	TEXT("admCMNAVX512", NOSPLIT, "func(r *[]int32, p *int32, n int) (h, v, d int64)")
	Pragma("noescape")
	Doc("admCMNAVX512 is admCMNAVX2 for the first n columns (a multiple of",
		"16, at least 16) of r.")
	r, p := Load(Param("r"), GP64()), Load(Param("p"), GP64())
	n := Load(Param("n"), GP64())
	colSums512(r, n, func(ptr Register, k Register) VecVirtual {
		v := ZMM()
		VMOVDQU32(Mem{Base: ptr, Index: k, Scale: 4}, v)
		return v
	})
	z := zeroZ()
	odd := oddDwords()
	var acc [3]VecVirtual
	var rf, sqRnd, cRnd [3]VecVirtual
	for b := range acc {
		acc[b] = zeroZ()
		band := Mem{Base: p, Disp: b * vbSize}
		rf[b], sqRnd[b], cRnd[b] = bcastZ(band.Offset(vbRF)), ZMM(), ZMM()
		VPBROADCASTQ(band.Offset(vbSqRnd), sqRnd[b])
		VPBROADCASTQ(band.Offset(vbCRnd), cRnd[b])
	}
	k15, t31, r27 := bcastZ(c15th), ZMM(), ZMM()
	VPBROADCASTQ(two31q, t31)
	VPBROADCASTQ(round27q, r27)
	loop("cmNw", n, 16, func(j Register) {
		thr := boxSums512(r, j)
		for b := range 3 {
			// int32((|m|·(2^32/15) - 2^31) >> 32): the high halves.
			a, e, o := ZMM(), ZMM(), ZMM()
			VPABSD(Mem{Base: field(r, cmMsk, b), Index: j, Scale: 4}, a)
			VPSRLQ(U8(32), a, o)
			VPMULDQ(k15, a, e)
			VPMULDQ(k15, o, o)
			VPSUBQ(t31, e, e)
			VPSUBQ(t31, o, o)
			VPSRLQ(U8(32), e, e)
			VPBLENDMD(o, e, odd, e)
			VPADDD(e, thr, thr)
			VPSUBD(Mem{Base: field(r, cmFMid, b), Index: j, Scale: 4, Disp: 4}, thr, thr)
		}
		for b := range 3 {
			band := Mem{Base: p, Disp: b * vbSize}
			// x = max(|int32((src·rf + 2^27) >> 28)| - thr, 0).
			s, e, o := ZMM(), ZMM(), ZMM()
			VMOVDQU32(Mem{Base: field(r, cmSrc, b), Index: j, Scale: 4}, s)
			VPSRLQ(U8(32), s, o)
			VPMULDQ(rf[b], s, e)
			VPMULDQ(rf[b], o, o)
			VPADDQ(r27, e, e)
			VPADDQ(r27, o, o)
			VPSRLQ(U8(28), e, e)
			VPSRLQ(U8(28), o, o)
			VPSLLQ(U8(32), o, o)
			x := ZMM()
			VPBLENDMD(o, e, odd, x)
			VPABSD(x, x)
			VPSUBD(thr, x, x)
			VPMAXSD(z, x, x)
			cube512(x, acc[b], sqRnd[b], cRnd[b], band)
		}
	})
	storeSums512(acc)
	VZEROUPPER()
	RET()
}

// cube512 is cube on sixteen lanes, with VPSRAQ for the arithmetic shift.
func cube512(x, acc, sqRnd, cRnd VecVirtual, band Mem) {
	for h := range 2 {
		xl := x
		if h == 1 {
			xl = ZMM()
			VPSRLQ(U8(32), x, xl)
		}
		q, c := ZMM(), ZMM()
		VPMULUDQ(xl, xl, q)
		VPADDQ(sqRnd, q, q)
		VPSRLQ(band.Offset(vbSq), q, q)
		VPMULDQ(xl, q, c)
		VPADDQ(cRnd, c, c)
		VPSRAQ(band.Offset(vbCs), c, c)
		VPADDQ(c, acc, acc)
	}
}

// storeSums512 returns the sum of each accumulator's eight 64-bit lanes.
func storeSums512(acc [3]VecVirtual) {
	for b, a := range acc {
		y := YMM()
		VEXTRACTI64X4(U8(1), a, y)
		VPADDQ(y, a.AsY(), y)
		x := XMM()
		VEXTRACTI128(U8(1), y, x)
		VPADDQ(x, y.AsX(), x)
		s := XMM()
		VPSHUFD(U8(0x4e), x, s)
		VPADDQ(s, x, x)
		g := GP64()
		VMOVQ(x, g)
		Store(g, ReturnIndex(b))
	}
}
