//go:build amd64 && !purego

#include "textflag.h"

DATA absmask<>+0(SB)/4, $0x7fffffff
GLOBL absmask<>(SB), RODATA|NOPTR, $4

// Eight rows at a time, one per lane: an 8×8 block of differences is
// transposed so that adding its columns in order to the running sums
// adds each row's differences in column order, as the scalar loop does.
// Clearing the sign bit gives the same sums as negating negative
// differences: only a −0 difference differs, and adding −0 or +0 to a
// sum that started at +0 leaves it as it is.

// func absDiff8(a, b *float32, stride, n int, sums *[8]float32)
TEXT ·absDiff8(SB), NOSPLIT, $0-40
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ stride+16(FP), DX
	SHLQ $2, DX
	MOVQ n+24(FP), CX
	SHLQ $2, CX
	MOVQ sums+32(FP), R8
	VMOVUPS (R8), Y14
	VBROADCASTSS absmask<>(SB), Y15
	LEAQ (DX)(DX*2), R9 // 3 rows
	LEAQ (DX)(DX*4), R10 // 5 rows
	LEAQ (R9)(DX*4), R11 // 7 rows
	XORQ AX, AX

loop:
	CMPQ AX, CX
	JGE  done
	LEAQ (SI)(AX*1), R12
	LEAQ (DI)(AX*1), R13
	VMOVUPS (R12), Y0
	VSUBPS  (R13), Y0, Y0
	VMOVUPS (R12)(DX*1), Y1
	VSUBPS  (R13)(DX*1), Y1, Y1
	VMOVUPS (R12)(DX*2), Y2
	VSUBPS  (R13)(DX*2), Y2, Y2
	VMOVUPS (R12)(R9*1), Y3
	VSUBPS  (R13)(R9*1), Y3, Y3
	VMOVUPS (R12)(DX*4), Y4
	VSUBPS  (R13)(DX*4), Y4, Y4
	VMOVUPS (R12)(R10*1), Y5
	VSUBPS  (R13)(R10*1), Y5, Y5
	VMOVUPS (R12)(R9*2), Y6
	VSUBPS  (R13)(R9*2), Y6, Y6
	VMOVUPS (R12)(R11*1), Y7
	VSUBPS  (R13)(R11*1), Y7, Y7
	VANDPS  Y15, Y0, Y0
	VANDPS  Y15, Y1, Y1
	VANDPS  Y15, Y2, Y2
	VANDPS  Y15, Y3, Y3
	VANDPS  Y15, Y4, Y4
	VANDPS  Y15, Y5, Y5
	VANDPS  Y15, Y6, Y6
	VANDPS  Y15, Y7, Y7

	// Rows r0..r7 in Y0..Y7 become columns c0..c7.
	VUNPCKLPS Y1, Y0, Y8 // t0
	VUNPCKHPS Y1, Y0, Y9 // t1
	VUNPCKLPS Y3, Y2, Y0 // t2
	VUNPCKHPS Y3, Y2, Y1 // t3
	VUNPCKLPS Y5, Y4, Y2 // t4
	VUNPCKHPS Y5, Y4, Y3 // t5
	VUNPCKLPS Y7, Y6, Y4 // t6
	VUNPCKHPS Y7, Y6, Y5 // t7
	VSHUFPS $0x44, Y0, Y8, Y6 // s0
	VSHUFPS $0xEE, Y0, Y8, Y7 // s1
	VSHUFPS $0x44, Y1, Y9, Y8 // s2
	VSHUFPS $0xEE, Y1, Y9, Y0 // s3
	VSHUFPS $0x44, Y4, Y2, Y9 // s4
	VSHUFPS $0xEE, Y4, Y2, Y1 // s5
	VSHUFPS $0x44, Y5, Y3, Y2 // s6
	VSHUFPS $0xEE, Y5, Y3, Y4 // s7
	VPERM2F128 $0x20, Y9, Y6, Y3  // c0
	VPERM2F128 $0x20, Y1, Y7, Y5  // c1
	VPERM2F128 $0x20, Y2, Y8, Y10 // c2
	VPERM2F128 $0x20, Y4, Y0, Y11 // c3
	VPERM2F128 $0x31, Y9, Y6, Y12 // c4
	VPERM2F128 $0x31, Y1, Y7, Y13 // c5
	VPERM2F128 $0x31, Y2, Y8, Y6  // c6
	VPERM2F128 $0x31, Y4, Y0, Y7  // c7
	VADDPS Y3, Y14, Y14
	VADDPS Y5, Y14, Y14
	VADDPS Y10, Y14, Y14
	VADDPS Y11, Y14, Y14
	VADDPS Y12, Y14, Y14
	VADDPS Y13, Y14, Y14
	VADDPS Y6, Y14, Y14
	VADDPS Y7, Y14, Y14
	ADDQ $32, AX
	JMP  loop

done:
	VMOVUPS Y14, (R8)
	VZEROUPPER
	RET
