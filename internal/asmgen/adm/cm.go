package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Byte offsets of the fields of vmaf's admCM16Row and admCM32Row (five
// arrays of three slices, then the thr and colSum slices), and of
// admCMVecBand, one orientation's masking parameters (three of them in a
// row). TestADMVecLayout checks them.
const (
	cmSrc    = 0
	cmMsk    = 72
	cmFUp    = 144
	cmFMid   = 216
	cmFDn    = 288
	cmColSum = 384

	vbRF    = 0   // factor in eight 32-bit lanes
	vbSqRnd = 32  // rounding of the square, four 64-bit lanes
	vbCRnd  = 64  // rounding of the cube, four 64-bit lanes
	vbSub   = 96  // shift of the threshold (level 0)
	vbSq    = 112 // shift of the square
	vbCs    = 128 // shift of the cube
	vbCsNeg = 144 // 64 minus that
	vbSize  = 160
)

var (
	c8738   Mem // 8738 in 32-bit lanes
	round12 Mem // 2048 in 32-bit lanes
)

func cmConstants() {
	c8738 = constant32("admC8738", 8738)
	round12 = constant32("admRound12", 2048)
}

// colSums stores in colSum[k], for k in [0, n+2), the sum over the three
// orientations of the threshold contributions of the rows above, at and
// below (fUp, fMid, fDn). The last block is taken at n-6 so that it ends
// at n+2; it recomputes six sums, harmlessly.
func colSums(r, n Register, load func(p Register, k Register) VecVirtual) {
	colSumBlocks(r, n, "cols", 8, load, func(s VecVirtual, m Mem) { VMOVDQU(s, m) })
}

// colSumBlocks is colSums on blocks of step columns, named name, with the
// last block taken at n+2-step.
func colSumBlocks(r, n Register, name string, step int, load func(p Register, k Register) VecVirtual, store func(VecVirtual, Mem)) {
	cs := GP64()
	MOVQ(Mem{Base: r, Disp: cmColSum}, cs)
	body := func(k Register) {
		var s VecVirtual
		for _, f := range []int{cmFUp, cmFMid, cmFDn} {
			for b := range 3 {
				v := load(field(r, f, b), k)
				if s == nil {
					s = v
				} else {
					VPADDD(v, s, s)
				}
			}
		}
		store(s, Mem{Base: cs, Index: k, Scale: 4})
	}
	loop(name, n, step, body)
	k := GP64()
	LEAQ(Mem{Base: n, Disp: 2 - step}, k)
	body(k)
}

// boxSums returns colSum[j] + colSum[j+1] + colSum[j+2] for eight columns.
func boxSums(r, j Register) VecVirtual {
	cs := GP64()
	MOVQ(Mem{Base: r, Disp: cmColSum}, cs)
	thr := YMM()
	VMOVDQU(Mem{Base: cs, Index: j, Scale: 4}, thr)
	VPADDD(Mem{Base: cs, Index: j, Scale: 4, Disp: 4}, thr, thr)
	VPADDD(Mem{Base: cs, Index: j, Scale: 4, Disp: 8}, thr, thr)
	return thr
}

// sra64 shifts the 64-bit lanes of v right arithmetically by the count
// at cnt (AVX2 has only the logical shift): the sign is ORed back into the
// top bits, shifted left by the count at neg, 64 minus that.
func sra64(v VecVirtual, cnt, neg Mem, z VecVirtual) {
	s := YMM()
	VPCMPGTQ(v, z, s)
	VPSLLQ(neg, s, s)
	VPSRLQ(cnt, v, v)
	VPOR(s, v, v)
}

// cube adds to acc the masked cube terms of eight non-negative 32-bit
// lanes x: x2 = int32((x² + sqRnd) >> sq), then (x2·x + cRnd) >> cs,
// all in 64 bits, through the even and the odd lanes. x² fits in 62 bits
// and its shifted value is truncated to 32 as in the portable code; x2
// may be negative, so the second shift is arithmetic.
func cube(x, acc VecVirtual, band Mem, z VecVirtual) {
	for h := range 2 {
		xl := x
		if h == 1 {
			xl = YMM()
			VPSRLQ(U8(32), x, xl)
		}
		q, c := YMM(), YMM()
		VPMULUDQ(xl, xl, q)
		VPADDQ(band.Offset(vbSqRnd), q, q)
		VPSRLQ(band.Offset(vbSq), q, q)
		VPMULDQ(xl, q, c)
		VPADDQ(band.Offset(vbCRnd), c, c)
		sra64(c, band.Offset(vbCs), band.Offset(vbCsNeg), z)
		VPADDQ(c, acc, acc)
	}
}

// storeSums returns the sum of each accumulator's four 64-bit lanes.
func storeSums(acc [3]VecVirtual) {
	for b, a := range acc {
		x := XMM()
		VEXTRACTI128(U8(1), a, x)
		VPADDQ(x, a.AsX(), x)
		y := XMM()
		VPSHUFD(U8(0x4e), x, y)
		VPADDQ(y, x, x)
		s := GP64()
		VMOVQ(x, s)
		Store(s, ReturnIndex(b))
	}
}

func cm0() {
	TEXT("admCM0AVX2", NOSPLIT, "func(r *[]int16, p *int32, n int) (h, v, d int64)")
	Pragma("noescape")
	Doc("admCM0AVX2 is admCM0 without truncation for the first n columns (a",
		"multiple of 8, at least 8) of r; p points at the three orientations'",
		"parameters.")
	r, p := Load(Param("r"), GP64()), Load(Param("p"), GP64())
	n := Load(Param("n"), GP64())
	load := func(ptr Register, k Register) VecVirtual {
		v := YMM()
		VPMOVSXWD(Mem{Base: ptr, Index: k, Scale: 2}, v)
		return v
	}
	colSums(r, n, load)
	z := zero()
	var acc [3]VecVirtual
	for b := range acc {
		acc[b] = zero()
	}
	loop("cm0", n, 8, func(j Register) {
		thr := boxSums(r, j)
		// The centre term, (8738·|m| + 2048) >> 12, replaces the centre's
		// own contribution.
		for b := range 3 {
			c := load(field(r, cmMsk, b), j)
			VPABSD(c, c)
			VPMULLD(c8738, c, c)
			VPADDD(round12, c, c)
			VPSRAD(U8(12), c, c)
			VPADDD(c, thr, thr)
			f := YMM()
			VPMOVSXWD(Mem{Base: field(r, cmFMid, b), Index: j, Scale: 2, Disp: 2}, f)
			VPSUBD(f, thr, thr)
		}
		for b := range 3 {
			band := Mem{Base: p, Disp: b * vbSize}
			// x = max(|src·rf| - thr << sub, 0): a zero x adds nothing.
			x, t := load(field(r, cmSrc, b), j), YMM()
			VPMULLD(band.Offset(vbRF), x, x)
			VPABSD(x, x)
			VPSLLD(band.Offset(vbSub), thr, t)
			VPSUBD(t, x, x)
			VPMAXSD(z, x, x)
			cube(x, acc[b], band, z)
		}
	})
	storeSums(acc)
	VZEROUPPER()
	RET()
}

func cube0() {
	TEXT("admCube0AVX2", NOSPLIT, "func(row *int16, n int) uint64")
	Pragma("noescape")
	Doc("admCube0AVX2 is admCube0 for the first n samples (a multiple of 8)",
		"of row.")
	row := Load(Param("row"), GP64())
	n := Load(Param("n"), GP64())
	acc := zero()
	loop("cube0", n, 8, func(j Register) {
		a, a2 := YMM(), YMM()
		VPMOVSXWD(Mem{Base: row, Index: j, Scale: 2}, a)
		VPABSD(a, a)
		VPMULLD(a, a, a2)
		for h := range 2 {
			x, y := a, a2
			if h == 1 {
				x, y = YMM(), YMM()
				VPSRLQ(U8(32), a, x)
				VPSRLQ(U8(32), a2, y)
			}
			c := YMM()
			VPMULUDQ(x, y, c)
			VPADDQ(c, acc, acc)
		}
	})
	x := XMM()
	VEXTRACTI128(U8(1), acc, x)
	VPADDQ(x, acc.AsX(), x)
	y := XMM()
	VPSHUFD(U8(0x4e), x, y)
	VPADDQ(y, x, x)
	s := GP64()
	VMOVQ(x, s)
	Store(s, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

func cmN() {
	TEXT("admCMNAVX2", NOSPLIT, "func(r *[]int32, p *int32, n int) (h, v, d int64)")
	Pragma("noescape")
	Doc("admCMNAVX2 is admCMN for the first n columns (a multiple of 8, at",
		"least 8) of r; p points at the three orientations' parameters,",
		"whose factors must be below 2^31.")
	r, p := Load(Param("r"), GP64()), Load(Param("p"), GP64())
	n := Load(Param("n"), GP64())
	colSums(r, n, func(ptr Register, k Register) VecVirtual {
		v := YMM()
		VMOVDQU(Mem{Base: ptr, Index: k, Scale: 4}, v)
		return v
	})
	z := zero()
	var acc [3]VecVirtual
	for b := range acc {
		acc[b] = zero()
	}
	loop("cmN", n, 8, func(j Register) {
		thr := boxSums(r, j)
		// The centre term, int32((|m|·(2^32/15) - 2^31) >> 32), replaces
		// the centre's own contribution.
		for b := range 3 {
			m := YMM()
			VMOVDQU(Mem{Base: field(r, cmMsk, b), Index: j, Scale: 4}, m)
			VPADDD(highMul(m, c15th), thr, thr)
			VPSUBD(Mem{Base: field(r, cmFMid, b), Index: j, Scale: 4, Disp: 4}, thr, thr)
		}
		for b := range 3 {
			band := Mem{Base: p, Disp: b * vbSize}
			// x = max(|int32((src·rf + 2^27) >> 28)| - thr, 0).
			s := YMM()
			VMOVDQU(Mem{Base: field(r, cmSrc, b), Index: j, Scale: 4}, s)
			x := mulShift32(s, band.Offset(vbRF), round27q, 28)
			VPABSD(x, x)
			VPSUBD(thr, x, x)
			VPMAXSD(z, x, x)
			cube(x, acc[b], band, z)
		}
	})
	storeSums(acc)
	VZEROUPPER()
	RET()
}
