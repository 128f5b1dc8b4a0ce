//go:build amd64 && !purego

#include "textflag.h"

DATA ones<>+0(SB)/4, $0x00010001
GLOBL ones<>(SB), RODATA|NOPTR, $4

// Samples and their squares, summed in pairs by VPMADDWD into 32-bit
// lanes, then the lanes widened and added: integer sums, so any order
// gives the same totals. The callers bound n so that no lane can
// overflow.

// REDUCE leaves in R the 64-bit sum of the eight non-negative 32-bit
// lanes of Y (its upper half and X5 are clobbered).
#define REDUCE(Y, X, R) \
	VEXTRACTI128 $1, Y, X5 \
	VPMOVZXDQ    X, Y     \
	VPMOVZXDQ    X5, Y5   \
	VPADDQ       Y5, Y, Y \
	VEXTRACTI128 $1, Y, X5 \
	VPADDQ       X5, X, X \
	VPSHUFD      $0x4E, X, X5 \
	VPADDQ       X5, X, X \
	VMOVQ        X, R

// func sums8(p *byte, n int) (sum, sq int64)
TEXT ·sums8(SB), NOSPLIT, $0-32
	MOVQ         p+0(FP), SI
	MOVQ         n+8(FP), CX
	VPBROADCASTD ones<>(SB), Y15
	VPXOR        Y3, Y3, Y3
	VPXOR        Y4, Y4, Y4
	XORQ         AX, AX

loop8:
	CMPQ      AX, CX
	JGE       done8
	VPMOVZXBW (SI)(AX*1), Y0
	VPMADDWD  Y0, Y0, Y1
	VPADDD    Y1, Y3, Y3
	VPMADDWD  Y15, Y0, Y2
	VPADDD    Y2, Y4, Y4
	ADDQ      $16, AX
	JMP       loop8

done8:
	REDUCE(Y4, X4, AX)
	MOVQ AX, sum+16(FP)
	REDUCE(Y3, X3, AX)
	MOVQ AX, sq+24(FP)
	VZEROUPPER
	RET

// func sums16(p *uint16, n int) (sum, sq int64)
TEXT ·sums16(SB), NOSPLIT, $0-32
	MOVQ         p+0(FP), SI
	MOVQ         n+8(FP), CX
	VPBROADCASTD ones<>(SB), Y15
	VPXOR        Y3, Y3, Y3
	VPXOR        Y4, Y4, Y4
	XORQ         AX, AX

loop16:
	CMPQ     AX, CX
	JGE      done16
	VMOVDQU  (SI)(AX*2), Y0
	VPMADDWD Y0, Y0, Y1
	VPADDD   Y1, Y3, Y3
	VPMADDWD Y15, Y0, Y2
	VPADDD   Y2, Y4, Y4
	ADDQ     $16, AX
	JMP      loop16

done16:
	REDUCE(Y4, X4, AX)
	MOVQ AX, sum+16(FP)
	REDUCE(Y3, X3, AX)
	MOVQ AX, sq+24(FP)
	VZEROUPPER
	RET
