package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Levels 1 to 3 of the transform take 32-bit input and need 64-bit sums.
// VPMULDQ multiplies the even 32-bit lanes into 64-bit lanes; the odd
// lanes go through it after a 32-bit shift. A rounded sum is truncated to
// 32 bits after shifting by at most 16, so a logical shift gives the same
// low half as the portable arithmetic one.

// Filter taps in eight 32-bit lanes, low-pass then high-pass.
var tapsLo, tapsHi [4]Mem

func dwtNConstants() {
	lo := []int32{15826, 27411, 7345, -4240}
	hi := []int32{-4240, -7345, 27411, -15826}
	names := []string{"0", "1", "2", "3"}
	for k := range 4 {
		tapsLo[k] = constant32("admTapLo"+names[k], uint32(lo[k]))
		tapsHi[k] = constant32("admTapHi"+names[k], uint32(hi[k]))
	}
}

// broadcastParam64 loads a 64-bit argument into every lane of a new vector.
func broadcastParam64(name string) VecVirtual {
	v, x := YMM(), XMM()
	VMOVQ(Load(Param(name), GP64()), x)
	VPBROADCASTQ(x, v)
	return v
}

// filter64 returns Σ taps[k]·x[k] + round in 64-bit lanes, from the low
// 32 bits of each 64-bit lane of x[k].
func filter64(x [4]VecVirtual, taps [4]Mem, round VecVirtual) VecVirtual {
	s := YMM()
	VPMULDQ(taps[0], x[0], s)
	for k := 1; k < 4; k++ {
		t := YMM()
		VPMULDQ(taps[k], x[k], t)
		VPADDQ(t, s, s)
	}
	VPADDQ(round, s, s)
	return s
}

func dwtNVert() {
	TEXT("admDWTNVertAVX2", NOSPLIT, "func(lo, hi *int32, r0, r1, r2, r3 *int32, n int, shift uint64, round int64)")
	Pragma("noescape")
	Doc("admDWTNVertAVX2 is admDWTNVert for the first n columns (a multiple",
		"of 8) of rows r0 to r3.")
	lo, hi := Load(Param("lo"), GP64()), Load(Param("hi"), GP64())
	var rows [4]Register
	for k, name := range []string{"r0", "r1", "r2", "r3"} {
		rows[k] = Load(Param(name), GP64())
	}
	n := Load(Param("n"), GP64())
	shift := shiftCount(paramAddr("shift"))
	round := broadcastParam64("round")
	loop("vertN", n, 8, func(j Register) {
		var even, odd [4]VecVirtual
		for k := range even {
			even[k], odd[k] = YMM(), YMM()
			VMOVDQU(Mem{Base: rows[k], Index: j, Scale: 4}, even[k])
			VPSRLQ(U8(32), even[k], odd[k])
		}
		for _, f := range []struct {
			taps [4]Mem
			dst  Register
		}{{tapsLo, lo}, {tapsHi, hi}} {
			e, o := filter64(even, f.taps, round), filter64(odd, f.taps, round)
			VPSRLQ(shift, e, e)
			VPSRLQ(shift, o, o)
			VMOVDQU(combineEvenOdd(e, o), Mem{Base: f.dst, Index: j, Scale: 4})
		}
	})
	VZEROUPPER()
	RET()
}

func dwtNHoriz() {
	TEXT("admDWTNHorizAVX2", NOSPLIT, "func(ll, dh, dv, dd *int32, lo, hi *int32, n int, shift uint64, round int64)")
	Pragma("noescape")
	Doc("admDWTNHorizAVX2 is admDWTNHoriz for the first n outputs (a multiple",
		"of 8); lo and hi must hold 2n+3 samples. ll may be nil.")
	ll := Load(Param("ll"), GP64())
	dh, dv, dd := Load(Param("dh"), GP64()), Load(Param("dv"), GP64()), Load(Param("dd"), GP64())
	lo, hi := Load(Param("lo"), GP64()), Load(Param("hi"), GP64())
	n := Load(Param("n"), GP64())
	shift := shiftCount(paramAddr("shift"))
	round := broadcastParam64("round")
	order := YMM()
	VMOVDQU(evenFirst, order)
	// Output j reads samples 2j .. 2j+3: the even 32-bit lanes of the
	// rows read from 2j, 2j+1, 2j+2 and 2j+3 hold them for outputs j to
	// j+3 (group 0); the rows read 8 samples on, for j+4 to j+7 (group 1).
	loop("horizN", n, 8, func(j Register) {
		out := func(in Register, taps [4]Mem, dst Register) {
			var g [2]VecVirtual
			for h := range g {
				var x [4]VecVirtual
				for k := range x {
					x[k] = YMM()
					VMOVDQU(Mem{Base: in, Index: j, Scale: 8, Disp: 32*h + 4*k}, x[k])
				}
				g[h] = filter64(x, taps, round)
				VPSRLQ(shift, g[h], g[h])
			}
			// Interleave the groups' low halves, then put them in order.
			v := combineEvenOdd(g[0], g[1])
			VPERMD(v, order, v)
			VMOVDQU(v, Mem{Base: dst, Index: j, Scale: 4})
		}
		out(lo, tapsHi, dv)
		out(hi, tapsLo, dh)
		out(hi, tapsHi, dd)
		TESTQ(ll, ll)
		JZ(LabelRef("horizNNoLL"))
		out(lo, tapsLo, ll)
		Label("horizNNoLL")
	})
	VZEROUPPER()
	RET()
}
