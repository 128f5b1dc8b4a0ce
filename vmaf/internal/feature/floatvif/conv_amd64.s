//go:build amd64 && !purego

#include "textflag.h"

// Each lane sums its taps in order from zero, one VMULPS product at a
// time (no FMA), exactly as the scalar loops in conv.go do.

// func vconv5(m1, m2, xx, yy, xy *float32, ra, rb []*float32, f []float32, n int)
TEXT ·vconv5(SB), NOSPLIT, $0-120
	MOVQ ra_base+40(FP), SI
	MOVQ rb_base+64(FP), DX
	MOVQ f_base+88(FP), BX
	MOVQ f_len+96(FP), CX
	MOVQ n+112(FP), R10
	SHLQ $2, R10
	XORQ AX, AX

block:
	CMPQ AX, R10
	JGE  done
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	XORQ R11, R11

tap:
	MOVQ (SI)(R11*8), R8
	MOVQ (DX)(R11*8), R9
	VMOVUPS (R8)(AX*1), Y5
	VMOVUPS (R9)(AX*1), Y6
	VBROADCASTSS (BX)(R11*4), Y7
	VMULPS Y5, Y7, Y8
	VADDPS Y8, Y0, Y0
	VMULPS Y6, Y7, Y8
	VADDPS Y8, Y1, Y1
	VMULPS Y5, Y5, Y8
	VMULPS Y8, Y7, Y8
	VADDPS Y8, Y2, Y2
	VMULPS Y6, Y6, Y8
	VMULPS Y8, Y7, Y8
	VADDPS Y8, Y3, Y3
	VMULPS Y6, Y5, Y8
	VMULPS Y8, Y7, Y8
	VADDPS Y8, Y4, Y4
	INCQ R11
	CMPQ R11, CX
	JLT  tap

	MOVQ m1+0(FP), R8
	VMOVUPS Y0, (R8)(AX*1)
	MOVQ m2+8(FP), R8
	VMOVUPS Y1, (R8)(AX*1)
	MOVQ xx+16(FP), R8
	VMOVUPS Y2, (R8)(AX*1)
	MOVQ yy+24(FP), R8
	VMOVUPS Y3, (R8)(AX*1)
	MOVQ xy+32(FP), R8
	VMOVUPS Y4, (R8)(AX*1)
	ADDQ $32, AX
	JMP  block

done:
	VZEROUPPER
	RET

// func hconv(o, e *float32, f []float32, n int)
TEXT ·hconv(SB), NOSPLIT, $0-48
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

// func vconv2(m1, m2 *float32, ra, rb []*float32, f []float32, n int)
TEXT ·vconv2(SB), NOSPLIT, $0-96
	MOVQ m1+0(FP), DI
	MOVQ m2+8(FP), R12
	MOVQ ra_base+16(FP), SI
	MOVQ rb_base+40(FP), DX
	MOVQ f_base+64(FP), BX
	MOVQ f_len+72(FP), CX
	MOVQ n+88(FP), R10
	SHLQ $2, R10
	XORQ AX, AX

block2:
	CMPQ AX, R10
	JGE  done2
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	XORQ R11, R11

tap2:
	MOVQ (SI)(R11*8), R8
	MOVQ (DX)(R11*8), R9
	VBROADCASTSS (BX)(R11*4), Y7
	VMULPS (R8)(AX*1), Y7, Y5
	VADDPS Y5, Y0, Y0
	VMULPS (R9)(AX*1), Y7, Y6
	VADDPS Y6, Y1, Y1
	INCQ R11
	CMPQ R11, CX
	JLT  tap2

	VMOVUPS Y0, (DI)(AX*1)
	VMOVUPS Y1, (R12)(AX*1)
	ADDQ $32, AX
	JMP  block2

done2:
	VZEROUPPER
	RET
