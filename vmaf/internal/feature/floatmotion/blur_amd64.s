//go:build amd64 && !purego

#include "textflag.h"

// Each lane sums its taps in order from zero, one VMULPS product at a
// time (no FMA), exactly as the scalar loops in blur.go do.

// func vblur(dst *float32, rows []*float32, f []float32, n int)
TEXT ·vblur(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ rows_base+8(FP), SI
	MOVQ f_base+32(FP), BX
	MOVQ f_len+40(FP), CX
	MOVQ n+56(FP), R10
	SHLQ $2, R10
	XORQ AX, AX

	// Two blocks of eight columns at a time, for independent sums.
pair:
	LEAQ 64(AX), R9
	CMPQ R9, R10
	JGT  one
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	XORQ R11, R11

pairtap:
	MOVQ (SI)(R11*8), R8
	VBROADCASTSS (BX)(R11*4), Y7
	VMULPS (R8)(AX*1), Y7, Y5
	VADDPS Y5, Y0, Y0
	VMULPS 32(R8)(AX*1), Y7, Y6
	VADDPS Y6, Y1, Y1
	INCQ R11
	CMPQ R11, CX
	JLT  pairtap

	VMOVUPS Y0, (DI)(AX*1)
	VMOVUPS Y1, 32(DI)(AX*1)
	ADDQ $64, AX
	JMP  pair

one:
	CMPQ AX, R10
	JGE  vdone
	VXORPS Y0, Y0, Y0
	XORQ R11, R11

onetap:
	MOVQ (SI)(R11*8), R8
	VBROADCASTSS (BX)(R11*4), Y7
	VMULPS (R8)(AX*1), Y7, Y5
	VADDPS Y5, Y0, Y0
	INCQ R11
	CMPQ R11, CX
	JLT  onetap

	VMOVUPS Y0, (DI)(AX*1)
	ADDQ $32, AX
	JMP  one

vdone:
	VZEROUPPER
	RET

// func hblur(o, e *float32, f []float32, n int)
TEXT ·hblur(SB), NOSPLIT, $0-48
	MOVQ o+0(FP), DI
	MOVQ e+8(FP), SI
	MOVQ f_base+16(FP), BX
	MOVQ f_len+24(FP), CX
	MOVQ n+40(FP), R10
	SHLQ $2, R10
	XORQ AX, AX

	// Four blocks of eight outputs at a time, for independent sums.
quad:
	LEAQ 128(AX), R9
	CMPQ R9, R10
	JGT  single
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	LEAQ (SI)(AX*1), R8
	XORQ R11, R11

quadtap:
	VBROADCASTSS (BX)(R11*4), Y7
	VMULPS (R8)(R11*4), Y7, Y4
	VADDPS Y4, Y0, Y0
	VMULPS 32(R8)(R11*4), Y7, Y5
	VADDPS Y5, Y1, Y1
	VMULPS 64(R8)(R11*4), Y7, Y6
	VADDPS Y6, Y2, Y2
	VMULPS 96(R8)(R11*4), Y7, Y8
	VADDPS Y8, Y3, Y3
	INCQ R11
	CMPQ R11, CX
	JLT  quadtap

	VMOVUPS Y0, (DI)(AX*1)
	VMOVUPS Y1, 32(DI)(AX*1)
	VMOVUPS Y2, 64(DI)(AX*1)
	VMOVUPS Y3, 96(DI)(AX*1)
	ADDQ $128, AX
	JMP  quad

single:
	CMPQ AX, R10
	JGE  hdone
	VXORPS Y0, Y0, Y0
	LEAQ (SI)(AX*1), R8
	XORQ R11, R11

singletap:
	VBROADCASTSS (BX)(R11*4), Y7
	VMULPS (R8)(R11*4), Y7, Y4
	VADDPS Y4, Y0, Y0
	INCQ R11
	CMPQ R11, CX
	JLT  singletap

	VMOVUPS Y0, (DI)(AX*1)
	ADDQ $32, AX
	JMP  single

hdone:
	VZEROUPPER
	RET
