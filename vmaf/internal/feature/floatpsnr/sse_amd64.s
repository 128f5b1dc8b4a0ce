//go:build amd64 && !purego

#include "textflag.h"

// Squares of differences, summed in pairs by VPMADDWD into 32-bit lanes,
// then the lanes widened and added: integer sums, so any order gives the
// same total. The callers bound n so that no lane can overflow.

// func sse8(a, b *byte, n int) int64
TEXT ·sse8(SB), NOSPLIT, $0-32
	MOVQ   a+0(FP), SI
	MOVQ   b+8(FP), DI
	MOVQ   n+16(FP), CX
	VPXOR  Y2, Y2, Y2
	XORQ   AX, AX

loop8:
	CMPQ      AX, CX
	JGE       sum8
	VPMOVZXBW (SI)(AX*1), Y0
	VPMOVZXBW (DI)(AX*1), Y1
	VPSUBW    Y1, Y0, Y0
	VPMADDWD  Y0, Y0, Y0
	VPADDD    Y0, Y2, Y2
	ADDQ      $16, AX
	JMP       loop8

sum8:
	VEXTRACTI128 $1, Y2, X3
	VPMOVZXDQ    X2, Y4
	VPMOVZXDQ    X3, Y5
	VPADDQ       Y5, Y4, Y4
	VEXTRACTI128 $1, Y4, X5
	VPADDQ       X5, X4, X4
	VPSHUFD      $0x4E, X4, X5
	VPADDQ       X5, X4, X4
	VMOVQ        X4, AX
	MOVQ         AX, ret+24(FP)
	VZEROUPPER
	RET

// func sse16(a, b *uint16, n int) int64
TEXT ·sse16(SB), NOSPLIT, $0-32
	MOVQ   a+0(FP), SI
	MOVQ   b+8(FP), DI
	MOVQ   n+16(FP), CX
	VPXOR  Y2, Y2, Y2
	XORQ   AX, AX

loop16:
	CMPQ     AX, CX
	JGE      sum16
	VMOVDQU  (SI)(AX*2), Y0
	VPSUBW   (DI)(AX*2), Y0, Y0
	VPMADDWD Y0, Y0, Y0
	VPADDD   Y0, Y2, Y2
	ADDQ     $16, AX
	JMP      loop16

sum16:
	VEXTRACTI128 $1, Y2, X3
	VPMOVZXDQ    X2, Y4
	VPMOVZXDQ    X3, Y5
	VPADDQ       Y5, Y4, Y4
	VEXTRACTI128 $1, Y4, X5
	VPADDQ       X5, X4, X4
	VPSHUFD      $0x4E, X4, X5
	VPADDQ       X5, X4, X4
	VMOVQ        X4, AX
	MOVQ         AX, ret+24(FP)
	VZEROUPPER
	RET
