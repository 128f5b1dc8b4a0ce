package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func horizontal512() {
	TEXT("vifHorizontalAVX512", NOSPLIT, "func(rows *uint16, stride int, coef *uint32, pairs int, sigma1Sq, sigma2Sq, sigma12 *int32, n int)")
	Pragma("noescape")
	Doc("vifHorizontalAVX512 is vifHorizontal for the first n columns (a",
		"multiple of 32) of the vector kernels' statistics rows, rows pointing",
		"at the first sample of column 0's window in the first row.")
	n := Load(Param("n"), GP64())
	odd := oddLanes()
	j := GP64()
	XORQ(j, j)

	Label("block")
	CMPQ(j, n)
	JAE(LabelRef("done"))
	in := rowsAt{Load(Param("rows"), GP64()), Load(Param("stride"), GP64()), j}

	// sums is horizontal's on 32 columns, 16 even and 16 odd, but reads
	// each word once: the odd columns' shares come from the same words as
	// the even columns', against the pairs one tap earlier. VPDPWSSD is
	// VPMADDWD and VPADDD in one, wrapping alike.
	sums := func(a, b int) (out [2][2]VecVirtual) {
		rows := []Register{in.ptr(a), in.ptr(b)}
		for r := range out {
			out[r][0], out[r][1] = zeroZ(), zeroZ()
		}
		coef := Load(Param("coef"), GP64())
		left := Load(Param("pairs"), GP64())
		off := GP64()
		XORQ(off, off)
		loop, end := fmt.Sprintf("pair%d", a), fmt.Sprintf("pairs%d", a)
		Label(loop)
		TESTQ(left, left)
		JZ(LabelRef(end))
		c := [2]VecVirtual{bcast32(Mem{Base: coef, Disp: tapsPairs}), bcast32(Mem{Base: coef, Disp: tapsOdd})}
		for r, row := range rows {
			v := ZMM()
			VMOVDQU64(Mem{Base: row, Index: off, Scale: 1}, v)
			for p := range out[r] {
				VPDPWSSD(v, c[p], out[r][p])
			}
		}
		ADDQ(U8(4), off)
		ADDQ(U8(32), coef)
		DECQ(left)
		JMP(LabelRef(loop))
		Label(end)
		coef = Load(Param("coef"), GP64())
		count := XMM()
		VMOVQ(Mem{Base: coef, Disp: tapsShift}, count)
		corr := bcast32(Mem{Base: coef, Disp: tapsCorr})
		for r := range out {
			for _, v := range out[r] {
				VPADDD(corr, v, v)
				VPSLLD(count, v, v)
			}
		}
		return out
	}
	mu := sums(rowMu1, rowMu2)
	var sq [3][2]VecVirtual
	for p := 0; p < 2; p++ {
		m1, m2 := mu[0][p], mu[1][p]
		o1, o2 := ZMM(), ZMM()
		VPSRLQ(U8(32), m1, o1)
		VPSRLQ(U8(32), m2, o2)
		sq[0][p] = mulRounded512(m1, m1, o1, o1, odd)
		sq[1][p] = mulRounded512(m2, m2, o2, o2, odd)
		sq[2][p] = mulRounded512(m1, m2, o1, o2, odd)
	}
	for i, name := range []string{"sigma1Sq", "sigma2Sq", "sigma12"} {
		hl := sums(rowXXHi+2*i, rowXXLo+2*i)
		var sigma [2]VecVirtual
		for p := range sigma {
			hi, lo := hl[0][p], hl[1][p]
			VPADDD(round16, lo, lo)
			VPSRLD(U8(16), lo, lo)
			VPADDD(lo, hi, hi)
			VPSUBD(sq[i][p], hi, hi)
			sigma[p] = hi
		}
		dst := Mem{Base: Load(Param(name), GP64()), Index: j, Scale: 4}
		VMOVDQU64(permute2(zipLo, sigma[0], sigma[1], false), dst)
		VMOVDQU64(permute2(zipHi, sigma[0], sigma[1], false), dst.Offset(64))
	}
	ADDQ(U8(32), j)
	JMP(LabelRef("block"))

	Label("done")
	VZEROUPPER()
	RET()
}

func decimate512() {
	TEXT("vifDecimateAVX512", NOSPLIT, "func(mu1, mu2 *uint32, coef *uint32, half int, dstRef, dstDis *uint16, n int)")
	Pragma("noescape")
	Doc("vifDecimateAVX512 is vifDecimateRow for the first n outputs (a",
		"multiple of 32): it filters 2n columns and keeps the even ones.")
	means := []Register{Load(Param("mu1"), GP64()), Load(Param("mu2"), GP64())}
	n := Load(Param("n"), GP64())
	SHLQ(U8(1), n)
	j := GP64() // input column, twice the output index
	XORQ(j, j)

	Label("block")
	CMPQ(j, n)
	JAE(LabelRef("done"))
	var acc [2][4]VecVirtual
	for i := range acc {
		for q := range acc[i] {
			acc[i][q] = zeroZ()
		}
	}
	add := func(lo, hi Register, c VecVirtual) {
		for i, row := range means {
			for q := range acc[i] {
				v := ZMM()
				VMOVDQU32(Mem{Base: row, Index: lo, Scale: 4, Disp: 64 * q}, v)
				if hi != nil {
					VPADDD(Mem{Base: row, Index: hi, Scale: 4, Disp: 64 * q}, v, v)
				}
				VPMULLD(c, v, v)
				VPADDD(v, acc[i][q], acc[i][q])
			}
		}
	}
	w := startWindow(j)
	Label("tap")
	CMPQ(w.lo, w.mid)
	JAE(LabelRef("centre"))
	add(w.lo, w.hi, bcast32(w.w32()))
	w.next()
	JMP(LabelRef("tap"))

	Label("centre")
	add(w.mid, nil, bcast32(w.w32()))

	for i, name := range []string{"dstRef", "dstDis"} {
		a := acc[i]
		for _, v := range a {
			VPADDD(round16, v, v)
			VPSRLD(U8(16), v, v)
		}
		dst := Mem{Base: Load(Param(name), GP64()), Index: j, Scale: 1}
		for e := 0; e < 2; e++ {
			y := YMM()
			VPMOVDW(permute2(evens, a[2*e], a[2*e+1], false), y)
			VMOVDQU(y, dst.Offset(32*e))
		}
	}
	ADDQ(U8(64), j)
	JMP(LabelRef("block"))

	Label("done")
	VZEROUPPER()
	RET()
}
