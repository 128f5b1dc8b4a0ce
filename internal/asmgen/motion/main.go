// Command motion generates the row kernels of integer motion
// (vmaf/internal/feature/motion), AVX2 and, for the 8-bit vertical pass,
// AVX-512: motion_amd64.s and the Go declarations
// in motion_stub_amd64.go there. It runs from go generate in that package
// and lives in the asmgen module, so that the main module does not depend
// on avo.
//
// The kernels reproduce the portable motion kernels (kernels.go in that
// package) bit for bit, in 32-bit lanes throughout:
//
//   - The vertical sums are below 2^32 (the taps sum to 2^16), so 32-bit
//     arithmetic, which is exact modulo 2^32, gives them exactly even where
//     a partial sum would not fit.
//   - The difference of two frames' sums, (p - c + 2^(s-1)) >> s, needs 33
//     bits for 16-bit samples; split at bit s, it is (p>>s - c>>s) plus
//     (p&m - c&m + 2^(s-1)) >> s, both small.
//   - The horizontal sum of the differences v (|v| <= 2^16) needs 33 bits;
//     with v = 256·vh + vl (0 <= vl < 256) it is 256·A + B, A and B the
//     filtered vh and vl, and (256·A + B + 2^15) >> 16 equals
//     (A + (B + 2^15) >> 8) >> 8.
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

var (
	tap0, tap1, tap2 Mem // 3571, 16004, 26386 in 32-bit lanes
	low8             Mem // 0xff in 32-bit lanes
	round15          Mem // 1<<15 in 32-bit lanes
)

func main() {
	ConstraintExpr("amd64,!purego")
	tap0 = constant32("motionTap0", 3571)
	tap1 = constant32("motionTap1", 16004)
	tap2 = constant32("motionTap2", 26386)
	low8 = constant32("motionLow8", 0xff)
	round15 = constant32("motionRound15", 1<<15)
	taps01 = constant32("motionTaps01", 3571|16004<<16)
	round8 = constant32("motionRound8", 1<<7)

	vertical("motionVert8AVX2", "*byte", 1)
	vertical("motionVert16AVX2", "*uint16", 2)
	diff()
	rowSAD()
	vertical8AVX512()
	diff8AVX512()
	rowSAD512()
	Generate()
}

func constant32(name string, v uint32) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for i := 0; i < 8; i++ {
		DATA(4*i, U32(v))
	}
	return m
}

// loop emits a counted loop over j = 0, 8, 16, ... < n; body gets j. n
// must be a multiple of 8.
func loop(name string, n Register, body func(j Register)) { loopStep(name, n, 8, body) }

// loopStep is loop with blocks of step columns.
func loopStep(name string, n Register, step int, body func(j Register)) {
	j := GP64()
	XORQ(j, j)
	Label(name)
	CMPQ(j, n)
	JAE(LabelRef(name + "Done"))
	body(j)
	ADDQ(U8(step), j)
	JMP(LabelRef(name))
	Label(name + "Done")
}

// filter returns tap0·(x0+x4) + tap1·(x1+x3) + tap2·x2 in 32-bit lanes.
func filter(x [5]VecVirtual) VecVirtual {
	s, t := YMM(), YMM()
	VPADDD(x[4], x[0], s)
	VPMULLD(tap0, s, s)
	VPADDD(x[3], x[1], t)
	VPMULLD(tap1, t, t)
	VPADDD(t, s, s)
	VPMULLD(tap2, x[2], t)
	VPADDD(t, s, s)
	return s
}

func vertical(name, row string, size int) {
	TEXT(name, NOSPLIT, "func(out *uint32, a, b, c, d, e "+row+", n int)")
	Pragma("noescape")
	Doc(name+" is the vertical 5-tap sum of rows a to e (the blur's",
		"vertical pass) for the first n columns, a multiple of 8.")
	out := Load(Param("out"), GP64())
	var rows [5]Register
	for k, p := range []string{"a", "b", "c", "d", "e"} {
		rows[k] = Load(Param(p), GP64())
	}
	n := Load(Param("n"), GP64())
	loop("vert", n, func(j Register) {
		var x [5]VecVirtual
		for k := range x {
			x[k] = YMM()
			m := Mem{Base: rows[k], Index: j, Scale: uint8(size)}
			if size == 1 {
				VPMOVZXBD(m, x[k])
			} else {
				VPMOVZXWD(m, x[k])
			}
		}
		VMOVDQU(filter(x), Mem{Base: out, Index: j, Scale: 4})
	})
	VZEROUPPER()
	RET()
}

func diff() {
	TEXT("motionDiffAVX2", NOSPLIT, "func(v *int32, p, c *uint32, n int, shift uint64, half, mask uint32) bool")
	Pragma("noescape")
	Doc("motionDiffAVX2 is motionDiff for the first n columns (a multiple",
		"of 8); half is 1<<(shift-1) and mask (1<<shift)-1.")
	v := Load(Param("v"), GP64())
	p, c := Load(Param("p"), GP64()), Load(Param("c"), GP64())
	n := Load(Param("n"), GP64())
	cnt := XMM()
	VMOVQ(Load(Param("shift"), GP64()), cnt)
	half, mask := YMM(), YMM()
	for _, b := range []struct {
		name string
		v    VecVirtual
	}{{"half", half}, {"mask", mask}} {
		x := XMM()
		VMOVD(Load(Param(b.name), GP32()), x)
		VPBROADCASTD(x, b.v)
	}
	any := YMM()
	VPXOR(any, any, any)
	loop("diff", n, func(j Register) {
		a, b, al, bl := YMM(), YMM(), YMM(), YMM()
		VMOVDQU(Mem{Base: p, Index: j, Scale: 4}, a)
		VMOVDQU(Mem{Base: c, Index: j, Scale: 4}, b)
		VPAND(mask, a, al)
		VPAND(mask, b, bl)
		VPSRLD(cnt, a, a)
		VPSRLD(cnt, b, b)
		VPSUBD(b, a, a)
		VPSUBD(bl, al, al)
		VPADDD(half, al, al)
		VPSRAD(cnt, al, al)
		VPADDD(al, a, a)
		VMOVDQU(a, Mem{Base: v, Index: j, Scale: 4})
		VPOR(a, any, any)
	})
	r := GP8()
	VPTEST(any, any)
	SETNE(r)
	Store(r, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

func rowSAD() {
	TEXT("motionRowSADAVX2", NOSPLIT, "func(row *int32, n int) uint32")
	Pragma("noescape")
	Doc("motionRowSADAVX2 is motionRowSAD for the first n outputs (a multiple",
		"of 8) of the padded row; it reads n+4 samples.")
	row := Load(Param("row"), GP64())
	n := Load(Param("n"), GP64())
	acc := YMM()
	VPXOR(acc, acc, acc)
	loop("sad", n, func(j Register) {
		var hi, lo [5]VecVirtual
		for k := range hi {
			hi[k], lo[k] = YMM(), YMM()
			VMOVDQU(Mem{Base: row, Index: j, Scale: 4, Disp: 4 * k}, hi[k])
			VPAND(low8, hi[k], lo[k])
			VPSRAD(U8(8), hi[k], hi[k])
		}
		a, b := filter(hi), filter(lo)
		VPADDD(round15, b, b)
		VPSRAD(U8(8), b, b)
		VPADDD(b, a, a)
		VPSRAD(U8(8), a, a)
		VPABSD(a, a)
		VPADDD(a, acc, acc)
	})
	x, y := XMM(), XMM()
	VEXTRACTI128(U8(1), acc, x)
	VPADDD(x, acc.AsX(), x)
	VPSHUFD(U8(0x4e), x, y)
	VPADDD(y, x, x)
	VPSHUFD(U8(0xb1), x, y)
	VPADDD(y, x, x)
	s := GP32()
	VMOVD(x, s)
	Store(s, ReturnIndex(0))
	VZEROUPPER()
	RET()
}
