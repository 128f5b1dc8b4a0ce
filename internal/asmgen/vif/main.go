// Command vif generates the AVX2 and AVX-512 row kernels of integer VIF
// (vmaf/internal/feature/vif): vif_amd64.s and the Go declarations in
// vif_stub_amd64.go there. It runs from go generate in that package and
// lives in a module of its own, so that the main module does not depend on
// avo.
//
// The kernels reproduce the portable VIF kernels (kernels.go in that
// package) bit for bit; ../README.md describes how. Means are summed in 32-bit
// integer lanes, as the portable code does. The vertical pass sums the
// second moments of 16-bit samples, which need up to 48 bits, as float64,
// which holds every integer below 2^53 exactly, and rounds them exactly in
// floating point: for an integer S and a shift s >= 1,
// floor((S + 2^(s-1)) / 2^s) is (S + 0.5) * 2^-s rounded to nearest, which
// adding 2^52 performs and which can never be a tie. The vertical passes
// leave every sum as biased 16-bit words, which the horizontal pass filters
// with VPMADDWD and rebuilds exactly in 32-bit arithmetic.
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Byte offsets in vmaf's vifVecTaps, which holds one window's distinct
// coefficients (its first half, then the centre) three ways, 32 bytes
// each: in both 16-bit halves of eight lanes (for VPMADDWD; not for a
// centre of 1<<15 or more), in eight 32-bit lanes, and as four float64.
// Then the window as pairs of neighbouring taps for the horizontal pass,
// (c[2i], c[2i+1]) in the halves of eight lanes, each coefficient halved
// when the window has one of 1<<15 or more (all are even then); the bias
// correction of those sums in eight lanes; and the shift that undoes the
// halving (0 or 1).
const (
	maxCoefs  = 9
	tapsW16   = 0
	tapsW32   = maxCoefs * 32
	tapsF64   = 2 * maxCoefs * 32
	tapsPairs = 3 * maxCoefs * 32
	tapsCorr  = 4 * maxCoefs * 32
	tapsShift = tapsCorr + 32
	tapsOdd   = tapsShift + 8 // the pairs one tap earlier, for the AVX-512 horizontal pass
)

// Shared constants, 64 bytes each.
var (
	magic   Mem // 2^52 as float64: adding it rounds to an integer in the low mantissa bits
	half    Mem // 0.5 as float64
	round8  Mem // 1<<7 in 32-bit lanes
	round16 Mem // 1<<15 in 32-bit lanes
	round32 Mem // 1<<31 in 64-bit lanes
	low16   Mem // 0xffff in 32-bit lanes
	bias16  Mem // 1<<15 in 16-bit lanes
)

func main() {
	ConstraintExpr("amd64,!purego")
	magic = constant64("vifMagic", 0x4330000000000000)
	half = constant64("vifHalf", 0x3fe0000000000000)
	round8 = constant32("vifRound8", 1<<7)
	round16 = constant32("vifRound16", 1<<15)
	round32 = constant64("vifRound32", 1<<31)
	low16 = constant32("vifLow16", 0xffff)
	bias16 = constant32("vifBias16", 0x80008000)

	statsConstants()

	vertical8()
	vertical16()
	horizontal()
	means8()
	means16()
	decimate()
	stats()

	constants512()
	vertical8x512()
	vertical16x512()
	horizontal512()
	means8x512()
	means16x512()
	decimate512()
	stats512()
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

// The constants are 64 bytes, so that the AVX-512 kernels can read them
// whole; the AVX2 kernels read their first 32.

func constant64(name string, v uint64) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for i := 0; i < 8; i++ {
		DATA(8*i, U64(v))
	}
	return m
}

func constant32(name string, v uint32) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for i := 0; i < 16; i++ {
		DATA(4*i, U32(v))
	}
	return m
}
