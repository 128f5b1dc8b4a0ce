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

// storeMoments8 converts 32-bit moment sums to float64 and stores them in
// column order at dst[j].
func storeMoments8(p pairs8, dst Mem) {
	hi0, hi1 := XMM(), XMM()
	VEXTRACTI128(U8(1), p[0], hi0)
	VEXTRACTI128(U8(1), p[1], hi1)
	for q, x := range []Op{p[0].AsX(), p[1].AsX(), hi0, hi1} {
		f := YMM()
		VPMOVZXDQ(x, f)
		VPOR(magic, f, f)
		VSUBPD(magic, f, f)
		VMOVUPD(f, dst.Offset(32*q))
	}
}

func vertical8() {
	TEXT("vifVertical8AVX2", NOSPLIT, "func(rows **byte, coef *uint32, half int, mu1, mu2 *uint32, xx, yy, xy *float64, n int)")
	Pragma("noescape")
	Doc("vifVertical8AVX2 is vifVertical8 for the first n columns (a multiple",
		"of 16), with the second moments stored as float64.")
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

	storeMeans8(mu1, Mem{Base: Load(Param("mu1"), GP64()), Index: j, Scale: 4})
	storeMeans8(mu2, Mem{Base: Load(Param("mu2"), GP64()), Index: j, Scale: 4})
	storeMoments8(xx, Mem{Base: Load(Param("xx"), GP64()), Index: j, Scale: 8})
	storeMoments8(yy, Mem{Base: Load(Param("yy"), GP64()), Index: j, Scale: 8})
	storeMoments8(xy, Mem{Base: Load(Param("xy"), GP64()), Index: j, Scale: 8})
	ADDQ(U8(16), j)
	JMP(LabelRef("block"))

	Label("done")
	VZEROUPPER()
	RET()
}

func vertical16() {
	TEXT("vifVertical16AVX2", NOSPLIT, "func(rows **uint16, coef *uint32, half int, mu1, mu2 *uint32, xx, yy, xy *float64, n int, muShift uint64, muRound uint32, sqScale float64)")
	Pragma("noescape")
	Doc("vifVertical16AVX2 is vifVertical16 for the first n columns (a multiple",
		"of 8), with the second moments stored as float64. sqScale is 2^-sqShift",
		"and sqShift must be at least 1.")
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

	// Means: (sum + muRound) >> muShift.
	round, count := YMM(), XMM()
	broadcast32(Load(Param("muRound"), GP32()), round)
	VMOVQ(paramAddr("muShift"), count)
	for _, m := range []struct {
		acc  VecVirtual
		name string
	}{{mu1, "mu1"}, {mu2, "mu2"}} {
		VPADDD(round, m.acc, m.acc)
		VPSRLD(count, m.acc, m.acc)
		VMOVDQU(m.acc, Mem{Base: Load(Param(m.name), GP64()), Index: j, Scale: 4})
	}
	// Moments: round(((sum + 0.5) · 2^-sqShift) exactly, see the package
	// comment.
	scale := YMM()
	VBROADCASTSD(paramAddr("sqScale"), scale)
	for _, m := range []struct {
		acc  [2]VecVirtual
		name string
	}{{xx, "xx"}, {yy, "yy"}, {xy, "xy"}} {
		dst := Mem{Base: Load(Param(m.name), GP64()), Index: j, Scale: 8}
		for h, v := range m.acc {
			VADDPD(half, v, v)
			VFMADD213PD(magic, scale, v)
			VSUBPD(magic, v, v)
			VMOVUPD(v, dst.Offset(32*h))
		}
	}
	ADDQ(U8(8), j)
	JMP(LabelRef("block"))

	Label("done")
	VZEROUPPER()
	RET()
}
