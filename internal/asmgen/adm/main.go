// Command adm generates the AVX2 row kernels of integer ADM
// (vmaf/internal/feature/adm), and AVX-512 ones where they have measured
// faster: adm_amd64.s and the Go declarations in adm_stub_amd64.go there.
// It runs from go generate in that package and lives in the asmgen module,
// so that the main module does not depend on avo.
//
// The kernels reproduce the portable ADM kernels of that package (dwt.go,
// level0.go, levelN.go, cm.go) bit for bit. Where the portable
// code rounds through float32 or float64, the kernels make the same IEEE
// operations in the same order; where it computes in 64 bits, they either
// do too (even and odd lanes through VPMULDQ) or use a narrower form shown
// exact over the whole input range. The kernels work on whole vector
// blocks; the Go side finishes each row with the portable code.
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Shared constants, 32 bytes each. They must all be declared before the
// first function.
var (
	round15q Mem // 1<<14 in 64-bit lanes
	round14  Mem // 1<<14 in 32-bit lanes
	signD    Mem // 1<<31 in 32-bit lanes
	k32768   Mem // 32768 in 32-bit lanes
	centre8  Mem // 128 in 16-bit lanes
	round8   Mem // 128 in 32-bit lanes
	shift8   Mem // 8 in 64-bit lanes
)

func main() {
	ConstraintExpr("amd64,!purego")
	round15q = constant64("admRound15Q", 1<<14)
	round14 = constant32("admRound14", 1<<14)
	signD = constant32("admSignD", 1<<31)
	k32768 = constant32("admK32768", 32768)
	centre8 = constant16("admCentre8", 128)
	round8 = constant32("admRound8", 128)
	shift8 = constant64("admShift8", 8)
	dwtConstants()
	csfConstants()
	cmConstants()
	dwtNConstants()
	decoupleNConstants()

	dwt0Vert8()
	dwt0Vert16()
	dwt0Horiz()
	decouple0()
	cube0()
	cm0()
	dwtNVert()
	dwtNHoriz()
	decoupleN()
	cmN()
	dwt0Horiz512()
	decouple0AVX512()
	cm0AVX512()
	cmNAVX512()
	decoupleNAVX512()
	dwt0Vert8AVX512()
	cubeNAVX512()
	Generate()
}

// paramAddr is the stack slot of a scalar argument.
func paramAddr(name string) Mem {
	b, err := Param(name).Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// broadcast32 copies a 32-bit register into every lane of v.
func broadcast32(r Register, v VecVirtual) {
	x := XMM()
	VMOVD(r, x)
	VPBROADCASTD(x, v)
}

// broadcastParam32 loads a 32-bit argument into every lane of a new vector.
func broadcastParam32(name string) VecVirtual {
	v := YMM()
	broadcast32(Load(Param(name), GP32()), v)
	return v
}

// shiftCount loads a shift count argument into the low quadword of a
// vector, as the shift-by-register forms take it.
func shiftCount(m Mem) VecVirtual {
	x := XMM()
	VMOVQ(m, x)
	return x
}

func zero() VecVirtual {
	z := YMM()
	VPXOR(z, z, z)
	return z
}

func constant64(name string, v uint64) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for i := 0; i < 4; i++ {
		DATA(8*i, U64(v))
	}
	return m
}

func constant32(name string, v uint32) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for i := 0; i < 8; i++ {
		DATA(4*i, U32(v))
	}
	return m
}

func constant16(name string, v uint16) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for i := 0; i < 16; i++ {
		DATA(2*i, U16(v))
	}
	return m
}

// loop emits a counted loop over j = 0, step, 2·step, ... < n; body gets
// j. n must be a multiple of step.
func loop(name string, n Register, step int, body func(j Register)) {
	j := GP64()
	XORQ(j, j)
	Label(name)
	CMPQ(j, n)
	JAE(LabelRef(name + "Done"))
	body(j)
	ADDQ(U32(step), j)
	JMP(LabelRef(name))
	Label(name + "Done")
}

// combineEvenOdd packs the low doublewords of the 64-bit lanes of even and
// odd (the results for the even and the odd 32-bit lanes) back into the
// eight 32-bit lanes in order.
func combineEvenOdd(even, odd VecVirtual) VecVirtual {
	out := YMM()
	VPSLLQ(U8(32), odd, odd)
	VPBLENDD(U8(0xaa), odd, even, out)
	return out
}

// packWords narrows eight 32-bit lanes, all within the 16-bit range, to
// eight words in order.
func packWords(v VecVirtual) VecVirtual {
	hi := XMM()
	VEXTRACTI128(U8(1), v, hi)
	out := XMM()
	VPACKSSDW(hi, v.AsX(), out)
	return out
}
