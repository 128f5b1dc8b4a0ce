package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// dwt0Horiz512 is dwt0Horiz on 32 outputs a block: the same multiply-adds
// per lane (VPDPWSSD adds the second pair's products as VPADDD would,
// wrapping alike), narrowed with VPMOVSDW, which saturates as VPACKSSDW
// does but keeps the lanes in order.
func dwt0Horiz512() {
	TEXT("admDWT0HorizAVX512", NOSPLIT, "func(ll *int32, dh, dv, dd *int16, lo, hi *int16, n int)")
	Pragma("noescape")
	Doc("admDWT0HorizAVX512 is admDWT0Horiz for the first n outputs (a",
		"multiple of 32); lo and hi must hold 2n+2 words.")
	ll := Load(Param("ll"), GP64())
	dh, dv, dd := Load(Param("dh"), GP64()), Load(Param("dv"), GP64()), Load(Param("dd"), GP64())
	lo, hi := Load(Param("lo"), GP64()), Load(Param("hi"), GP64())
	n := Load(Param("n"), GP64())
	// The constants are laid out for eight lanes: broadcast the first.
	bcast := func(m Mem) VecVirtual {
		z := ZMM()
		VPBROADCASTD(m, z)
		return z
	}
	round := bcast(round16)
	l01, l23, h01, h23 := bcast(lo01), bcast(lo23), bcast(hi01), bcast(hi23)
	filter := func(a, b [2]VecVirtual, c01, c23 VecVirtual) [2]VecVirtual {
		var s [2]VecVirtual
		for h := range s {
			s[h] = ZMM()
			VPMADDWD(c01, a[h], s[h])
			VPDPWSSD(b[h], c23, s[h])
			VPADDD(round, s[h], s[h])
			VPSRAD(U8(16), s[h], s[h])
		}
		return s
	}
	store16 := func(s [2]VecVirtual, dst Register, j Register) {
		for h := range s {
			y := YMM()
			VPMOVSDW(s[h], y)
			VMOVDQU(y, Mem{Base: dst, Index: j, Scale: 2, Disp: 32 * h})
		}
	}
	loop("horiz", n, 32, func(j Register) {
		var la, lb, ha, hb [2]VecVirtual
		for h := range 2 {
			la[h], lb[h], ha[h], hb[h] = ZMM(), ZMM(), ZMM(), ZMM()
			VMOVDQU64(Mem{Base: lo, Index: j, Scale: 4, Disp: 64 * h}, la[h])
			VMOVDQU64(Mem{Base: lo, Index: j, Scale: 4, Disp: 64*h + 4}, lb[h])
			VMOVDQU64(Mem{Base: hi, Index: j, Scale: 4, Disp: 64 * h}, ha[h])
			VMOVDQU64(Mem{Base: hi, Index: j, Scale: 4, Disp: 64*h + 4}, hb[h])
		}
		a := filter(la, lb, l01, l23)
		VMOVDQU64(a[0], Mem{Base: ll, Index: j, Scale: 4})
		VMOVDQU64(a[1], Mem{Base: ll, Index: j, Scale: 4, Disp: 64})
		store16(filter(la, lb, h01, h23), dv, j)
		store16(filter(ha, hb, l01, l23), dh, j)
		store16(filter(ha, hb, h01, h23), dd, j)
	})
	VZEROUPPER()
	RET()
}

// dwt0Vert8AVX512 is dwt0Vert8 on 32 columns a block: unpacking and
// packing work within 128-bit lanes on either width, so the column order
// comes back the same; VPDPWSSD adds the second pair of rows' products as
// VPADDD would.
func dwt0Vert8AVX512() {
	TEXT("admDWT0Vert8AVX512", NOSPLIT, "func(lo, hi *int16, r0, r1, r2, r3 *byte, n int)")
	Pragma("noescape")
	Doc("admDWT0Vert8AVX512 is admDWT0Vert8 for the first n columns (a",
		"multiple of 32) of rows r0 to r3.")
	var rows [4]Register
	for k, name := range []string{"r0", "r1", "r2", "r3"} {
		rows[k] = Load(Param(name), GP64())
	}
	lo, hi := Load(Param("lo"), GP64()), Load(Param("hi"), GP64())
	n := Load(Param("n"), GP64())
	centre, round := ZMM(), bcastZ(round8)
	VPBROADCASTW(centre8, centre)
	c := [2][2]VecVirtual{{bcastZ(lo01), bcastZ(lo23)}, {bcastZ(hi01), bcastZ(hi23)}}
	loop("vertw", n, 32, func(j Register) {
		var u [4]VecVirtual
		for k := range u {
			u[k] = ZMM()
			VPMOVZXBW(Mem{Base: rows[k], Index: j, Scale: 1}, u[k])
			VPSUBW(centre, u[k], u[k])
		}
		var p01, p23 [2]VecVirtual
		for h := range 2 {
			p01[h], p23[h] = ZMM(), ZMM()
		}
		VPUNPCKLWD(u[1], u[0], p01[0])
		VPUNPCKHWD(u[1], u[0], p01[1])
		VPUNPCKLWD(u[3], u[2], p23[0])
		VPUNPCKHWD(u[3], u[2], p23[1])
		for o, dst := range []Register{lo, hi} {
			var s [2]VecVirtual
			for h := range s {
				s[h] = ZMM()
				VPMADDWD(c[o][0], p01[h], s[h])
				VPDPWSSD(p23[h], c[o][1], s[h])
				VPADDD(round, s[h], s[h])
				VPSRAD(U8(8), s[h], s[h])
			}
			VPACKSSDW(s[1], s[0], s[0])
			VMOVDQU64(s[0], Mem{Base: dst, Index: j, Scale: 2})
		}
	})
	VZEROUPPER()
	RET()
}
