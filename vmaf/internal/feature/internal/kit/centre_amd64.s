//go:build amd64 && !purego

#include "textflag.h"

DATA centre<>+0(SB)/4, $128.0
GLOBL centre<>(SB), RODATA|NOPTR, $4

// Both conversions are exact in float32, as Centre8 and Centre16's
// scalar loops are.

// func centre8(dst *float32, src *byte, n int)
TEXT ·centre8(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS centre<>(SB), Y15
	XORQ AX, AX

loop8:
	CMPQ AX, CX
	JGE  done8
	VPMOVZXBD (SI)(AX*1), Y0
	VCVTDQ2PS Y0, Y0
	VSUBPS    Y15, Y0, Y0
	VMOVUPS   Y0, (DI)(AX*4)
	ADDQ      $8, AX
	JMP       loop8

done8:
	VZEROUPPER
	RET

// func centre16(dst *float32, src *uint16, scale float32, n int)
TEXT ·centre16(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	VBROADCASTSS scale+16(FP), Y14
	MOVQ n+24(FP), CX
	VBROADCASTSS centre<>(SB), Y15
	XORQ AX, AX

loop16:
	CMPQ AX, CX
	JGE  done16
	VPMOVZXWD (SI)(AX*2), Y0
	VCVTDQ2PS Y0, Y0
	VMULPS    Y14, Y0, Y0
	VSUBPS    Y15, Y0, Y0
	VMOVUPS   Y0, (DI)(AX*4)
	ADDQ      $8, AX
	JMP       loop16

done16:
	VZEROUPPER
	RET
