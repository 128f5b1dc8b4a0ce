//go:build amd64 && !purego

#include "textflag.h"

// func mode3x32(a, b, c, out *uint16, n int)
//
// out[i] = mode3(a[i], b[i], c[i]) for n (a multiple of 32) levels, 32
// at a time: the minimum, then b where b and c agree, then a where a
// agrees with either, as mode3 chooses.
TEXT ·mode3x32(SB), NOSPLIT, $0-40
	MOVQ a+0(FP), AX
	MOVQ b+8(FP), BX
	MOVQ c+16(FP), CX
	MOVQ out+24(FP), DI
	MOVQ n+32(FP), DX
	XORQ SI, SI
	SHLQ $1, DX
	JZ done

loop:
	VMOVDQU16 (AX)(SI*1), Z0
	VMOVDQU16 (BX)(SI*1), Z1
	VMOVDQU16 (CX)(SI*1), Z2
	VPMINUW Z1, Z0, Z3
	VPMINUW Z2, Z3, Z3
	VPCMPEQW Z2, Z1, K1
	VMOVDQU16 Z1, K1, Z3
	VPCMPEQW Z1, Z0, K2
	VPCMPEQW Z2, Z0, K3
	KORD K2, K3, K2
	VMOVDQU16 Z0, K2, Z3
	VMOVDQU16 Z3, (DI)(SI*1)
	ADDQ $64, SI
	CMPQ SI, DX
	JLT loop

done:
	VZEROUPPER
	RET
