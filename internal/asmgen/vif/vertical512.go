package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func vertical8x512() {
	TEXT("vifVertical8AVX512", NOSPLIT, "func(rows **byte, coef *uint32, half int, dst *uint16, stride int, n int)")
	Pragma("noescape")
	Doc("vifVertical8AVX512 is vifVertical8 for the first n columns (a",
		"multiple of 32), into the vector kernels' statistics rows at dst.")
	n := Load(Param("n"), GP64())
	j := GP64()
	XORQ(j, j)

	Label("block")
	CMPQ(j, n)
	JAE(LabelRef("done"))
	mu1, mu2, xx, yy, xy := newPairs512(), newPairs512(), newPairs512(), newPairs512(), newPairs512()
	// add is vertical8's, with the taps in registers; c16 is nil at the
	// centre, whose pairs VPMULLD scales. Off the centre, the products of
	// 8-bit samples (below 1<<16) are formed as words by VPMULLW, biased
	// by -1<<15 to be signed, and scaled and summed by VPDPWSSD: each pair
	// of taps then adds c·(p0+p1) - c<<16, and the c<<16 are added back
	// once at the end (biasSum). The sums wrap in 32 bits as before and
	// their true values fit, so they come out exact. This takes the
	// 32-bit multiplies (VPMULLD) out of all but the centre tap.
	biasSum := GP32()
	XORL(biasSum, biasSum)
	add := func(r0, r1, d0, d1, c16, c32 VecVirtual) {
		ir, id := interleave512(r0, r1), interleave512(d0, d1)
		for h := range ir {
			for _, m := range []struct{ p, acc VecVirtual }{{ir[h], mu1[h]}, {id[h], mu2[h]}} {
				if c16 != nil {
					VPDPWSSD(m.p, c16, m.acc)
					continue
				}
				v := ZMM()
				VPMULLD(c32, m.p, v)
				VPADDD(v, m.acc, m.acc)
			}
			for _, m := range []struct{ a, b, acc VecVirtual }{{ir[h], ir[h], xx[h]}, {id[h], id[h], yy[h]}, {id[h], ir[h], xy[h]}} {
				v := ZMM()
				if c16 != nil {
					VPMULLW(m.a, m.b, v)
					VPXORD(bias16, v, v)
					VPDPWSSD(v, c16, m.acc)
					continue
				}
				VPMADDWD(m.a, m.b, v)
				VPMULLD(c32, v, v)
				VPADDD(v, m.acc, m.acc)
			}
		}
	}
	load := func(row GPVirtual) VecVirtual {
		v := ZMM()
		VPMOVZXBW(Mem{Base: row, Index: j, Scale: 1}, v)
		return v
	}
	t := startTaps(Load(Param("rows"), GP64()), Load(Param("coef"), GP64()), Load(Param("half"), GP64()))
	Label("tap")
	CMPQ(t.lo, t.hi)
	JAE(LabelRef("centre"))
	r0, r1, d0, d1 := t.rowPtrs()
	add(load(r0), load(r1), load(d0), load(d1), bcast32(t.w16()), nil)
	ADDL(t.w32(), biasSum)
	t.next()
	JMP(LabelRef("tap"))

	Label("centre")
	r, d := t.centrePtrs()
	zero := zeroZ()
	add(load(r), zero, load(d), zero, nil, bcast32(t.w32()))
	SHLL(U8(16), biasSum)
	corr := ZMM()
	broadcast32(biasSum, corr)
	for _, p := range []pairs8{xx, yy, xy} {
		for _, v := range p {
			VPADDD(corr, v, v)
		}
	}

	out := rowsAt{Load(Param("dst"), GP64()), Load(Param("stride"), GP64()), j}
	tmp := GP64()
	storeMeans32(mu1, out.row(rowMu1, tmp))
	storeMeans32(mu2, out.row(rowMu2, tmp))
	storeMoments32(xx, out.row(rowXXHi, tmp), out.row(rowXXLo, GP64()))
	storeMoments32(yy, out.row(rowYYHi, tmp), out.row(rowYYLo, GP64()))
	storeMoments32(xy, out.row(rowXYHi, tmp), out.row(rowXYLo, GP64()))
	ADDQ(U8(32), j)
	JMP(LabelRef("block"))

	Label("done")
	VZEROUPPER()
	RET()
}

func vertical16x512() {
	TEXT("vifVertical16AVX512", NOSPLIT, "func(rows **uint16, coef *uint32, half int, dst *uint16, stride int, n int, muShift uint64, muRound uint32, sqScale float64)")
	Pragma("noescape")
	Doc("vifVertical16AVX512 is vifVertical16 for the first n columns (a",
		"multiple of 16), into the vector kernels' statistics rows at dst.",
		"sqScale is 2^-sqShift and sqShift must be at least 1.")
	n := Load(Param("n"), GP64())
	j := GP64()
	XORQ(j, j)

	Label("block")
	CMPQ(j, n)
	JAE(LabelRef("done"))
	mu1, mu2 := zeroZ(), zeroZ()
	var xx, yy, xy [2]VecVirtual
	for _, v := range []*[2]VecVirtual{&xx, &yy, &xy} {
		v[0], v[1] = zeroZ(), zeroZ()
	}
	// addMean adds c·(a+b) over 16 columns; b may be nil.
	addMean := func(acc VecVirtual, a, b GPVirtual, c VecVirtual) {
		v := ZMM()
		VPMOVZXWD(Mem{Base: a, Index: j, Scale: 2}, v)
		if b != nil {
			w := ZMM()
			VPMOVZXWD(Mem{Base: b, Index: j, Scale: 2}, w)
			VPADDD(w, v, v)
		}
		VPMULLD(c, v, v)
		VPADDD(v, acc, acc)
	}
	// loadF converts 8 samples at column j+8h to float64.
	loadF := func(row GPVirtual, h int) VecVirtual {
		y, f := YMM(), ZMM()
		VPMOVZXWD(Mem{Base: row, Index: j, Scale: 2, Disp: 16 * h}, y)
		VCVTDQ2PD(y, f)
		return f
	}
	// addMoment adds c·(a0·b0 + a1·b1); a1 and b1 may be nil.
	addMoment := func(acc, a0, b0, a1, b1, c VecVirtual) {
		v := ZMM()
		VMULPD(b0, a0, v)
		if a1 != nil {
			VFMADD231PD(b1, a1, v)
		}
		VFMADD231PD(c, v, acc)
	}
	coefs := func(t taps) (c32, f VecVirtual) {
		f = ZMM()
		VBROADCASTSD(t.f64(), f)
		return bcast32(t.w32()), f
	}

	t := startTaps(Load(Param("rows"), GP64()), Load(Param("coef"), GP64()), Load(Param("half"), GP64()))
	Label("tap")
	CMPQ(t.lo, t.hi)
	JAE(LabelRef("centre"))
	r0, r1, d0, d1 := t.rowPtrs()
	c32, f := coefs(t)
	addMean(mu1, r0, r1, c32)
	addMean(mu2, d0, d1, c32)
	for h := 0; h < 2; h++ {
		fr0, fr1, fd0, fd1 := loadF(r0, h), loadF(r1, h), loadF(d0, h), loadF(d1, h)
		addMoment(xx[h], fr0, fr0, fr1, fr1, f)
		addMoment(yy[h], fd0, fd0, fd1, fd1, f)
		addMoment(xy[h], fr0, fd0, fr1, fd1, f)
	}
	t.next()
	JMP(LabelRef("tap"))

	Label("centre")
	r, d := t.centrePtrs()
	c32, f = coefs(t)
	addMean(mu1, r, nil, c32)
	addMean(mu2, d, nil, c32)
	for h := 0; h < 2; h++ {
		fr, fd := loadF(r, h), loadF(d, h)
		addMoment(xx[h], fr, fr, nil, nil, f)
		addMoment(yy[h], fd, fd, nil, nil, f)
		addMoment(xy[h], fr, fd, nil, nil, f)
	}

	out := rowsAt{Load(Param("dst"), GP64()), Load(Param("stride"), GP64()), j}
	round, count := ZMM(), XMM()
	VPBROADCASTD(Load(Param("muRound"), GP32()), round)
	VMOVQ(paramAddr("muShift"), count)
	tmp := GP64()
	for i, v := range []VecVirtual{mu1, mu2} {
		VPADDD(round, v, v)
		VPSRLD(count, v, v)
		storeNarrow(v, out.row(rowMu1+i, tmp))
	}
	// Moments: rounded as in vertical16, then the low dwords of the 16
	// float64 picked out in order.
	scale := ZMM()
	VBROADCASTSD(paramAddr("sqScale"), scale)
	for i, m := range [][2]VecVirtual{xx, yy, xy} {
		for _, v := range m {
			VADDPD(half, v, v)
			VFMADD213PD(magic, scale, v)
		}
		v := permute2(evens, m[0], m[1], false)
		hi := ZMM()
		VPSRLD(U8(16), v, hi)
		VPANDD(low16, v, v)
		storeNarrow(hi, out.row(rowXXHi+2*i, tmp))
		storeNarrow(v, out.row(rowXXLo+2*i, tmp))
	}
	ADDQ(U8(16), j)
	JMP(LabelRef("block"))

	Label("done")
	VZEROUPPER()
	RET()
}
