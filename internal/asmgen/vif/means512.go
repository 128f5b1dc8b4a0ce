package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func means8x512() {
	TEXT("vifMeans8AVX512", NOSPLIT, "func(rows **byte, coef *uint32, half int, mu1, mu2 *uint32, n int)")
	Pragma("noescape")
	Doc("vifMeans8AVX512 is vifMeans of 8-bit rows rounded by 8 bits, for",
		"the first n columns (a multiple of 32).")
	n := Load(Param("n"), GP64())
	j := GP64()
	XORQ(j, j)

	Label("block")
	CMPQ(j, n)
	JAE(LabelRef("done"))
	mu1, mu2 := newPairs512(), newPairs512()
	load := func(row GPVirtual) VecVirtual {
		v := ZMM()
		VPMOVZXBW(Mem{Base: row, Index: j, Scale: 1}, v)
		return v
	}
	// add sums c·(a+b) pairwise; c16 is nil at the centre.
	add := func(acc pairs8, a, b, c16, c32 VecVirtual) {
		p := interleave512(a, b)
		for h := range p {
			if c16 != nil {
				VPDPWSSD(p[h], c16, acc[h])
				continue
			}
			v := ZMM()
			VPMULLD(c32, p[h], v)
			VPADDD(v, acc[h], acc[h])
		}
	}
	t := startTaps(Load(Param("rows"), GP64()), Load(Param("coef"), GP64()), Load(Param("half"), GP64()))
	Label("tap")
	CMPQ(t.lo, t.hi)
	JAE(LabelRef("centre"))
	r0, r1, d0, d1 := t.rowPtrs()
	c16 := bcast32(t.w16())
	add(mu1, load(r0), load(r1), c16, nil)
	add(mu2, load(d0), load(d1), c16, nil)
	t.next()
	JMP(LabelRef("tap"))

	Label("centre")
	r, d := t.centrePtrs()
	zero, c32 := zeroZ(), bcast32(t.w32())
	add(mu1, load(r), zero, nil, c32)
	add(mu2, load(d), zero, nil, c32)

	for i, name := range []string{"mu1", "mu2"} {
		p := []pairs8{mu1, mu2}[i]
		for _, v := range p {
			VPADDD(round8, v, v)
			VPSRLD(U8(8), v, v)
		}
		// The pairs hold columns 8L..8L+3 and 8L+4..8L+7 in lane L.
		dst := Mem{Base: Load(Param(name), GP64()), Index: j, Scale: 4}
		VMOVDQU64(permute2(quadsLo, p[0], p[1], true), dst)
		VMOVDQU64(permute2(quadsHi, p[0], p[1], true), dst.Offset(64))
	}
	ADDQ(U8(32), j)
	JMP(LabelRef("block"))

	Label("done")
	VZEROUPPER()
	RET()
}

func means16x512() {
	TEXT("vifMeans16AVX512", NOSPLIT, "func(rows **uint16, coef *uint32, half int, mu1, mu2 *uint32, n int, shift uint64, round uint32)")
	Pragma("noescape")
	Doc("vifMeans16AVX512 is vifMeans of 16-bit rows for the first n columns",
		"(a multiple of 32); round is half of 1<<shift, or 0.")
	n := Load(Param("n"), GP64())
	j := GP64()
	XORQ(j, j)

	Label("block")
	CMPQ(j, n)
	JAE(LabelRef("done"))
	var acc [2][2]VecVirtual // mu1, mu2 of columns 0-15 and 16-31
	for i := range acc {
		acc[i][0], acc[i][1] = zeroZ(), zeroZ()
	}
	add := func(acc [2]VecVirtual, a, b GPVirtual, c VecVirtual) {
		for h := range acc {
			v := ZMM()
			VPMOVZXWD(Mem{Base: a, Index: j, Scale: 2, Disp: 32 * h}, v)
			if b != nil {
				w := ZMM()
				VPMOVZXWD(Mem{Base: b, Index: j, Scale: 2, Disp: 32 * h}, w)
				VPADDD(w, v, v)
			}
			VPMULLD(c, v, v)
			VPADDD(v, acc[h], acc[h])
		}
	}
	t := startTaps(Load(Param("rows"), GP64()), Load(Param("coef"), GP64()), Load(Param("half"), GP64()))
	Label("tap")
	CMPQ(t.lo, t.hi)
	JAE(LabelRef("centre"))
	r0, r1, d0, d1 := t.rowPtrs()
	c := bcast32(t.w32())
	add(acc[0], r0, r1, c)
	add(acc[1], d0, d1, c)
	t.next()
	JMP(LabelRef("tap"))

	Label("centre")
	r, d := t.centrePtrs()
	c = bcast32(t.w32())
	add(acc[0], r, nil, c)
	add(acc[1], d, nil, c)

	round, count := ZMM(), XMM()
	VPBROADCASTD(Load(Param("round"), GP32()), round)
	VMOVQ(paramAddr("shift"), count)
	for i, name := range []string{"mu1", "mu2"} {
		dst := Mem{Base: Load(Param(name), GP64()), Index: j, Scale: 4}
		for h, v := range acc[i] {
			VPADDD(round, v, v)
			VPSRLD(count, v, v)
			VMOVDQU64(v, dst.Offset(64*h))
		}
	}
	ADDQ(U8(32), j)
	JMP(LabelRef("block"))

	Label("done")
	VZEROUPPER()
	RET()
}
