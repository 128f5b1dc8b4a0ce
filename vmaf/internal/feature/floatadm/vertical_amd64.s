#include "textflag.h"

// TAPS sets X4 to the four taps X0..X3 filtered by f0..f3: a sum from
// zero, tap by tap, as filter4 computes it.
#define TAPS(f0, f1, f2, f3) \
	XORPS X4, X4; \
	MOVAPS X0, X5; MULPS f0, X5; ADDPS X5, X4; \
	MOVAPS X1, X5; MULPS f1, X5; ADDPS X5, X4; \
	MOVAPS X2, X5; MULPS f2, X5; ADDPS X5, X4; \
	MOVAPS X3, X5; MULPS f3, X5; ADDPS X5, X4

// BCAST sets x to four copies of the float32 at off(reg).
#define BCAST(off, reg, x) \
	MOVSS off(reg), x; \
	SHUFPS $0, x, x

// func vertical4(lo, hi *float32, rows *[4]*float32, fl, fh *[4]float32, n int)
TEXT ·vertical4(SB), NOSPLIT, $0-48
	MOVQ lo+0(FP), DI
	MOVQ hi+8(FP), R10
	MOVQ rows+16(FP), SI
	MOVQ fl+24(FP), AX
	MOVQ fh+32(FP), DX
	MOVQ n+40(FP), CX
	BCAST(0, AX, X8)
	BCAST(4, AX, X9)
	BCAST(8, AX, X10)
	BCAST(12, AX, X11)
	BCAST(0, DX, X12)
	BCAST(4, DX, X13)
	BCAST(8, DX, X14)
	BCAST(12, DX, X15)
	MOVQ 0(SI), R8
	MOVQ 8(SI), R9
	MOVQ 16(SI), R11
	MOVQ 24(SI), R12
	XORQ BX, BX
	TESTQ CX, CX
	JLE done
loop:
	MOVUPS (R8)(BX*1), X0
	MOVUPS (R9)(BX*1), X1
	MOVUPS (R11)(BX*1), X2
	MOVUPS (R12)(BX*1), X3
	TAPS(X8, X9, X10, X11)
	MOVUPS X4, (DI)(BX*1)
	TAPS(X12, X13, X14, X15)
	MOVUPS X4, (R10)(BX*1)
	ADDQ $16, BX
	SUBQ $4, CX
	JG loop
done:
	RET

// func horizontal4(lo, hi, src *float32, fl, fh *[4]float32, n int)
TEXT ·horizontal4(SB), NOSPLIT, $0-48
	MOVQ lo+0(FP), DI
	MOVQ hi+8(FP), R10
	MOVQ src+16(FP), SI
	MOVQ fl+24(FP), AX
	MOVQ fh+32(FP), DX
	MOVQ n+40(FP), CX
	BCAST(0, AX, X8)
	BCAST(4, AX, X9)
	BCAST(8, AX, X10)
	BCAST(12, AX, X11)
	BCAST(0, DX, X12)
	BCAST(4, DX, X13)
	BCAST(8, DX, X14)
	BCAST(12, DX, X15)
	XORQ BX, BX
	TESTQ CX, CX
	JLE hdone
hloop:
	// X0 = s[0,2,4,6], X1 = s[1,3,5,7], X2 = s[2,4,6,8], X3 = s[3,5,7,9]
	MOVUPS 0(SI), X0
	MOVUPS 16(SI), X6
	MOVAPS X0, X1
	SHUFPS $0x88, X6, X0
	SHUFPS $0xDD, X6, X1
	MOVUPS 8(SI), X2
	MOVUPS 24(SI), X7
	MOVAPS X2, X3
	SHUFPS $0x88, X7, X2
	SHUFPS $0xDD, X7, X3
	TAPS(X8, X9, X10, X11)
	MOVUPS X4, (DI)(BX*1)
	TAPS(X12, X13, X14, X15)
	MOVUPS X4, (R10)(BX*1)
	ADDQ $16, BX
	ADDQ $32, SI
	SUBQ $4, CX
	JG hloop
hdone:
	RET
