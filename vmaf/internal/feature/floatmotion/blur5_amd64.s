//go:build amd64 && !purego

#include "textflag.h"

// The five-tap passes with the taps and rows held in registers. Each
// lane starts from zero and adds its five products in tap order, one
// VMULPS product at a time (no FMA), as vblur, hblur and the scalar
// loops do.


// VSTEP adds the products of tap register T with 32 samples of the row
// at R from byte AX to Y0..Y3.
#define VSTEP(T, R) \
	VMULPS (R)(AX*1), T, Y4   \
	VADDPS Y4, Y0, Y0         \
	VMULPS 32(R)(AX*1), T, Y5 \
	VADDPS Y5, Y1, Y1         \
	VMULPS 64(R)(AX*1), T, Y6 \
	VADDPS Y6, Y2, Y2         \
	VMULPS 96(R)(AX*1), T, Y7 \
	VADDPS Y7, Y3, Y3

// func vblur5(dst *float32, rows *[5]*float32, f *[5]float32, n int)
TEXT ·vblur5(SB), NOSPLIT, $0-32
	MOVQ   dst+0(FP), DI
	MOVQ   rows+8(FP), SI
	MOVQ   f+16(FP), BX
	MOVQ   n+24(FP), CX
	SHLQ   $2, CX
	MOVQ   0(SI), R8
	MOVQ   8(SI), R9
	MOVQ   16(SI), R10
	MOVQ   24(SI), R11
	MOVQ   32(SI), R12
	VBROADCASTSS 0(BX), Y10
	VBROADCASTSS 4(BX), Y11
	VBROADCASTSS 8(BX), Y12
	VBROADCASTSS 12(BX), Y13
	VBROADCASTSS 16(BX), Y14
	VXORPS Y15, Y15, Y15
	XORQ   AX, AX

v5quad:
	LEAQ   128(AX), DX
	CMPQ   DX, CX
	JGT    v5one
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VSTEP(Y10, R8)
	VSTEP(Y11, R9)
	VSTEP(Y12, R10)
	VSTEP(Y13, R11)
	VSTEP(Y14, R12)
	VMOVUPS Y0, (DI)(AX*1)
	VMOVUPS Y1, 32(DI)(AX*1)
	VMOVUPS Y2, 64(DI)(AX*1)
	VMOVUPS Y3, 96(DI)(AX*1)
	MOVQ    DX, AX
	JMP     v5quad

v5one:
	CMPQ    AX, CX
	JGE     v5done
	VMULPS  (R8)(AX*1), Y10, Y4
	VADDPS  Y4, Y15, Y0
	VMULPS  (R9)(AX*1), Y11, Y4
	VADDPS  Y4, Y0, Y0
	VMULPS  (R10)(AX*1), Y12, Y4
	VADDPS  Y4, Y0, Y0
	VMULPS  (R11)(AX*1), Y13, Y4
	VADDPS  Y4, Y0, Y0
	VMULPS  (R12)(AX*1), Y14, Y4
	VADDPS  Y4, Y0, Y0
	VMOVUPS Y0, (DI)(AX*1)
	ADDQ    $32, AX
	JMP     v5one

v5done:
	VZEROUPPER
	RET

// HSTEP adds the products of tap register T with the samples k taps on
// (byte offset O) to Y0..Y3.
#define HSTEP(T, O) \
	VMULPS O(R8), T, Y4    \
	VADDPS Y4, Y0, Y0      \
	VMULPS (O+32)(R8), T, Y5 \
	VADDPS Y5, Y1, Y1      \
	VMULPS (O+64)(R8), T, Y6 \
	VADDPS Y6, Y2, Y2      \
	VMULPS (O+96)(R8), T, Y7 \
	VADDPS Y7, Y3, Y3

// func hblur5(o, e *float32, f *[5]float32, n int)
TEXT ·hblur5(SB), NOSPLIT, $0-32
	MOVQ   o+0(FP), DI
	MOVQ   e+8(FP), SI
	MOVQ   f+16(FP), BX
	MOVQ   n+24(FP), CX
	SHLQ   $2, CX
	VBROADCASTSS 0(BX), Y10
	VBROADCASTSS 4(BX), Y11
	VBROADCASTSS 8(BX), Y12
	VBROADCASTSS 12(BX), Y13
	VBROADCASTSS 16(BX), Y14
	VXORPS Y15, Y15, Y15
	XORQ   AX, AX

h5quad:
	LEAQ   128(AX), DX
	CMPQ   DX, CX
	JGT    h5one
	LEAQ   (SI)(AX*1), R8
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	HSTEP(Y10, 0)
	HSTEP(Y11, 4)
	HSTEP(Y12, 8)
	HSTEP(Y13, 12)
	HSTEP(Y14, 16)
	VMOVUPS Y0, (DI)(AX*1)
	VMOVUPS Y1, 32(DI)(AX*1)
	VMOVUPS Y2, 64(DI)(AX*1)
	VMOVUPS Y3, 96(DI)(AX*1)
	MOVQ    DX, AX
	JMP     h5quad

h5one:
	CMPQ    AX, CX
	JGE     h5done
	LEAQ    (SI)(AX*1), R8
	VMULPS  0(R8), Y10, Y4
	VADDPS  Y4, Y15, Y0
	VMULPS  4(R8), Y11, Y4
	VADDPS  Y4, Y0, Y0
	VMULPS  8(R8), Y12, Y4
	VADDPS  Y4, Y0, Y0
	VMULPS  12(R8), Y13, Y4
	VADDPS  Y4, Y0, Y0
	VMULPS  16(R8), Y14, Y4
	VADDPS  Y4, Y0, Y0
	VMOVUPS Y0, (DI)(AX*1)
	ADDQ    $32, AX
	JMP     h5one

h5done:
	VZEROUPPER
	RET
