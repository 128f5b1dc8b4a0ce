package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The vertical kernels take the window's input rows as one array of row
// pointers: the reference's rows first, the distorted picture's rows
// (maxTaps) entries later, so that a single pointer walks both.
const (
	maxTaps = 17
	disRows = maxTaps * 8
)

// taps walks a window's rows from both ends towards the centre. lo and hi
// point at the row pointers of the pair, coef at the pair's coefficient.
type taps struct {
	lo, hi, coef GPVirtual
}

// startTaps sets up the walk of a window whose centre is row half.
func startTaps(rows, coefBase, half Register) taps {
	t := taps{lo: GP64(), hi: GP64(), coef: GP64()}
	MOVQ(rows, t.lo)
	LEAQ(Mem{Base: rows, Index: half, Scale: 8}, t.hi)
	LEAQ(Mem{Base: t.hi, Index: half, Scale: 8}, t.hi)
	MOVQ(coefBase, t.coef)
	return t
}

func (t taps) next() {
	ADDQ(U8(8), t.lo)
	SUBQ(U8(8), t.hi)
	ADDQ(U8(32), t.coef)
}

// rowPtrs loads the row pointers of the current pair: reference low and
// high, distorted low and high.
func (t taps) rowPtrs() (r0, r1, d0, d1 GPVirtual) {
	r0, r1, d0, d1 = GP64(), GP64(), GP64(), GP64()
	MOVQ(Mem{Base: t.lo}, r0)
	MOVQ(Mem{Base: t.hi}, r1)
	MOVQ(Mem{Base: t.lo, Disp: disRows}, d0)
	MOVQ(Mem{Base: t.hi, Disp: disRows}, d1)
	return
}

// centrePtrs loads the centre row pointers once the walk has met there.
func (t taps) centrePtrs() (r, d GPVirtual) {
	r, d = GP64(), GP64()
	MOVQ(Mem{Base: t.lo}, r)
	MOVQ(Mem{Base: t.lo, Disp: disRows}, d)
	return
}

func (t taps) w16() Mem { return Mem{Base: t.coef, Disp: tapsW16} }
func (t taps) w32() Mem { return Mem{Base: t.coef, Disp: tapsW32} }
func (t taps) f64() Mem { return Mem{Base: t.coef, Disp: tapsF64} }

// pairs8 holds sums of 16 columns in 32-bit lanes, as two registers: the
// low one has columns 0-3 and 8-11, the high one 4-7 and 12-15 (the order
// VPUNPCKLWD/VPUNPCKHWD leave them in).
type pairs8 [2]VecVirtual

func newPairs8() pairs8 {
	p := pairs8{YMM(), YMM()}
	VPXOR(p[0], p[0], p[0])
	VPXOR(p[1], p[1], p[1])
	return p
}

// interleave pairs the words of two rows for VPMADDWD.
func interleave(a, b VecVirtual) pairs8 {
	p := pairs8{YMM(), YMM()}
	VPUNPCKLWD(b, a, p[0])
	VPUNPCKHWD(b, a, p[1])
	return p
}

// addMeanPairs adds c·(a+b) for the interleaved word pairs (a, b) of p to
// acc. VPMADDWD takes signed words, so it serves every tap but a centre
// coefficient of 1<<15 or more (scale 3 has one); the centre row is paired
// with zeros, so its pairs read as 32-bit samples that VPMULLD can scale.
func addMeanPairs(p, acc VecVirtual, t taps, centre bool) {
	v := YMM()
	if centre {
		VPMULLD(t.w32(), p, v)
	} else {
		VPMADDWD(t.w16(), p, v)
	}
	VPADDD(v, acc, acc)
}

// storeMeans8 rounds 8-bit mean sums by 8 bits and stores them in column
// order at dst[j].
func storeMeans8(p pairs8, dst Mem) {
	for _, v := range p {
		VPADDD(round8, v, v)
		VPSRLD(U8(8), v, v)
	}
	t := YMM()
	VPERM2I128(U8(0x20), p[1], p[0], t)
	VMOVDQU(t, dst)
	VPERM2I128(U8(0x31), p[1], p[0], t)
	VMOVDQU(t, dst.Offset(32))
}

// The statistics rows: each of the eight is a padded row of biased 16-bit
// words (the value minus 1<<15, so that VPMADDWD can take it as signed),
// (stride) bytes after the previous one. Means fit 16 bits; second
// moments, below 2^32, are split into their high and low halves.
const (
	rowMu1 = iota
	rowMu2
	rowXXHi
	rowXXLo
	rowYYHi
	rowYYLo
	rowXYHi
	rowXYLo
)

// rowsAt addresses the statistics rows at column j.
type rowsAt struct {
	base, stride, j Register
}

// row returns the address of row r at column j, using tmp.
func (r rowsAt) row(n int, tmp GPVirtual) Mem {
	IMUL3Q(U32(n), r.stride, tmp)
	ADDQ(r.base, tmp)
	return Mem{Base: tmp, Index: r.j, Scale: 2}
}

// ptr returns a register pointing at row n, column j.
func (r rowsAt) ptr(n int) GPVirtual {
	p := GP64()
	IMUL3Q(U32(n), r.stride, p)
	ADDQ(r.base, p)
	LEAQ(Mem{Base: p, Index: r.j, Scale: 2}, p)
	return p
}

// storeHalves stores eight 32-bit lanes of a and of b, each below 1<<16,
// as biased words at da and db.
func storeHalves(a, b VecVirtual, da, db Mem) {
	w := YMM()
	VPACKUSDW(b, a, w)
	VPERMQ(U8(0xd8), w, w)
	VPXOR(bias16, w, w)
	VMOVDQU(w.AsX(), da)
	VEXTRACTI128(U8(1), w, db)
}

// storeWords16 biases 16 words (in order) and stores them.
func storeWords16(v VecVirtual, dst Mem) {
	VPXOR(bias16, v, v)
	VMOVDQU(v, dst)
}

// storeMeans16 rounds 8-bit mean sums by 8 bits and stores them as a
// biased 16-bit row; VPACKUSDW undoes the pairs' column order.
func storeMeans16(p pairs8, dst Mem) {
	for _, v := range p {
		VPADDD(round8, v, v)
		VPSRLD(U8(8), v, v)
	}
	w := YMM()
	VPACKUSDW(p[1], p[0], w)
	storeWords16(w, dst)
}

// storeMoments16 stores 32-bit moment sums as biased high and low halves.
func storeMoments16(p pairs8, hi, lo Mem) {
	h := pairs8{YMM(), YMM()}
	for i, v := range p {
		VPSRLD(U8(16), v, h[i])
		VPAND(low16, v, v)
	}
	w := YMM()
	VPACKUSDW(h[1], h[0], w)
	storeWords16(w, hi)
	VPACKUSDW(p[1], p[0], w)
	storeWords16(w, lo)
}

func vertical8() {
	TEXT("vifVertical8AVX2", NOSPLIT, "func(rows **byte, coef *uint32, half int, dst *uint16, stride int, n int)")
	Pragma("noescape")
	Doc("vifVertical8AVX2 is vifVertical8 for the first n columns (a multiple",
		"of 16), into the vector kernels' statistics rows at dst.")
	n := Load(Param("n"), GP64())
	j := GP64()
	XORQ(j, j)

	Label("block")
	CMPQ(j, n)
	JAE(LabelRef("done"))
	mu1, mu2, xx, yy, xy := newPairs8(), newPairs8(), newPairs8(), newPairs8(), newPairs8()
	add := func(r0, r1, d0, d1 VecVirtual, t taps, centre bool) {
		ir, id := interleave(r0, r1), interleave(d0, d1)
		for h := range ir {
			v := YMM()
			addMeanPairs(ir[h], mu1[h], t, centre)
			addMeanPairs(id[h], mu2[h], t, centre)
			VPMADDWD(ir[h], ir[h], v)
			VPMULLD(t.w32(), v, v)
			VPADDD(v, xx[h], xx[h])
			VPMADDWD(id[h], id[h], v)
			VPMULLD(t.w32(), v, v)
			VPADDD(v, yy[h], yy[h])
			VPMADDWD(id[h], ir[h], v)
			VPMULLD(t.w32(), v, v)
			VPADDD(v, xy[h], xy[h])
		}
	}
	load := func(row GPVirtual) VecVirtual {
		v := YMM()
		VPMOVZXBW(Mem{Base: row, Index: j, Scale: 1}, v)
		return v
	}
	t := startTaps(Load(Param("rows"), GP64()), Load(Param("coef"), GP64()), Load(Param("half"), GP64()))
	Label("tap")
	CMPQ(t.lo, t.hi)
	JAE(LabelRef("centre"))
	r0, r1, d0, d1 := t.rowPtrs()
	add(load(r0), load(r1), load(d0), load(d1), t, false)
	t.next()
	JMP(LabelRef("tap"))

	Label("centre")
	// The centre row pairs with zeros.
	r, d := t.centrePtrs()
	zero := YMM()
	VPXOR(zero, zero, zero)
	add(load(r), zero, load(d), zero, t, true)

	out := rowsAt{Load(Param("dst"), GP64()), Load(Param("stride"), GP64()), j}
	tmp := GP64()
	storeMeans16(mu1, out.row(rowMu1, tmp))
	storeMeans16(mu2, out.row(rowMu2, tmp))
	storeMoments16(xx, out.row(rowXXHi, tmp), out.row(rowXXLo, GP64()))
	storeMoments16(yy, out.row(rowYYHi, tmp), out.row(rowYYLo, GP64()))
	storeMoments16(xy, out.row(rowXYHi, tmp), out.row(rowXYLo, GP64()))
	ADDQ(U8(16), j)
	JMP(LabelRef("block"))

	Label("done")
	VZEROUPPER()
	RET()
}

func vertical16() {
	TEXT("vifVertical16AVX2", NOSPLIT, "func(rows **uint16, coef *uint32, half int, dst *uint16, stride int, n int, muShift uint64, muRound uint32, sqScale float64)")
	Pragma("noescape")
	Doc("vifVertical16AVX2 is vifVertical16 for the first n columns (a multiple",
		"of 8), into the vector kernels' statistics rows at dst. sqScale is",
		"2^-sqShift and sqShift must be at least 1.")
	n := Load(Param("n"), GP64())
	j := GP64()
	XORQ(j, j)

	Label("block")
	CMPQ(j, n)
	JAE(LabelRef("done"))
	mu1, mu2 := YMM(), YMM()
	var xx, yy, xy [2]VecVirtual
	for _, v := range []*[2]VecVirtual{&xx, &yy, &xy} {
		for h := range v {
			v[h] = YMM()
			VXORPD(v[h], v[h], v[h])
		}
	}
	VPXOR(mu1, mu1, mu1)
	VPXOR(mu2, mu2, mu2)

	// addMean adds c·(a+b) over 8 columns; b may be nil.
	addMean := func(acc VecVirtual, a, b GPVirtual, t taps) {
		v := YMM()
		VPMOVZXWD(Mem{Base: a, Index: j, Scale: 2}, v)
		if b != nil {
			w := YMM()
			VPMOVZXWD(Mem{Base: b, Index: j, Scale: 2}, w)
			VPADDD(w, v, v)
		}
		VPMULLD(t.w32(), v, v)
		VPADDD(v, acc, acc)
	}
	// loadF converts 4 samples at column j+4h to float64.
	loadF := func(row GPVirtual, h int) VecVirtual {
		x, f := XMM(), YMM()
		VPMOVZXWD(Mem{Base: row, Index: j, Scale: 2, Disp: 8 * h}, x)
		VCVTDQ2PD(x, f)
		return f
	}
	// addMoment adds c·(a0·b0 + a1·b1); a1 and b1 may be nil.
	addMoment := func(acc, a0, b0, a1, b1 VecVirtual, t taps) {
		v := YMM()
		VMULPD(b0, a0, v)
		if a1 != nil {
			VFMADD231PD(b1, a1, v)
		}
		VFMADD231PD(t.f64(), v, acc)
	}

	t := startTaps(Load(Param("rows"), GP64()), Load(Param("coef"), GP64()), Load(Param("half"), GP64()))
	Label("tap")
	CMPQ(t.lo, t.hi)
	JAE(LabelRef("centre"))
	r0, r1, d0, d1 := t.rowPtrs()
	addMean(mu1, r0, r1, t)
	addMean(mu2, d0, d1, t)
	for h := 0; h < 2; h++ {
		fr0, fr1, fd0, fd1 := loadF(r0, h), loadF(r1, h), loadF(d0, h), loadF(d1, h)
		addMoment(xx[h], fr0, fr0, fr1, fr1, t)
		addMoment(yy[h], fd0, fd0, fd1, fd1, t)
		addMoment(xy[h], fr0, fd0, fr1, fd1, t)
	}
	t.next()
	JMP(LabelRef("tap"))

	Label("centre")
	r, d := t.centrePtrs()
	addMean(mu1, r, nil, t)
	addMean(mu2, d, nil, t)
	for h := 0; h < 2; h++ {
		fr, fd := loadF(r, h), loadF(d, h)
		addMoment(xx[h], fr, fr, nil, nil, t)
		addMoment(yy[h], fd, fd, nil, nil, t)
		addMoment(xy[h], fr, fd, nil, nil, t)
	}

	out := rowsAt{Load(Param("dst"), GP64()), Load(Param("stride"), GP64()), j}
	// Means: (sum + muRound) >> muShift, both rows in one register.
	round, count := YMM(), XMM()
	broadcast32(Load(Param("muRound"), GP32()), round)
	VMOVQ(paramAddr("muShift"), count)
	for _, v := range []VecVirtual{mu1, mu2} {
		VPADDD(round, v, v)
		VPSRLD(count, v, v)
	}
	tmp := GP64()
	storeHalves(mu1, mu2, out.row(rowMu1, tmp), out.row(rowMu2, GP64()))
	// Moments: round(((sum + 0.5) · 2^-sqShift), which adding 2^52 leaves
	// in the low 32 bits (see the package comment).
	scale := YMM()
	VBROADCASTSD(paramAddr("sqScale"), scale)
	for i, m := range [][2]VecVirtual{xx, yy, xy} {
		for _, v := range m {
			VADDPD(half, v, v)
			VFMADD213PD(magic, scale, v)
		}
		v := highWordsOf(m[0], m[1], 0x88)
		hi := YMM()
		VPSRLD(U8(16), v, hi)
		VPAND(low16, v, v)
		storeHalves(hi, v, out.row(rowXXHi+2*i, tmp), out.row(rowXXLo+2*i, GP64()))
	}
	ADDQ(U8(8), j)
	JMP(LabelRef("block"))

	Label("done")
	VZEROUPPER()
	RET()
}
