//go:build amd64 && !purego

#include "textflag.h"

// func cRow16(rows *int16, img *uint16, hist *uint16, best *float32, n, stride int, active *uint32, weights *[32]int32, rcp *float32, nd int, pos *float32) int
//
// best[j] = the response of pixel j (0 when it has none) for j < n, n a
// multiple of 16: cRow's computation with one pixel a lane, the counts,
// steps and reciprocals gathered, each lane's steps in cRow's order.
// The positive responses are also written in order from pos; their
// number is returned.
TEXT ·cRow16(SB), NOSPLIT, $0-96
	MOVQ rows+0(FP), AX
	MOVQ img+8(FP), BX
	MOVQ hist+16(FP), SI
	MOVQ best+24(FP), DI
	MOVQ n+32(FP), CX
	MOVQ stride+40(FP), DX
	MOVQ active+48(FP), R8
	MOVQ weights+56(FP), R9
	MOVQ rcp+64(FP), R10
	MOVQ nd+72(FP), R11
	MOVQ pos+80(FP), R15

	VPBROADCASTD DX, Z20       // row stride in bytes
	XORQ DX, DX                // positive responses written
	VPTERNLOGD $0xff, Z21, Z21, Z21 // -1
	MOVL $2047, R12
	VPBROADCASTD R12, Z22
	MOVL $0xffff, R12
	VPBROADCASTD R12, Z23
	MOVL $1, R12
	VPBROADCASTD R12, Z24      // 1
	VPMOVZXBD lanes<>(SB), Z26  // 0..15
	VPADDD Z26, Z26, Z26        // byte offsets of the lanes' columns
	MOVL $32, R12
	VPBROADCASTD R12, Z27
	XORQ R13, R13              // j
	TESTQ CX, CX
	JZ done

chunk:
	VPXORD Z5, Z5, Z5
	VPMOVSXWD (AX)(R13*2), Z0
	VPCMPGTD Z21, Z0, K1
	KTESTW K1, K1
	JZ store
	VPMOVZXWD (BX)(R13*2), Z1
	VPANDD Z22, Z1, Z1
	KMOVW K1, K2
	VPXORD Z2, Z2, Z2
	VPGATHERDD (R8)(Z1*4), K2, Z2
	VPTESTMD Z2, Z2, K1, K1
	KTESTW K1, K1
	JZ store

	// Z3: the byte offset of each pixel's count in its own row.
	VPMULLD Z20, Z0, Z3
	VPADDD Z26, Z3, Z3
	KMOVW K1, K2
	VPXORD Z4, Z4, Z4
	VPGATHERDD (SI)(Z3*1), K2, Z4
	VPANDD Z23, Z4, Z4

	VMOVDQA64 Z24, Z11         // step bit
	VPXORD Z12, Z12, Z12       // d
	VPADDD Z20, Z3, Z13        // the row d+1 above
	VPSUBD Z20, Z3, Z14        // the row d+1 below
	XORQ R14, R14

step:
	VPTESTMD Z11, Z2, K1, K2
	KTESTW K2, K2
	JZ nextstep
	KMOVW K2, K3
	VPXORD Z6, Z6, Z6
	VPGATHERDD (SI)(Z13*1), K3, Z6
	VPANDD Z23, Z6, Z6
	VPCMPGTD Z12, Z0, K2, K4
	VPXORD Z7, Z7, Z7
	VPGATHERDD (SI)(Z14*1), K4, Z7
	VPANDD Z23, Z7, Z7
	VPMAXSD Z7, Z6, Z6
	VPMULLD.BCST (R9)(R14*4), Z4, Z8
	VPMULLD Z6, Z8, Z8
	VCVTDQ2PS Z8, Z8
	VPADDD Z4, Z6, Z9
	KMOVW K2, K3
	VXORPS Z10, Z10, Z10
	VGATHERDPS (R10)(Z9*4), K3, Z10
	VMULPS Z10, Z8, Z8
	VMAXPS Z8, Z5, K2, Z5

nextstep:
	VPSLLD $1, Z11, Z11
	VPADDD Z24, Z12, Z12
	VPADDD Z20, Z13, Z13
	VPSUBD Z20, Z14, Z14
	INCQ R14
	CMPQ R14, R11
	JLT step

store:
	VMOVUPS Z5, (DI)(R13*4)
	VPXORD Z9, Z9, Z9
	VCMPPS $0x0e, Z9, Z5, K5
	KMOVW K5, R12
	TESTL R12, R12
	JZ advance
	VCOMPRESSPS Z5, K5, Z9
	POPCNTL R12, R14
	MOVL $1, R12
	SHLXL R14, R12, R12
	DECL R12
	KMOVW R12, K6
	VMOVUPS Z9, K6, (R15)(DX*4)
	ADDQ R14, DX

advance:
	VPADDD Z27, Z26, Z26
	ADDQ $16, R13
	CMPQ R13, CX
	JLT chunk

done:
	MOVQ DX, ret+88(FP)
	VZEROUPPER
	RET

DATA lanes<>+0(SB)/8, $0x0706050403020100
DATA lanes<>+8(SB)/8, $0x0f0e0d0c0b0a0908
GLOBL lanes<>(SB), RODATA|NOPTR, $16
