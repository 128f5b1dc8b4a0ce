package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// cubeNAVX512 is admCubeN on 16 samples a block, each 64-bit lane holding
// one |v| (at most 2^31). The square is a 32x32-bit VPMULUDQ; the rounded
// square q can reach 2^32+1 (shift 30), so q·|v| is formed from q's low and
// high halves, two VPMULUDQ, which is the full 64-bit product the portable
// code takes (it stays below 2^64, so nothing wraps in either).
func cubeNAVX512() {
	TEXT("admCubeNAVX512", NOSPLIT, "func(row *int32, n int, sq, cs, sqRnd, cRnd uint64) uint64")
	Pragma("noescape")
	Doc("admCubeNAVX512 is admCubeN for the first n samples (a multiple of",
		"16) of row; sqRnd and cRnd are its two roundings.")
	row := Load(Param("row"), GP64())
	n := Load(Param("n"), GP64())
	sq, cs := shiftCount(paramAddr("sq")), shiftCount(paramAddr("cs"))
	sqRnd, cRnd := ZMM(), ZMM()
	VPBROADCASTQ(paramAddr("sqRnd"), sqRnd)
	VPBROADCASTQ(paramAddr("cRnd"), cRnd)
	acc := [2]VecVirtual{zeroZ(), zeroZ()}
	loop("cubeNw", n, 16, func(j Register) {
		for h := range 2 {
			a, u := YMM(), ZMM()
			VPABSD(Mem{Base: row, Index: j, Scale: 4, Disp: 32 * h}, a)
			VPMOVZXDQ(a, u)
			q, lo, hi := ZMM(), ZMM(), ZMM()
			VPMULUDQ(u, u, q)
			VPADDQ(sqRnd, q, q)
			VPSRLQ(sq, q, q)
			VPMULUDQ(u, q, lo)
			VPSRLQ(U8(32), q, hi)
			VPMULUDQ(u, hi, hi)
			VPSLLQ(U8(32), hi, hi)
			VPADDQ(hi, lo, lo)
			VPADDQ(cRnd, lo, lo)
			VPSRLQ(cs, lo, lo)
			VPADDQ(lo, acc[h], acc[h])
		}
	})
	VPADDQ(acc[1], acc[0], acc[0])
	y := YMM()
	VEXTRACTI64X4(U8(1), acc[0], y)
	VPADDQ(y, acc[0].AsY(), y)
	x := XMM()
	VEXTRACTI128(U8(1), y, x)
	VPADDQ(x, y.AsX(), x)
	s := XMM()
	VPSHUFD(U8(0x4e), x, s)
	VPADDQ(s, x, x)
	g := GP64()
	VMOVQ(x, g)
	Store(g, ReturnIndex(0))
	VZEROUPPER()
	RET()
}
