package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

var (
	taps01 Mem // 3571 and 16004 as the two words of 32-bit lanes
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
