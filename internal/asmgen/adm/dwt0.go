package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Level 0 of the transform works on 16-bit words throughout. The samples
// are centred on zero first (u - 2^(bpc-1)), which leaves the low-pass
// sums unchanged because its taps sum to the 46342 the portable code
// subtracts times 2^(bpc-1), and the high-pass sums too because its taps
// sum to zero. Centred samples fit in 16 bits, so each pair of taps is one
// VPMADDWD, and every sum then fits in 32 bits: |u| <= 2^15 and the taps'
// magnitudes add up to 54822 < 2^16. The rounded results fit in 16 bits
// (27412 at most), so packing with signed saturation is exact.

// Tap pairs (c[2i] in the low word, c[2i+1] in the high word of each
// 32-bit lane) of the low-pass and high-pass filters.
var lo01, lo23, hi01, hi23 Mem

// round16 is 1<<15 in 32-bit lanes.
var round16 Mem

func tapPair(name string, a, b int16) Mem {
	return constant32(name, uint32(uint16(a))|uint32(uint16(b))<<16)
}

func dwtConstants() {
	lo01 = tapPair("admLo01", 15826, 27411)
	lo23 = tapPair("admLo23", 7345, -4240)
	hi01 = tapPair("admHi01", -4240, -7345)
	hi23 = tapPair("admHi23", 27411, -15826)
	round16 = constant32("admRound16", 1<<15)
}

// vertical0 emits the body of a level-0 vertical kernel: load returns one
// row's 16 samples at column j as words, centre (words) and round
// (doublewords) hold 2^(bpc-1), shift the bpc.
func vertical0(load func(row int, j Register) VecVirtual, centre, round VecVirtual, shift VecVirtual) {
	lo, hi := Load(Param("lo"), GP64()), Load(Param("hi"), GP64())
	n := Load(Param("n"), GP64())
	loop("vert", n, 16, func(j Register) {
		var u [4]VecVirtual
		for k := range u {
			u[k] = load(k, j)
			VPSUBW(centre, u[k], u[k])
		}
		// Words of rows 0 and 1, and of rows 2 and 3, interleaved: the low
		// halves hold columns 0-3 and 8-11, the high ones 4-7 and 12-15.
		var p01, p23 [2]VecVirtual
		for h := range 2 {
			p01[h], p23[h] = YMM(), YMM()
		}
		VPUNPCKLWD(u[1], u[0], p01[0])
		VPUNPCKHWD(u[1], u[0], p01[1])
		VPUNPCKLWD(u[3], u[2], p23[0])
		VPUNPCKHWD(u[3], u[2], p23[1])
		for _, out := range []struct {
			c01, c23 Mem
			dst      Register
		}{{lo01, lo23, lo}, {hi01, hi23, hi}} {
			var s [2]VecVirtual
			for h := range s {
				s[h] = YMM()
				t := YMM()
				VPMADDWD(out.c01, p01[h], s[h])
				VPMADDWD(out.c23, p23[h], t)
				VPADDD(t, s[h], s[h])
				VPADDD(round, s[h], s[h])
				VPSRAD(shift, s[h], s[h])
			}
			// Packing the two halves restores the column order.
			VPACKSSDW(s[1], s[0], s[0])
			VMOVDQU(s[0], Mem{Base: out.dst, Index: j, Scale: 2})
		}
	})
	VZEROUPPER()
	RET()
}

func dwt0Vert8() {
	TEXT("admDWT0Vert8AVX2", NOSPLIT, "func(lo, hi *int16, r0, r1, r2, r3 *byte, n int)")
	Pragma("noescape")
	Doc("admDWT0Vert8AVX2 is admDWT0Vert8 for the first n columns (a multiple",
		"of 16) of rows r0 to r3.")
	var rows [4]Register
	for k, name := range []string{"r0", "r1", "r2", "r3"} {
		rows[k] = Load(Param(name), GP64())
	}
	centre, round, shift := YMM(), YMM(), XMM()
	VMOVDQU(centre8, centre)
	VMOVDQU(round8, round)
	VMOVQ(shift8, shift)
	vertical0(func(row int, j Register) VecVirtual {
		u := YMM()
		VPMOVZXBW(Mem{Base: rows[row], Index: j, Scale: 1}, u)
		return u
	}, centre, round, shift)
}

func dwt0Vert16() {
	TEXT("admDWT0Vert16AVX2", NOSPLIT, "func(lo, hi *int16, r0, r1, r2, r3 *uint16, n int, bpc uint64, half int32)")
	Pragma("noescape")
	Doc("admDWT0Vert16AVX2 is admDWT0Vert16 for the first n columns (a",
		"multiple of 16) of rows r0 to r3; half is 1 << (bpc-1).")
	var rows [4]Register
	for k, name := range []string{"r0", "r1", "r2", "r3"} {
		rows[k] = Load(Param(name), GP64())
	}
	centre, round, h := YMM(), YMM(), XMM()
	VMOVD(Load(Param("half"), GP32()), h)
	VPBROADCASTW(h, centre)
	VPBROADCASTD(h, round)
	shift := XMM()
	VMOVQ(paramAddr("bpc"), shift)
	vertical0(func(row int, j Register) VecVirtual {
		u := YMM()
		VMOVDQU(Mem{Base: rows[row], Index: j, Scale: 2}, u)
		return u
	}, centre, round, shift)
}

func dwt0Horiz() {
	TEXT("admDWT0HorizAVX2", NOSPLIT, "func(ll *int32, dh, dv, dd *int16, lo, hi *int16, n int)")
	Pragma("noescape")
	Doc("admDWT0HorizAVX2 is admDWT0Horiz for the first n outputs (a multiple",
		"of 16); lo and hi must hold 2n+2 words.")
	ll := Load(Param("ll"), GP64())
	dh, dv, dd := Load(Param("dh"), GP64()), Load(Param("dv"), GP64()), Load(Param("dd"), GP64())
	lo, hi := Load(Param("lo"), GP64()), Load(Param("hi"), GP64())
	n := Load(Param("n"), GP64())
	round := YMM()
	VMOVDQU(round16, round)
	// filter returns the outputs j .. j+15 of one input row and one filter
	// as two vectors of eight 32-bit sums: output j reads words 2j .. 2j+3,
	// which are the 32-bit lanes j and j+1 of the row read from word 2j.
	filter := func(a, b [2]VecVirtual, c01, c23 Mem) [2]VecVirtual {
		var s [2]VecVirtual
		for h := range s {
			s[h] = YMM()
			t := YMM()
			VPMADDWD(c01, a[h], s[h])
			VPMADDWD(c23, b[h], t)
			VPADDD(t, s[h], s[h])
			VPADDD(round, s[h], s[h])
			VPSRAD(U8(16), s[h], s[h])
		}
		return s
	}
	store16 := func(s [2]VecVirtual, dst Register, j Register) {
		VPACKSSDW(s[1], s[0], s[0])
		VPERMQ(U8(0xd8), s[0], s[0])
		VMOVDQU(s[0], Mem{Base: dst, Index: j, Scale: 2})
	}
	loop("horiz", n, 16, func(j Register) {
		var la, lb, ha, hb [2]VecVirtual
		for h := range 2 {
			la[h], lb[h], ha[h], hb[h] = YMM(), YMM(), YMM(), YMM()
			VMOVDQU(Mem{Base: lo, Index: j, Scale: 4, Disp: 32 * h}, la[h])
			VMOVDQU(Mem{Base: lo, Index: j, Scale: 4, Disp: 32*h + 4}, lb[h])
			VMOVDQU(Mem{Base: hi, Index: j, Scale: 4, Disp: 32 * h}, ha[h])
			VMOVDQU(Mem{Base: hi, Index: j, Scale: 4, Disp: 32*h + 4}, hb[h])
		}
		a := filter(la, lb, lo01, lo23)
		VMOVDQU(a[0], Mem{Base: ll, Index: j, Scale: 4})
		VMOVDQU(a[1], Mem{Base: ll, Index: j, Scale: 4, Disp: 32})
		store16(filter(la, lb, hi01, hi23), dv, j)
		store16(filter(ha, hb, lo01, lo23), dh, j)
		store16(filter(ha, hb, hi01, hi23), dd, j)
	})
	VZEROUPPER()
	RET()
}
