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
			for h := range 2 {
				xl := x
				if h == 1 {
					xl = ZMM()
					VPSRLQ(U8(32), x, xl)
				}
				q, c := ZMM(), ZMM()
				VPMULUDQ(xl, xl, q)
				VPADDQ(sqRnd[b], q, q)
				VPSRLQ(band.Offset(vbSq), q, q)
				VPMULDQ(xl, q, c)
				VPADDQ(cRnd[b], c, c)
				VPSRAQ(band.Offset(vbCs), c, c)
				VPADDQ(c, acc[b], acc[b])
			}
		}
	})
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
