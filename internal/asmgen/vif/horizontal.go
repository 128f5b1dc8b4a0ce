package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The horizontal kernels read padded rows through pointers at the first
// sample of column 0's window. For output column j they walk the window
// with two element indices, lo from j up and hi from j+2·half down.

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
func (w window) f64() Mem { return Mem{Base: w.coef, Disp: tapsF64} }

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
	TEXT("vifHorizontalAVX2", NOSPLIT, "func(mu1, mu2 *uint32, xx, yy, xy *float64, coef *uint32, half int, sigma1Sq, sigma2Sq, sigma12 *int32, n int)")
	Pragma("noescape")
	Doc("vifHorizontalAVX2 is vifHorizontal for the first n columns (a multiple",
		"of 8) of the vector kernels' rows.")
	means := []Register{Load(Param("mu1"), GP64()), Load(Param("mu2"), GP64())}
	moments := []Register{Load(Param("xx"), GP64()), Load(Param("yy"), GP64()), Load(Param("xy"), GP64())}
	n := Load(Param("n"), GP64())
	j := GP64()
	XORQ(j, j)

	Label("block")
	CMPQ(j, n)
	JAE(LabelRef("done"))
	// Mean sums in 32-bit lanes; moment sums as float64 starting at 0.5,
	// the rounding of the final shift (see the package comment).
	var mu [2]VecVirtual
	for i := range mu {
		mu[i] = YMM()
		VPXOR(mu[i], mu[i], mu[i])
	}
	var mom [3][2]VecVirtual
	for i := range mom {
		for h := range mom[i] {
			mom[i][h] = YMM()
			VMOVUPD(half, mom[i][h])
		}
	}
	addMean := func(acc VecVirtual, row Register, lo, hi Register, c Mem) {
		v := YMM()
		VMOVDQU(Mem{Base: row, Index: lo, Scale: 4}, v)
		if hi != nil {
			VPADDD(Mem{Base: row, Index: hi, Scale: 4}, v, v)
		}
		VPMULLD(c, v, v)
		VPADDD(v, acc, acc)
	}
	addMoment := func(acc [2]VecVirtual, row Register, lo, hi Register, c Mem) {
		for h := range acc {
			v := YMM()
			VMOVUPD(Mem{Base: row, Index: lo, Scale: 8, Disp: 32 * h}, v)
			if hi != nil {
				VADDPD(Mem{Base: row, Index: hi, Scale: 8, Disp: 32 * h}, v, v)
			}
			VFMADD231PD(c, v, acc[h])
		}
	}

	w := startWindow(j)
	Label("tap")
	CMPQ(w.lo, w.mid)
	JAE(LabelRef("centre"))
	for i, row := range means {
		addMean(mu[i], row, w.lo, w.hi, w.w32())
	}
	for i, row := range moments {
		addMoment(mom[i], row, w.lo, w.hi, w.f64())
	}
	w.next()
	JMP(LabelRef("tap"))

	Label("centre")
	for i, row := range means {
		addMean(mu[i], row, w.mid, nil, w.w32())
	}
	for i, row := range moments {
		addMoment(mom[i], row, w.mid, nil, w.f64())
	}

	// The means carry 32 fractional bits; their products are rounded back
	// to the 16 of the moments.
	mo := [2]VecVirtual{YMM(), YMM()}
	for i := range mu {
		VPSRLQ(U8(32), mu[i], mo[i])
	}
	sq := []VecVirtual{
		mulRounded(mu[0], mu[0], mo[0], mo[0]),
		mulRounded(mu[1], mu[1], mo[1], mo[1]),
		mulRounded(mu[0], mu[1], mo[0], mo[1]),
	}
	scale := YMM()
	VMOVUPD(scale16, scale)
	for i, name := range []string{"sigma1Sq", "sigma2Sq", "sigma12"} {
		// (sum + 0.5)·2^-16 + 2^52 leaves the rounded moment in the low
		// 32 bits of each float64.
		for _, v := range mom[i] {
			VFMADD213PD(magic, scale, v)
		}
		lanes := YMM()
		VSHUFPS(U8(0x88), mom[i][1], mom[i][0], lanes)
		VPERMQ(U8(0xd8), lanes, lanes)
		// The differences wrap as in 32-bit arithmetic.
		VPSUBD(sq[i], lanes, lanes)
		VMOVDQU(lanes, Mem{Base: Load(Param(name), GP64()), Index: j, Scale: 4})
	}
	ADDQ(U8(8), j)
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
