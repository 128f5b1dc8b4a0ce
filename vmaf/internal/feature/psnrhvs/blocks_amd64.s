//go:build amd64 && !purego

#include "textflag.h"

// Sixteen horizontally adjacent blocks at once, one per 32-bit lane:
// every per-block float32 chain of the portable code (variances,
// masking energy) then runs in its own lane in its own order, so the
// lanes give the portable code's bits.
//
// Scratch layout (vecScratch): the two planes' samples, then
// coefficients, at 0 and 4096 (64 vectors each, raster order), the
// transform's intermediate at 8192, the per-plane variance ratios and
// then masking strengths at 12288, the error terms at 12544.

#define TMP 8192
#define MASKS 12288
#define OUT 12544

// Integer constants of the DCT's lifting steps.
DATA fdctk<>+0(SB)/4, $13573
DATA fdctk<>+4(SB)/4, $11585
DATA fdctk<>+8(SB)/4, $21895
DATA fdctk<>+12(SB)/4, $15137
DATA fdctk<>+16(SB)/4, $19195
DATA fdctk<>+20(SB)/4, $7489
DATA fdctk<>+24(SB)/4, $3227
DATA fdctk<>+28(SB)/4, $6393
DATA fdctk<>+32(SB)/4, $2485
DATA fdctk<>+36(SB)/4, $18205
DATA fdctk<>+40(SB)/4, $16384
DATA fdctk<>+44(SB)/4, $8192
DATA fdctk<>+48(SB)/4, $4096
GLOBL fdctk<>(SB), RODATA|NOPTR, $52

// float32 constants: blockVarFix, quadVarFix, 1/32, 64, 16.
DATA fconst<>+0(SB)/4, $0x3f820821
DATA fconst<>+4(SB)/4, $0x3f888889
DATA fconst<>+8(SB)/4, $0x3d000000
DATA fconst<>+12(SB)/4, $0x42800000
DATA fconst<>+16(SB)/4, $0x41800000
GLOBL fconst<>(SB), RODATA|NOPTR, $20

// GATHER loads the 4 bytes at off(R9) of every block into Z8.
#define GATHER(off) \
	KXNORW K0, K0, K1; \
	VPXORD Z8, Z8, Z8; \
	VPGATHERDD off(R9)(Z31*1), K1, Z8

// BYTES splits Z8's bytes into the samples a, b, c, d (8-bit).
#define BYTES(a, b, c, d) \
	VPANDD Z30, Z8, a; \
	VPSRLD $8, Z8, b; \
	VPANDD Z30, b, b; \
	VPSRLD $16, Z8, c; \
	VPANDD Z30, c, c; \
	VPSRLD $24, Z8, d

// WORDS splits Z8's words into the samples a and b (16-bit).
#define WORDS(a, b) \
	VPANDD Z29, Z8, a; \
	VPSRLD $16, Z8, b

// VARSTEP adds sample off(DI)'s squared deviations from the block mean
// (Z16) to Z21 and from its quadrant's mean mq to acc.
#define VARSTEP(off, mq, acc) \
	VCVTDQ2PS off(DI), Z0; \
	VSUBPS Z16, Z0, Z1; \
	VMULPS Z1, Z1, Z1; \
	VADDPS Z1, Z21, Z21; \
	VSUBPS mq, Z0, Z2; \
	VMULPS Z2, Z2, Z2; \
	VADDPS Z2, acc, acc

#define VARROW \
	VARSTEP(0, Z3, Z22); \
	VARSTEP(64, Z3, Z22); \
	VARSTEP(128, Z3, Z22); \
	VARSTEP(192, Z3, Z22); \
	VARSTEP(256, Z4, Z23); \
	VARSTEP(320, Z4, Z23); \
	VARSTEP(384, Z4, Z23); \
	VARSTEP(448, Z4, Z23); \
	ADDQ $512, DI

// HALVE is the lifting's division by two, rounding toward zero.
#define HALVE(a, dst) \
	VPSRLD $31, a, dst; \
	VPADDD a, dst, dst; \
	VPSRAD $1, dst, dst

// MR sets Z12 to (a*k + r) >> sh.
#define MR(a, k, r, sh) \
	VPMULLD k, a, Z12; \
	VPADDD r, Z12, Z12; \
	VPSRAD $sh, Z12, Z12

// FDCT8 transforms Z0..Z7, loaded as t0 t4 t2 t6 t7 t3 t5 t1 (inputs
// x0..x7 into Z0 Z4 Z2 Z6 Z7 Z3 Z5 Z1), into y0..y7 in Z0..Z7.
// Multipliers are in Z16..Z25, rounding terms in Z26..Z28.
#define FDCT8 \
	VPSUBD Z1, Z0, Z1; \
	HALVE(Z1, Z8); \
	VPSUBD Z8, Z0, Z0; \
	VPADDD Z5, Z4, Z4; \
	HALVE(Z4, Z9); \
	VPSUBD Z9, Z5, Z5; \
	VPSUBD Z3, Z2, Z3; \
	HALVE(Z3, Z10); \
	VPSUBD Z10, Z2, Z2; \
	VPADDD Z7, Z6, Z6; \
	HALVE(Z6, Z11); \
	VPSUBD Z7, Z11, Z7; \
	VPADDD Z11, Z0, Z0; \
	VPSUBD Z6, Z0, Z6; \
	VPSUBD Z2, Z9, Z2; \
	VPSUBD Z4, Z2, Z4; \
	MR(Z4, Z16, Z26, 15); \
	VPSUBD Z12, Z0, Z0; \
	MR(Z0, Z17, Z27, 14); \
	VPADDD Z12, Z4, Z4; \
	MR(Z4, Z16, Z26, 15); \
	VPSUBD Z12, Z0, Z0; \
	MR(Z2, Z18, Z26, 15); \
	VPSUBD Z12, Z6, Z6; \
	MR(Z6, Z19, Z27, 14); \
	VPADDD Z12, Z2, Z2; \
	MR(Z2, Z18, Z26, 15); \
	VPSUBD Z12, Z6, Z6; \
	MR(Z5, Z20, Z26, 15); \
	VPADDD Z12, Z3, Z3; \
	MR(Z3, Z17, Z27, 14); \
	VPADDD Z12, Z5, Z5; \
	MR(Z5, Z21, Z28, 13); \
	VPSUBD Z12, Z3, Z3; \
	HALVE(Z5, Z10); \
	VPSUBD Z7, Z10, Z7; \
	VPSUBD Z7, Z5, Z5; \
	VPSUBD Z3, Z8, Z3; \
	VPSUBD Z3, Z1, Z1; \
	MR(Z1, Z22, Z26, 15); \
	VPADDD Z12, Z7, Z7; \
	MR(Z7, Z23, Z26, 15); \
	VPSUBD Z12, Z1, Z1; \
	MR(Z1, Z22, Z26, 15); \
	VPADDD Z12, Z7, Z7; \
	MR(Z3, Z24, Z28, 13); \
	VPADDD Z12, Z5, Z5; \
	MR(Z5, Z25, Z26, 15); \
	VPSUBD Z12, Z3, Z3; \
	MR(Z3, Z24, Z28, 13); \
	VPADDD Z12, Z5, Z5

// DCTPASS runs FDCT8 over the eight columns at SI (vectors 512 bytes
// apart, columns 64 apart) and writes each column's coefficients in a
// row at DI (vectors 64 apart, rows 512 apart).
#define DCTPASS(name) \
	MOVQ $8, CX; \
name: \
	VMOVDQU32 0(SI), Z0; \
	VMOVDQU32 512(SI), Z4; \
	VMOVDQU32 1024(SI), Z2; \
	VMOVDQU32 1536(SI), Z6; \
	VMOVDQU32 2048(SI), Z7; \
	VMOVDQU32 2560(SI), Z3; \
	VMOVDQU32 3072(SI), Z5; \
	VMOVDQU32 3584(SI), Z1; \
	FDCT8; \
	VMOVDQU32 Z0, 0(DI); \
	VMOVDQU32 Z1, 64(DI); \
	VMOVDQU32 Z2, 128(DI); \
	VMOVDQU32 Z3, 192(DI); \
	VMOVDQU32 Z4, 256(DI); \
	VMOVDQU32 Z5, 320(DI); \
	VMOVDQU32 Z6, 384(DI); \
	VMOVDQU32 Z7, 448(DI); \
	ADDQ $64, SI; \
	ADDQ $512, DI; \
	DECQ CX; \
	JNZ name

// func blocks16(src *[2]*byte, stride *[2]int, bps int, idx *[16]int32, wt *weights, s *vecScratch)
TEXT ·blocks16(SB), NOSPLIT, $0-48
	MOVQ src+0(FP), AX
	MOVQ stride+8(FP), BX
	MOVQ bps+16(FP), R8
	MOVQ idx+24(FP), R10
	MOVQ wt+32(FP), R11
	MOVQ s+40(FP), R12
	VMOVDQU32 (R10), Z31
	MOVL $0xff, R13
	VPBROADCASTD R13, Z30
	MOVL $0xffff, R13
	VPBROADCASTD R13, Z29
	XORQ R15, R15

plane:
	MOVQ (AX)(R15*8), R9
	MOVQ (BX)(R15*8), DX
	MOVQ R15, DI
	SHLQ $12, DI
	ADDQ R12, DI

	// Samples, and the integer sums of the quadrants' left and right
	// halves row by row: top ones into Z24 Z26, bottom ones into Z25 Z27.
	VPXORD Z24, Z24, Z24
	VPXORD Z25, Z25, Z25
	VPXORD Z26, Z26, Z26
	VPXORD Z27, Z27, Z27
	XORQ R14, R14

rows:
	// A row of a block is 8 samples, 8 or 16 bytes: two or four
	// 4-byte gathers, none reaching past the block.
	CMPQ R8, $1
	JNE rows16
	GATHER(0)
	BYTES(Z0, Z1, Z2, Z3)
	GATHER(4)
	BYTES(Z4, Z5, Z6, Z7)
	JMP store

rows16:
	GATHER(0)
	WORDS(Z0, Z1)
	GATHER(4)
	WORDS(Z2, Z3)
	GATHER(8)
	WORDS(Z4, Z5)
	GATHER(12)
	WORDS(Z6, Z7)

store:
	VMOVDQU32 Z0, 0(DI)
	VMOVDQU32 Z1, 64(DI)
	VMOVDQU32 Z2, 128(DI)
	VMOVDQU32 Z3, 192(DI)
	VMOVDQU32 Z4, 256(DI)
	VMOVDQU32 Z5, 320(DI)
	VMOVDQU32 Z6, 384(DI)
	VMOVDQU32 Z7, 448(DI)
	VPADDD Z1, Z0, Z0
	VPADDD Z3, Z2, Z2
	VPADDD Z2, Z0, Z0
	VPADDD Z5, Z4, Z4
	VPADDD Z7, Z6, Z6
	VPADDD Z6, Z4, Z4
	CMPQ R14, $4
	JGE bottom
	VPADDD Z0, Z24, Z24
	VPADDD Z4, Z26, Z26
	JMP next

bottom:
	VPADDD Z0, Z25, Z25
	VPADDD Z4, Z27, Z27

next:
	ADDQ DX, R9
	ADDQ $512, DI
	INCQ R14
	CMPQ R14, $8
	JLT rows
	SUBQ $4096, DI

	// Means: the block's over 64 samples in Z16, the quadrants' over 16
	// in Z17 (top left), Z18 (bottom left), Z19 (top right), Z20.
	VPADDD Z25, Z24, Z0
	VPADDD Z26, Z0, Z0
	VPADDD Z27, Z0, Z0
	VCVTDQ2PS Z0, Z0
	VBROADCASTSS fconst<>+12(SB), Z1
	VDIVPS Z1, Z0, Z16
	VBROADCASTSS fconst<>+16(SB), Z1
	VCVTDQ2PS Z24, Z0
	VDIVPS Z1, Z0, Z17
	VCVTDQ2PS Z25, Z0
	VDIVPS Z1, Z0, Z18
	VCVTDQ2PS Z26, Z0
	VDIVPS Z1, Z0, Z19
	VCVTDQ2PS Z27, Z0
	VDIVPS Z1, Z0, Z20

	// Sums of squared deviations in raster order: the block's in Z21,
	// the quadrants' in Z24 (top left), Z25, Z26, Z27 as above.
	VPXORD Z21, Z21, Z21
	VPXORD Z22, Z22, Z22
	VPXORD Z23, Z23, Z23
	VMOVAPS Z17, Z3
	VMOVAPS Z19, Z4
	VARROW
	VARROW
	VARROW
	VARROW
	VMOVAPS Z22, Z24
	VMOVAPS Z23, Z26
	VPXORD Z22, Z22, Z22
	VPXORD Z23, Z23, Z23
	VMOVAPS Z18, Z3
	VMOVAPS Z20, Z4
	VARROW
	VARROW
	VARROW
	VARROW
	VMOVAPS Z22, Z25
	VMOVAPS Z23, Z27
	SUBQ $4096, DI

	// Variance ratio into the plane's slot.
	VMULPS.BCST fconst<>+0(SB), Z21, Z21
	VBROADCASTSS fconst<>+4(SB), Z1
	VMULPS Z1, Z24, Z24
	VMULPS Z1, Z25, Z25
	VMULPS Z1, Z26, Z26
	VMULPS Z1, Z27, Z27
	VADDPS Z25, Z24, Z0
	VADDPS Z26, Z0, Z0
	VADDPS Z27, Z0, Z0
	VPXORD Z1, Z1, Z1
	VCMPPS $0x0e, Z1, Z21, K2
	VDIVPS Z21, Z0, K2, Z21
	MOVQ R15, R9
	SHLQ $6, R9
	VMOVUPS Z21, MASKS(R12)(R9*1)

	// The 2-D transform: columns into TMP, then TMP's columns back.
	VPBROADCASTD fdctk<>+0(SB), Z16
	VPBROADCASTD fdctk<>+4(SB), Z17
	VPBROADCASTD fdctk<>+8(SB), Z18
	VPBROADCASTD fdctk<>+12(SB), Z19
	VPBROADCASTD fdctk<>+16(SB), Z20
	VPBROADCASTD fdctk<>+20(SB), Z21
	VPBROADCASTD fdctk<>+24(SB), Z22
	VPBROADCASTD fdctk<>+28(SB), Z23
	VPBROADCASTD fdctk<>+32(SB), Z24
	VPBROADCASTD fdctk<>+36(SB), Z25
	VPBROADCASTD fdctk<>+40(SB), Z26
	VPBROADCASTD fdctk<>+44(SB), Z27
	VPBROADCASTD fdctk<>+48(SB), Z28
	MOVQ DI, SI
	LEAQ TMP(R12), DI
	DCTPASS(pass1)
	LEAQ TMP(R12), SI
	MOVQ R15, CX
	SHLQ $12, CX
	LEAQ (R12)(CX*1), DI
	DCTPASS(pass2)
	SUBQ $4096, DI

	// Masking strength: the AC energy weighted by the masking table,
	// summed in raster order, times the ratio, rooted, over 32.
	VPXORD Z8, Z8, Z8
	MOVQ DI, SI
	MOVQ R11, R10
	MOVQ $63, CX

energy:
	ADDQ $64, SI
	ADDQ $4, R10
	VMOVDQU32 (SI), Z0
	VPMULLD Z0, Z0, Z0
	VCVTDQ2PS Z0, Z0
	VMULPS.BCST 256(R10), Z0, Z0
	VADDPS Z0, Z8, Z8
	DECQ CX
	JNZ energy
	VMULPS MASKS(R12)(R9*1), Z8, Z8
	VSQRTPS Z8, Z8
	VMULPS.BCST fconst<>+8(SB), Z8, Z8
	VMOVUPS Z8, MASKS+128(R12)(R9*1)

	INCQ R15
	CMPQ R15, $2
	JLT plane

	// Error terms: the coefficient differences less the masking
	// threshold (the DC's unmasked), weighted by the CSF, squared.
	VMOVUPS MASKS+128(R12), Z9
	VMAXPS MASKS+192(R12), Z9, Z9
	VMOVDQU32 (R12), Z0
	VPSUBD 4096(R12), Z0, Z0
	VPABSD Z0, Z0
	VCVTDQ2PS Z0, Z0
	VMULPS.BCST (R11), Z0, Z0
	VMULPS Z0, Z0, Z0
	VMOVUPS Z0, OUT(R12)
	MOVQ R12, SI
	MOVQ R11, R10
	MOVQ $63, CX

terms:
	ADDQ $64, SI
	ADDQ $4, R10
	VMOVDQU32 (SI), Z0
	VPSUBD 4096(SI), Z0, Z0
	VPABSD Z0, Z0
	VCVTDQ2PS Z0, Z0
	VDIVPS.BCST 256(R10), Z9, Z1
	VCMPPS $0x0d, Z1, Z0, K1
	VSUBPS.Z Z1, Z0, K1, Z0
	VMULPS.BCST (R10), Z0, Z0
	VMULPS Z0, Z0, Z0
	VMOVUPS Z0, OUT(SI)
	DECQ CX
	JNZ terms

	VZEROUPPER
	RET
