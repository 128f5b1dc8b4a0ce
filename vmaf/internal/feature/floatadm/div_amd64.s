#include "textflag.h"

// func rcpEstimates(dst, src []float32)
TEXT ·rcpEstimates(SB), NOSPLIT, $0-48
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	TESTQ CX, CX
	JEQ done
loop:
	MOVSS (SI), X0
	RCPSS X0, X1
	MOVSS X1, (DI)
	ADDQ $4, SI
	ADDQ $4, DI
	DECQ CX
	JNE loop
done:
	RET
