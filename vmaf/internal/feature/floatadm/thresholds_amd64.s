#include "textflag.h"

// Four lanes of float32 |x| mask and the 1/15 weight as two doubles.
DATA absMask<>+0(SB)/8, $0x7fffffff7fffffff
DATA absMask<>+8(SB)/8, $0x7fffffff7fffffff
GLOBL absMask<>(SB), RODATA|NOPTR, $16
DATA oneBy15<>+0(SB)/8, $0.0666666701
DATA oneBy15<>+8(SB)/8, $0.0666666701
GLOBL oneBy15<>(SB), RODATA|NOPTR, $16

// BAND adds one band's sum for four columns to X0. The sum starts at
// zero and takes the neighbours one by one; the centre's 1/15 term is
// added in double, two lanes at a time, as the scalar code does.
#define BAND(off) \
	MOVQ (off+0)(SI), AX; \
	MOVQ (off+8)(SI), DX; \
	MOVQ (off+16)(SI), R8; \
	MOVQ (off+24)(SI), R9; \
	XORPS X1, X1; \
	MOVUPS (AX)(BX*1), X2; ADDPS X2, X1; \
	MOVUPS 4(AX)(BX*1), X2; ADDPS X2, X1; \
	MOVUPS 8(AX)(BX*1), X2; ADDPS X2, X1; \
	MOVUPS (DX)(BX*1), X2; ADDPS X2, X1; \
	MOVUPS (R9)(BX*1), X3; ANDPS X14, X3; \
	CVTPS2PD X3, X4; MULPD X15, X4; \
	CVTPS2PD X1, X5; ADDPD X4, X5; CVTPD2PS X5, X5; \
	MOVHLPS X3, X3; CVTPS2PD X3, X4; MULPD X15, X4; \
	MOVHLPS X1, X1; CVTPS2PD X1, X6; ADDPD X4, X6; CVTPD2PS X6, X6; \
	MOVLHPS X6, X5; \
	MOVUPS 8(DX)(BX*1), X2; ADDPS X2, X5; \
	MOVUPS (R8)(BX*1), X2; ADDPS X2, X5; \
	MOVUPS 4(R8)(BX*1), X2; ADDPS X2, X5; \
	MOVUPS 8(R8)(BX*1), X2; ADDPS X2, X5; \
	ADDPS X5, X0

// func thresholds4(thr *float32, p *[12]*float32, n int)
TEXT ·thresholds4(SB), NOSPLIT, $0-24
	MOVQ thr+0(FP), DI
	MOVQ p+8(FP), SI
	MOVQ n+16(FP), CX
	MOVUPS absMask<>(SB), X14
	MOVUPS oneBy15<>(SB), X15
	XORQ BX, BX
	TESTQ CX, CX
	JLE done
loop:
	XORPS X0, X0
	BAND(0)
	BAND(32)
	BAND(64)
	MOVUPS X0, (DI)(BX*1)
	ADDQ $16, BX
	SUBQ $4, CX
	JG loop
done:
	RET
