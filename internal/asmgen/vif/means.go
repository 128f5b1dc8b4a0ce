package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The means kernels are the vertical halves of low-passing a scale for
// decimation: the same window walks as the vertical statistics kernels,
// summing only the samples.

func means8() {
	TEXT("vifMeans8AVX2", NOSPLIT, "func(rows **byte, coef *uint32, half int, mu1, mu2 *uint32, n int)")
	Pragma("noescape")
	Doc("vifMeans8AVX2 is vifMeans of 8-bit rows rounded by 8 bits, for the",
		"first n columns (a multiple of 16).")
	n := Load(Param("n"), GP64())
	j := GP64()
	XORQ(j, j)

	Label("block")
	CMPQ(j, n)
	JAE(LabelRef("done"))
	mu1, mu2 := newPairs8(), newPairs8()
	load := func(row GPVirtual) VecVirtual {
		v := YMM()
		VPMOVZXBW(Mem{Base: row, Index: j, Scale: 1}, v)
		return v
	}
	add := func(acc pairs8, a, b VecVirtual, t taps, centre bool) {
		p := interleave(a, b)
		for h := range p {
			addMeanPairs(p[h], acc[h], t, centre)
		}
	}
	t := startTaps(Load(Param("rows"), GP64()), Load(Param("coef"), GP64()), Load(Param("half"), GP64()))
	Label("tap")
	CMPQ(t.lo, t.hi)
	JAE(LabelRef("centre"))
	r0, r1, d0, d1 := t.rowPtrs()
	add(mu1, load(r0), load(r1), t, false)
	add(mu2, load(d0), load(d1), t, false)
	t.next()
	JMP(LabelRef("tap"))

	Label("centre")
	r, d := t.centrePtrs()
	zero := YMM()
	VPXOR(zero, zero, zero)
	add(mu1, load(r), zero, t, true)
	add(mu2, load(d), zero, t, true)

	storeMeans8(mu1, Mem{Base: Load(Param("mu1"), GP64()), Index: j, Scale: 4})
	storeMeans8(mu2, Mem{Base: Load(Param("mu2"), GP64()), Index: j, Scale: 4})
	ADDQ(U8(16), j)
	JMP(LabelRef("block"))

	Label("done")
	VZEROUPPER()
	RET()
}

func means16() {
	TEXT("vifMeans16AVX2", NOSPLIT, "func(rows **uint16, coef *uint32, half int, mu1, mu2 *uint32, n int, shift uint64, round uint32)")
	Pragma("noescape")
	Doc("vifMeans16AVX2 is vifMeans of 16-bit rows for the first n columns (a",
		"multiple of 16); round is half of 1<<shift, or 0.")
	n := Load(Param("n"), GP64())
	j := GP64()
	XORQ(j, j)

	Label("block")
	CMPQ(j, n)
	JAE(LabelRef("done"))
	var acc [2][2]VecVirtual // mu1, mu2 of columns 0-7 and 8-15
	for i := range acc {
		for h := range acc[i] {
			acc[i][h] = YMM()
			VPXOR(acc[i][h], acc[i][h], acc[i][h])
		}
	}
	add := func(acc [2]VecVirtual, a, b GPVirtual, t taps) {
		for h := range acc {
			v := YMM()
			VPMOVZXWD(Mem{Base: a, Index: j, Scale: 2, Disp: 16 * h}, v)
			if b != nil {
				w := YMM()
				VPMOVZXWD(Mem{Base: b, Index: j, Scale: 2, Disp: 16 * h}, w)
				VPADDD(w, v, v)
			}
			VPMULLD(t.w32(), v, v)
			VPADDD(v, acc[h], acc[h])
		}
	}
	t := startTaps(Load(Param("rows"), GP64()), Load(Param("coef"), GP64()), Load(Param("half"), GP64()))
	Label("tap")
	CMPQ(t.lo, t.hi)
	JAE(LabelRef("centre"))
	r0, r1, d0, d1 := t.rowPtrs()
	add(acc[0], r0, r1, t)
	add(acc[1], d0, d1, t)
	t.next()
	JMP(LabelRef("tap"))

	Label("centre")
	r, d := t.centrePtrs()
	add(acc[0], r, nil, t)
	add(acc[1], d, nil, t)

	round, count := YMM(), XMM()
	broadcast32(Load(Param("round"), GP32()), round)
	VMOVQ(paramAddr("shift"), count)
	for i, name := range []string{"mu1", "mu2"} {
		dst := Mem{Base: Load(Param(name), GP64()), Index: j, Scale: 4}
		for h, v := range acc[i] {
			VPADDD(round, v, v)
			VPSRLD(count, v, v)
			VMOVDQU(v, dst.Offset(32*h))
		}
	}
	ADDQ(U8(16), j)
	JMP(LabelRef("block"))

	Label("done")
	VZEROUPPER()
	RET()
}
