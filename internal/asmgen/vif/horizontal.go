package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The horizontal kernels read padded rows through pointers at the first
// sample of column 0's window. The decimating one walks each column's
// window with two element indices, lo from j up and hi from j+2·half down;
// the statistics one reads neighbouring pairs of taps from j up.

// window walks one block's windows: lo and hi index the pair's samples,
// mid the centre, coef points at the pair's coefficient.
type window struct {
	lo, hi, mid GPVirtual
	coef        Register
}

// startWindow sets up the walk for the block starting at column j.
func startWindow(j Register) window {
	w := window{lo: GP64(), hi: GP64(), mid: GP64(), coef: Load(Param("coef"), GP64())}
	half := Load(Param("half"), GP64())
	MOVQ(j, w.lo)
	LEAQ(Mem{Base: j, Index: half, Scale: 1}, w.mid)
	LEAQ(Mem{Base: w.mid, Index: half, Scale: 1}, w.hi)
	return w
}

func (w window) next() {
	INCQ(w.lo)
	DECQ(w.hi)
	ADDQ(U8(32), w.coef)
}

func (w window) w32() Mem { return Mem{Base: w.coef, Disp: tapsW32} }

// mulRounded returns the 32-bit lanes (a·b + 2^31) >> 32 of two vectors of
// 32-bit lanes; ao and bo are a and b shifted right by 32 in 64-bit lanes.
func mulRounded(a, b, ao, bo VecVirtual) VecVirtual {
	even, odd := YMM(), YMM()
	VPMULUDQ(b, a, even)
	VPMULUDQ(bo, ao, odd)
	VPADDQ(round32, even, even)
	VPADDQ(round32, odd, odd)
	VPSRLQ(U8(32), even, even)
	// The odd products' wanted bits are their high halves already.
	VPBLENDD(U8(0xaa), odd, even, even)
	return even
}

func horizontal() {
	TEXT("vifHorizontalAVX2", NOSPLIT, "func(rows *uint16, stride int, coef *uint32, pairs int, sigma1Sq, sigma2Sq, sigma12 *int32, n int)")
	Pragma("noescape")
	Doc("vifHorizontalAVX2 is vifHorizontal for the first n columns (a multiple",
		"of 16) of the vector kernels' statistics rows, rows pointing at the",
		"first sample of column 0's window in the first row.")
	n := Load(Param("n"), GP64())
	j := GP64()
	XORQ(j, j)

	Label("block")
	CMPQ(j, n)
	JAE(LabelRef("done"))
	in := rowsAt{Load(Param("rows"), GP64()), Load(Param("stride"), GP64()), j}

	// sums filters rows a and b at the block's even and odd columns:
	// VPMADDWD of the words from a column on, against a pair of
	// neighbouring taps, gives every other column's share of those taps.
	// The results are the unbiased 32-bit sums.
	sums := func(a, b int) (out [2][2]VecVirtual) {
		rows := []Register{in.ptr(a), in.ptr(b)}
		for r := range out {
			for p := range out[r] {
				out[r][p] = YMM()
				VPXOR(out[r][p], out[r][p], out[r][p])
			}
		}
		coef := Load(Param("coef"), GP64())
		ADDQ(U32(tapsPairs), coef)
		left := Load(Param("pairs"), GP64())
		off := GP64()
		XORQ(off, off)
		loop, end := fmt.Sprintf("pair%d", a), fmt.Sprintf("pairs%d", a)
		Label(loop)
		TESTQ(left, left)
		JZ(LabelRef(end))
		c := YMM()
		VMOVDQU(Mem{Base: coef}, c)
		for r, row := range rows {
			for p := range out[r] {
				v := YMM()
				VPMADDWD(Mem{Base: row, Index: off, Scale: 1, Disp: 2 * p}, c, v)
				VPADDD(v, out[r][p], out[r][p])
			}
		}
		ADDQ(U8(4), off)
		ADDQ(U8(32), coef)
		DECQ(left)
		JMP(LabelRef(loop))
		Label(end)
		// Add back the bias, times the taps' sum, and undo any halving.
		coef = Load(Param("coef"), GP64())
		count := XMM()
		VMOVQ(Mem{Base: coef, Disp: tapsShift}, count)
		for r := range out {
			for _, v := range out[r] {
				VPADDD(Mem{Base: coef, Disp: tapsCorr}, v, v)
				VPSLLD(count, v, v)
			}
		}
		return out
	}
	mu := sums(rowMu1, rowMu2)
	var sq [3][2]VecVirtual // mu1², mu2², mu1·mu2 of even and odd columns
	for p := 0; p < 2; p++ {
		m1, m2 := mu[0][p], mu[1][p]
		o1, o2 := YMM(), YMM()
		VPSRLQ(U8(32), m1, o1)
		VPSRLQ(U8(32), m2, o2)
		sq[0][p] = mulRounded(m1, m1, o1, o1)
		sq[1][p] = mulRounded(m2, m2, o2, o2)
		sq[2][p] = mulRounded(m1, m2, o1, o2)
	}
	for i, name := range []string{"sigma1Sq", "sigma2Sq", "sigma12"} {
		hl := sums(rowXXHi+2*i, rowXXLo+2*i)
		var sigma [2]VecVirtual
		for p := range sigma {
			// (2^16·hi + lo + 2^15) >> 16 in 32-bit arithmetic.
			hi, lo := hl[0][p], hl[1][p]
			VPADDD(round16, lo, lo)
			VPSRLD(U8(16), lo, lo)
			VPADDD(lo, hi, hi)
			// The differences wrap as in 32-bit arithmetic.
			VPSUBD(sq[i][p], hi, hi)
			sigma[p] = hi
		}
		// Interleave the even and odd columns back into order.
		a, b := YMM(), YMM()
		VPUNPCKLDQ(sigma[1], sigma[0], a)
		VPUNPCKHDQ(sigma[1], sigma[0], b)
		dst := Mem{Base: Load(Param(name), GP64()), Index: j, Scale: 4}
		t := YMM()
		VPERM2I128(U8(0x20), b, a, t)
		VMOVDQU(t, dst)
		VPERM2I128(U8(0x31), b, a, t)
		VMOVDQU(t, dst.Offset(32))
	}
	ADDQ(U8(16), j)
	JMP(LabelRef("block"))

	Label("done")
	VZEROUPPER()
	RET()
}

func decimate() {
	TEXT("vifDecimateAVX2", NOSPLIT, "func(mu1, mu2 *uint32, coef *uint32, half int, dstRef, dstDis *uint16, n int)")
	Pragma("noescape")
	Doc("vifDecimateAVX2 is vifDecimateRow for the first n outputs (a multiple",
		"of 16): it filters 2n columns and keeps the even ones.")
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
			acc[i][q] = YMM()
			VPXOR(acc[i][q], acc[i][q], acc[i][q])
		}
	}
	add := func(lo, hi Register, c Mem) {
		for i, row := range means {
			for q := range acc[i] {
				v := YMM()
				VMOVDQU(Mem{Base: row, Index: lo, Scale: 4, Disp: 32 * q}, v)
				if hi != nil {
					VPADDD(Mem{Base: row, Index: hi, Scale: 4, Disp: 32 * q}, v, v)
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
	add(w.lo, w.hi, w.w32())
	w.next()
	JMP(LabelRef("tap"))

	Label("centre")
	add(w.mid, nil, w.w32())

	for i, name := range []string{"dstRef", "dstDis"} {
		a := acc[i]
		for _, v := range a {
			VPADDD(round16, v, v)
			VPSRLD(U8(16), v, v)
		}
		// Keep the even columns: 0 2 8 10 | 4 6 12 14 after the shuffle,
		// in order after the permutation; then narrow to 16 bits.
		even := [2]VecVirtual{YMM(), YMM()}
		for e := range even {
			VSHUFPS(U8(0x88), a[2*e+1], a[2*e], even[e])
			VPERMQ(U8(0xd8), even[e], even[e])
		}
		out := YMM()
		VPACKUSDW(even[1], even[0], out)
		VPERMQ(U8(0xd8), out, out)
		VMOVDQU(out, Mem{Base: Load(Param(name), GP64()), Index: j, Scale: 1})
	}
	ADDQ(U8(32), j)
	JMP(LabelRef("block"))

	Label("done")
	VZEROUPPER()
	RET()
}
