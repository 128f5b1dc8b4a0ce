//go:build amd64 && !purego

#include "textflag.h"

DATA centre<>+0(SB)/4, $128.0
GLOBL centre<>(SB), RODATA|NOPTR, $4

// covSum's accumulators: a0..a3 in Y0, b0..b3 in Y1, the unfused tail
// in X2. Fused multiply-adds round once, as math.FMA does.

// func covSumAVX2(x, y *float64, w, h int) float64
TEXT ·covSumAVX2(SB), NOSPLIT, $0-40
	MOVQ   x+0(FP), SI
	MOVQ   y+8(FP), DI
	MOVQ   w+16(FP), R8
	MOVQ   h+24(FP), DX
	SHLQ   $3, R8 // row bytes
	MOVQ   R8, R9
	ANDQ   $-64, R9 // bytes in runs of eight
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD X2, X2, X2

row:
	TESTQ DX, DX
	JZ    sum
	XORQ  AX, AX

eight:
	CMPQ        AX, R9
	JGE         four
	VMOVUPD     (SI)(AX*1), Y3
	VFMADD231PD (DI)(AX*1), Y3, Y0
	VMOVUPD     32(SI)(AX*1), Y4
	VFMADD231PD 32(DI)(AX*1), Y4, Y1
	ADDQ        $64, AX
	JMP         eight

four:
	LEAQ        32(AX), R10
	CMPQ        R10, R8
	JGT         tail
	VMOVUPD     (SI)(AX*1), Y3
	VFMADD231PD (DI)(AX*1), Y3, Y0
	MOVQ        R10, AX

tail:
	CMPQ   AX, R8
	JGE    next
	VMOVSD (SI)(AX*1), X3
	VMULSD (DI)(AX*1), X3, X3
	VADDSD X3, X2, X2
	ADDQ   $8, AX
	JMP    tail

next:
	ADDQ R8, SI
	ADDQ R8, DI
	DECQ DX
	JMP  row

sum:
	// (a0+b0) + (a1+b1) + (a2+b2) + (a3+b3) + tail, left to right.
	VADDPD       Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VUNPCKHPD    X0, X0, X3
	VADDSD       X3, X0, X4
	VADDSD       X1, X4, X4
	VUNPCKHPD    X1, X1, X3
	VADDSD       X3, X4, X4
	VADDSD       X2, X4, X4
	VMOVSD       X4, ret+32(FP)
	VZEROUPPER
	RET

DATA lanes<>+0(SB)/4, $0
DATA lanes<>+4(SB)/4, $1
DATA lanes<>+8(SB)/4, $2
DATA lanes<>+12(SB)/4, $3
DATA lanes<>+16(SB)/4, $4
DATA lanes<>+20(SB)/4, $5
DATA lanes<>+24(SB)/4, $6
DATA lanes<>+28(SB)/4, $7
GLOBL lanes<>(SB), RODATA|NOPTR, $32

DATA eights<>+0(SB)/4, $8
GLOBL eights<>(SB), RODATA|NOPTR, $4

// mulAVX2 takes the columns in strips of 32, four blocks of eight. For
// each row of dst the strip's sums stay in Y0..Y3 while the products over
// the inner index are added in order, so no sum waits on a store; a
// strip narrower than 32 loads and stores under masks of the columns it
// has. Masked-off lanes load zeros and are never stored.

// MULSTEP adds x (Y4) times the y row at R13 to the sums, the loads
// masked by Y8..Y11.
#define MULSTEP \
	VMASKMOVPS (R13), Y8, Y5    \
	VMULPS     Y5, Y4, Y5       \
	VADDPS     Y5, Y0, Y0       \
	VMASKMOVPS 32(R13), Y9, Y6  \
	VMULPS     Y6, Y4, Y6       \
	VADDPS     Y6, Y1, Y1       \
	VMASKMOVPS 64(R13), Y10, Y5 \
	VMULPS     Y5, Y4, Y5       \
	VADDPS     Y5, Y2, Y2       \
	VMASKMOVPS 96(R13), Y11, Y6 \
	VMULPS     Y6, Y4, Y6       \
	VADDPS     Y6, Y3, Y3

// func mulAVX2(dst, x, y *float32, rows, inner, cols, ldd, ldx, ldy int)
TEXT ·mulAVX2(SB), NOSPLIT, $0-72
	MOVQ   dst+0(FP), DI
	MOVQ   y+16(FP), BX
	MOVQ   cols+40(FP), R12 // columns left, from this strip on
	MOVQ   ldd+48(FP), R14
	SHLQ   $2, R14
	MOVQ   ldx+56(FP), R10
	SHLQ   $2, R10
	MOVQ   ldy+64(FP), DX
	SHLQ   $2, DX
	VXORPS Y15, Y15, Y15

strip:
	TESTQ R12, R12
	JLE   mdone

	// Masks of the strip's columns: lane l of block b is on when
	// 8b + l < the columns left.
	VMOVDQU      lanes<>(SB), Y12
	VPBROADCASTD eights<>(SB), Y13
	MOVQ         R12, X14
	VPBROADCASTD X14, Y14
	VPCMPGTD     Y12, Y14, Y8
	VPADDD       Y13, Y12, Y12
	VPCMPGTD     Y12, Y14, Y9
	VPADDD       Y13, Y12, Y12
	VPCMPGTD     Y12, Y14, Y10
	VPADDD       Y13, Y12, Y12
	VPCMPGTD     Y12, Y14, Y11

	MOVQ x+8(FP), SI
	MOVQ DI, AX // row i of dst, this strip
	MOVQ rows+24(FP), R8

mrow:
	TESTQ  R8, R8
	JZ     mnextstrip
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	MOVQ   BX, R13 // row k of y, this strip
	XORQ   CX, CX
	MOVQ   inner+32(FP), R9

kloop:
	CMPQ     CX, R9
	JGE      mstore
	VMOVSS   (SI)(CX*4), X4
	VUCOMISS X15, X4
	JNE      nonzero
	JPS      nonzero
	JMP      knext // a zero factor adds nothing; mulLD skips it too

nonzero:
	VBROADCASTSS X4, Y4
	MULSTEP

knext:
	ADDQ DX, R13
	INCQ CX
	JMP  kloop

mstore:
	// Masked stores are slow: whole blocks store plainly, the partial
	// one under its mask, the ones past the columns not at all.
	CMPQ       R12, $8
	JLT        mstore0
	VMOVUPS    Y0, (AX)
	CMPQ       R12, $16
	JLT        mstore1
	VMOVUPS    Y1, 32(AX)
	CMPQ       R12, $24
	JLT        mstore2
	VMOVUPS    Y2, 64(AX)
	CMPQ       R12, $32
	JLT        mstore3
	VMOVUPS    Y3, 96(AX)
	JMP        mnextrow

mstore0:
	VMASKMOVPS Y0, Y8, (AX)
	JMP        mnextrow

mstore1:
	VMASKMOVPS Y1, Y9, 32(AX)
	JMP        mnextrow

mstore2:
	VMASKMOVPS Y2, Y10, 64(AX)
	JMP        mnextrow

mstore3:
	VMASKMOVPS Y3, Y11, 96(AX)

mnextrow:
	ADDQ       R10, SI
	ADDQ       R14, AX
	DECQ       R8
	JMP        mrow

mnextstrip:
	ADDQ $128, DI
	ADDQ $128, BX
	SUBQ $32, R12
	JMP  strip

mdone:
	VZEROUPPER
	RET

// func columnsAVX2(dst *float32, rows []*float32, f []float32, n int)
TEXT ·columnsAVX2(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ rows_base+8(FP), SI
	MOVQ f_base+32(FP), BX
	MOVQ f_len+40(FP), CX
	MOVQ n+56(FP), R10
	SHLQ $2, R10
	XORQ AX, AX

	// Four blocks of eight columns at a time, for independent sums.
cquad:
	LEAQ         128(AX), R9
	CMPQ         R9, R10
	JGT          cone
	MOVQ         (SI), R8
	VBROADCASTSS (BX), Y7
	VMULPS       (R8)(AX*1), Y7, Y0
	VMULPS       32(R8)(AX*1), Y7, Y1
	VMULPS       64(R8)(AX*1), Y7, Y2
	VMULPS       96(R8)(AX*1), Y7, Y3
	MOVQ         $1, R11

cquadtap:
	CMPQ         R11, CX
	JGE          cquadstore
	MOVQ         (SI)(R11*8), R8
	VBROADCASTSS (BX)(R11*4), Y7
	VMULPS       (R8)(AX*1), Y7, Y4
	VADDPS       Y4, Y0, Y0
	VMULPS       32(R8)(AX*1), Y7, Y5
	VADDPS       Y5, Y1, Y1
	VMULPS       64(R8)(AX*1), Y7, Y6
	VADDPS       Y6, Y2, Y2
	VMULPS       96(R8)(AX*1), Y7, Y8
	VADDPS       Y8, Y3, Y3
	INCQ         R11
	JMP          cquadtap

cquadstore:
	VMOVUPS Y0, (DI)(AX*1)
	VMOVUPS Y1, 32(DI)(AX*1)
	VMOVUPS Y2, 64(DI)(AX*1)
	VMOVUPS Y3, 96(DI)(AX*1)
	ADDQ    $128, AX
	JMP     cquad

cone:
	CMPQ         AX, R10
	JGE          cdone
	MOVQ         (SI), R8
	VBROADCASTSS (BX), Y7
	VMULPS       (R8)(AX*1), Y7, Y0
	MOVQ         $1, R11

conetap:
	CMPQ         R11, CX
	JGE          conestore
	MOVQ         (SI)(R11*8), R8
	VBROADCASTSS (BX)(R11*4), Y7
	VMULPS       (R8)(AX*1), Y7, Y4
	VADDPS       Y4, Y0, Y0
	INCQ         R11
	JMP          conetap

conestore:
	VMOVUPS Y0, (DI)(AX*1)
	ADDQ    $32, AX
	JMP     cone

cdone:
	VZEROUPPER
	RET

// The differences are exact in float32, as the scalar ones are.

// func diff8AVX2(dst *float32, a, b *byte, n int)
TEXT ·diff8AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), BX
	MOVQ n+24(FP), CX
	XORQ AX, AX

d8:
	CMPQ      AX, CX
	JGE       d8done
	VPMOVZXBD (SI)(AX*1), Y0
	VPMOVZXBD (BX)(AX*1), Y1
	VPSUBD    Y1, Y0, Y0
	VCVTDQ2PS Y0, Y0
	VMOVUPS   Y0, (DI)(AX*4)
	ADDQ      $8, AX
	JMP       d8

d8done:
	VZEROUPPER
	RET

// func diff16AVX2(dst *float32, a, b *uint16, scale float32, n int)
TEXT ·diff16AVX2(SB), NOSPLIT, $0-40
	MOVQ         dst+0(FP), DI
	MOVQ         a+8(FP), SI
	MOVQ         b+16(FP), BX
	VBROADCASTSS scale+24(FP), Y14
	MOVQ         n+32(FP), CX
	XORQ         AX, AX

d16:
	CMPQ      AX, CX
	JGE       d16done
	VPMOVZXWD (SI)(AX*2), Y0
	VPMOVZXWD (BX)(AX*2), Y1
	VPSUBD    Y1, Y0, Y0
	VCVTDQ2PS Y0, Y0
	VMULPS    Y14, Y0, Y0
	VMOVUPS   Y0, (DI)(AX*4)
	ADDQ      $8, AX
	JMP       d16

d16done:
	VZEROUPPER
	RET

// COVSUM reduces accumulators A (a0..a3) and B (b0..b3) and the tail in
// XT as covSum does, (a0+b0) + (a1+b1) + (a2+b2) + (a3+b3) + tail left
// to right, and stores the total at DST. Y14, Y15 and X13 are scratch.
#define COVSUM(A, B, XA, XT, DST) \
	VADDPD       B, A, A      \
	VEXTRACTF128 $1, A, X14   \
	VUNPCKHPD    XA, XA, X15  \
	VADDSD       X15, XA, X13 \
	VADDSD       X14, X13, X13 \
	VUNPCKHPD    X14, X14, X15 \
	VADDSD       X15, X13, X13 \
	VADDSD       XT, X13, X13 \
	VMOVSD       X13, DST

// func covSum4AVX2(x *float64, y *[4]*float64, w, h int, out *[4]float64)
TEXT ·covSum4AVX2(SB), NOSPLIT, $0-40
	MOVQ   x+0(FP), SI
	MOVQ   y+8(FP), AX
	MOVQ   0(AX), R11
	MOVQ   8(AX), R12
	MOVQ   16(AX), R13
	MOVQ   24(AX), BX
	MOVQ   w+16(FP), R8
	MOVQ   h+24(FP), DX
	SHLQ   $3, R8 // row bytes
	MOVQ   R8, R9
	ANDQ   $-64, R9 // bytes in runs of eight
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD X8, X8, X8
	VXORPD X9, X9, X9
	VXORPD X10, X10, X10
	VXORPD X11, X11, X11
	XORQ   CX, CX // byte offset of the row

row4:
	TESTQ DX, DX
	JZ    sum4
	MOVQ  CX, AX
	LEAQ  (CX)(R9*1), R10

eight4:
	CMPQ        AX, R10
	JGE         four4
	VMOVUPD     (SI)(AX*1), Y12
	VMOVUPD     32(SI)(AX*1), Y13
	VFMADD231PD (R11)(AX*1), Y12, Y0
	VFMADD231PD 32(R11)(AX*1), Y13, Y4
	VFMADD231PD (R12)(AX*1), Y12, Y1
	VFMADD231PD 32(R12)(AX*1), Y13, Y5
	VFMADD231PD (R13)(AX*1), Y12, Y2
	VFMADD231PD 32(R13)(AX*1), Y13, Y6
	VFMADD231PD (BX)(AX*1), Y12, Y3
	VFMADD231PD 32(BX)(AX*1), Y13, Y7
	ADDQ        $64, AX
	JMP         eight4

four4:
	LEAQ        (CX)(R8*1), R10 // end of the row
	LEAQ        32(AX), DI
	CMPQ        DI, R10
	JGT         tail4
	VMOVUPD     (SI)(AX*1), Y12
	VFMADD231PD (R11)(AX*1), Y12, Y0
	VFMADD231PD (R12)(AX*1), Y12, Y1
	VFMADD231PD (R13)(AX*1), Y12, Y2
	VFMADD231PD (BX)(AX*1), Y12, Y3
	MOVQ        DI, AX

tail4:
	CMPQ   AX, R10
	JGE    next4
	VMOVSD (SI)(AX*1), X12
	VMULSD (R11)(AX*1), X12, X13
	VADDSD X13, X8, X8
	VMULSD (R12)(AX*1), X12, X13
	VADDSD X13, X9, X9
	VMULSD (R13)(AX*1), X12, X13
	VADDSD X13, X10, X10
	VMULSD (BX)(AX*1), X12, X13
	VADDSD X13, X11, X11
	ADDQ   $8, AX
	JMP    tail4

next4:
	MOVQ R10, CX
	DECQ DX
	JMP  row4

sum4:
	MOVQ out+32(FP), DI
	COVSUM(Y0, Y4, X0, X8, 0(DI))
	COVSUM(Y1, Y5, X1, X9, 8(DI))
	COVSUM(Y2, Y6, X2, X10, 16(DI))
	COVSUM(Y3, Y7, X3, X11, 24(DI))
	VZEROUPPER
	RET

// DIFF8 leaves in Y4 the eight differences a[j] − b[j] as floats, at
// sample offset O from AX of the rows at RA and RB.
#define DIFF8(RA, RB, O) \
	VPMOVZXBD O(RA)(AX*1), Y4 \
	VPMOVZXBD O(RB)(AX*1), Y5 \
	VPSUBD    Y5, Y4, Y4      \
	VCVTDQ2PS Y4, Y4

// func columnsDiff8AVX2(dst *float32, a, b []*byte, f []float32, n int)
TEXT ·columnsDiff8AVX2(SB), NOSPLIT, $0-88
	MOVQ dst+0(FP), DI
	MOVQ a_base+8(FP), SI
	MOVQ b_base+32(FP), DX
	MOVQ f_base+56(FP), BX
	MOVQ f_len+64(FP), CX
	MOVQ n+80(FP), R10
	XORQ AX, AX

	// Two blocks of eight columns at a time, for independent sums.
e8pair:
	LEAQ         16(AX), R9
	CMPQ         R9, R10
	JGT          e8one
	MOVQ         (SI), R8
	MOVQ         (DX), R12
	VBROADCASTSS (BX), Y7
	DIFF8(R8, R12, 0)
	VMULPS       Y7, Y4, Y0
	DIFF8(R8, R12, 8)
	VMULPS       Y7, Y4, Y1
	MOVQ         $1, R11

e8pairtap:
	CMPQ         R11, CX
	JGE          e8pairstore
	MOVQ         (SI)(R11*8), R8
	MOVQ         (DX)(R11*8), R12
	VBROADCASTSS (BX)(R11*4), Y7
	DIFF8(R8, R12, 0)
	VMULPS       Y7, Y4, Y4
	VADDPS       Y4, Y0, Y0
	DIFF8(R8, R12, 8)
	VMULPS       Y7, Y4, Y4
	VADDPS       Y4, Y1, Y1
	INCQ         R11
	JMP          e8pairtap

e8pairstore:
	VMOVUPS Y0, (DI)(AX*4)
	VMOVUPS Y1, 32(DI)(AX*4)
	MOVQ    R9, AX
	JMP     e8pair

e8one:
	CMPQ         AX, R10
	JGE          e8done
	MOVQ         (SI), R8
	MOVQ         (DX), R12
	VBROADCASTSS (BX), Y7
	DIFF8(R8, R12, 0)
	VMULPS       Y7, Y4, Y0
	MOVQ         $1, R11

e8onetap:
	CMPQ         R11, CX
	JGE          e8onestore
	MOVQ         (SI)(R11*8), R8
	MOVQ         (DX)(R11*8), R12
	VBROADCASTSS (BX)(R11*4), Y7
	DIFF8(R8, R12, 0)
	VMULPS       Y7, Y4, Y4
	VADDPS       Y4, Y0, Y0
	INCQ         R11
	JMP          e8onetap

e8onestore:
	VMOVUPS Y0, (DI)(AX*4)
	ADDQ    $8, AX
	JMP     e8one

e8done:
	VZEROUPPER
	RET

// DIFF16 is DIFF8 for 16-bit samples, the differences then multiplied by
// Y14.
#define DIFF16(RA, RB, O) \
	VPMOVZXWD O(RA)(AX*2), Y4 \
	VPMOVZXWD O(RB)(AX*2), Y5 \
	VPSUBD    Y5, Y4, Y4      \
	VCVTDQ2PS Y4, Y4          \
	VMULPS    Y14, Y4, Y4

// func columnsDiff16AVX2(dst *float32, a, b []*uint16, f []float32, inv float32, n int)
TEXT ·columnsDiff16AVX2(SB), NOSPLIT, $0-96
	MOVQ         dst+0(FP), DI
	MOVQ         a_base+8(FP), SI
	MOVQ         b_base+32(FP), DX
	MOVQ         f_base+56(FP), BX
	MOVQ         f_len+64(FP), CX
	VBROADCASTSS inv+80(FP), Y14
	MOVQ         n+88(FP), R10
	XORQ         AX, AX

e16pair:
	LEAQ         16(AX), R9
	CMPQ         R9, R10
	JGT          e16one
	MOVQ         (SI), R8
	MOVQ         (DX), R12
	VBROADCASTSS (BX), Y7
	DIFF16(R8, R12, 0)
	VMULPS       Y7, Y4, Y0
	DIFF16(R8, R12, 16)
	VMULPS       Y7, Y4, Y1
	MOVQ         $1, R11

e16pairtap:
	CMPQ         R11, CX
	JGE          e16pairstore
	MOVQ         (SI)(R11*8), R8
	MOVQ         (DX)(R11*8), R12
	VBROADCASTSS (BX)(R11*4), Y7
	DIFF16(R8, R12, 0)
	VMULPS       Y7, Y4, Y4
	VADDPS       Y4, Y0, Y0
	DIFF16(R8, R12, 16)
	VMULPS       Y7, Y4, Y4
	VADDPS       Y4, Y1, Y1
	INCQ         R11
	JMP          e16pairtap

e16pairstore:
	VMOVUPS Y0, (DI)(AX*4)
	VMOVUPS Y1, 32(DI)(AX*4)
	MOVQ    R9, AX
	JMP     e16pair

e16one:
	CMPQ         AX, R10
	JGE          e16done
	MOVQ         (SI), R8
	MOVQ         (DX), R12
	VBROADCASTSS (BX), Y7
	DIFF16(R8, R12, 0)
	VMULPS       Y7, Y4, Y0
	MOVQ         $1, R11

e16onetap:
	CMPQ         R11, CX
	JGE          e16onestore
	MOVQ         (SI)(R11*8), R8
	MOVQ         (DX)(R11*8), R12
	VBROADCASTSS (BX)(R11*4), Y7
	DIFF16(R8, R12, 0)
	VMULPS       Y7, Y4, Y4
	VADDPS       Y4, Y0, Y0
	INCQ         R11
	JMP          e16onetap

e16onestore:
	VMOVUPS Y0, (DI)(AX*4)
	ADDQ    $8, AX
	JMP     e16one

e16done:
	VZEROUPPER
	RET

// CONV8 leaves in Y4 the eight samples at sample offset O from AX of the
// row at RA as floats, minus 128 (Y15).
#define CONV8(RA, O) \
	VPMOVZXBD O(RA)(AX*1), Y4 \
	VCVTDQ2PS Y4, Y4          \
	VSUBPS    Y15, Y4, Y4

// func columnsConv8AVX2(dst *float32, a []*byte, f []float32, n int)
TEXT ·columnsConv8AVX2(SB), NOSPLIT, $0-64
	MOVQ         dst+0(FP), DI
	MOVQ         a_base+8(FP), SI
	MOVQ         f_base+32(FP), BX
	MOVQ         f_len+40(FP), CX
	MOVQ         n+56(FP), R10
	VBROADCASTSS centre<>(SB), Y15
	XORQ         AX, AX

	// Two blocks of eight columns at a time, for independent sums.
k8pair:
	LEAQ         16(AX), R9
	CMPQ         R9, R10
	JGT          k8one
	MOVQ         (SI), R8
	VBROADCASTSS (BX), Y7
	CONV8(R8, 0)
	VMULPS       Y7, Y4, Y0
	CONV8(R8, 8)
	VMULPS       Y7, Y4, Y1
	MOVQ         $1, R11

k8pairtap:
	CMPQ         R11, CX
	JGE          k8pairstore
	MOVQ         (SI)(R11*8), R8
	VBROADCASTSS (BX)(R11*4), Y7
	CONV8(R8, 0)
	VMULPS       Y7, Y4, Y4
	VADDPS       Y4, Y0, Y0
	CONV8(R8, 8)
	VMULPS       Y7, Y4, Y4
	VADDPS       Y4, Y1, Y1
	INCQ         R11
	JMP          k8pairtap

k8pairstore:
	VMOVUPS Y0, (DI)(AX*4)
	VMOVUPS Y1, 32(DI)(AX*4)
	MOVQ    R9, AX
	JMP     k8pair

k8one:
	CMPQ         AX, R10
	JGE          k8done
	MOVQ         (SI), R8
	VBROADCASTSS (BX), Y7
	CONV8(R8, 0)
	VMULPS       Y7, Y4, Y0
	MOVQ         $1, R11

k8onetap:
	CMPQ         R11, CX
	JGE          k8onestore
	MOVQ         (SI)(R11*8), R8
	VBROADCASTSS (BX)(R11*4), Y7
	CONV8(R8, 0)
	VMULPS       Y7, Y4, Y4
	VADDPS       Y4, Y0, Y0
	INCQ         R11
	JMP          k8onetap

k8onestore:
	VMOVUPS Y0, (DI)(AX*4)
	ADDQ    $8, AX
	JMP     k8one

k8done:
	VZEROUPPER
	RET

// CONV16 is CONV8 for 16-bit samples, multiplied by Y14 before 128 is
// taken off.
#define CONV16(RA, O) \
	VPMOVZXWD O(RA)(AX*2), Y4 \
	VCVTDQ2PS Y4, Y4          \
	VMULPS    Y14, Y4, Y4     \
	VSUBPS    Y15, Y4, Y4

// func columnsConv16AVX2(dst *float32, a []*uint16, f []float32, scale float32, n int)
TEXT ·columnsConv16AVX2(SB), NOSPLIT, $0-72
	MOVQ         dst+0(FP), DI
	MOVQ         a_base+8(FP), SI
	MOVQ         f_base+32(FP), BX
	MOVQ         f_len+40(FP), CX
	VBROADCASTSS scale+56(FP), Y14
	MOVQ         n+64(FP), R10
	VBROADCASTSS centre<>(SB), Y15
	XORQ         AX, AX

k16pair:
	LEAQ         16(AX), R9
	CMPQ         R9, R10
	JGT          k16one
	MOVQ         (SI), R8
	VBROADCASTSS (BX), Y7
	CONV16(R8, 0)
	VMULPS       Y7, Y4, Y0
	CONV16(R8, 16)
	VMULPS       Y7, Y4, Y1
	MOVQ         $1, R11

k16pairtap:
	CMPQ         R11, CX
	JGE          k16pairstore
	MOVQ         (SI)(R11*8), R8
	VBROADCASTSS (BX)(R11*4), Y7
	CONV16(R8, 0)
	VMULPS       Y7, Y4, Y4
	VADDPS       Y4, Y0, Y0
	CONV16(R8, 16)
	VMULPS       Y7, Y4, Y4
	VADDPS       Y4, Y1, Y1
	INCQ         R11
	JMP          k16pairtap

k16pairstore:
	VMOVUPS Y0, (DI)(AX*4)
	VMOVUPS Y1, 32(DI)(AX*4)
	MOVQ    R9, AX
	JMP     k16pair

k16one:
	CMPQ         AX, R10
	JGE          k16done
	MOVQ         (SI), R8
	VBROADCASTSS (BX), Y7
	CONV16(R8, 0)
	VMULPS       Y7, Y4, Y0
	MOVQ         $1, R11

k16onetap:
	CMPQ         R11, CX
	JGE          k16onestore
	MOVQ         (SI)(R11*8), R8
	VBROADCASTSS (BX)(R11*4), Y7
	CONV16(R8, 0)
	VMULPS       Y7, Y4, Y4
	VADDPS       Y4, Y0, Y0
	INCQ         R11
	JMP          k16onetap

k16onestore:
	VMOVUPS Y0, (DI)(AX*4)
	ADDQ    $8, AX
	JMP     k16one

k16done:
	VZEROUPPER
	RET

// func centreAVX2(dst *float64, src *float32, mean float64, n int)
TEXT ·centreAVX2(SB), NOSPLIT, $0-32
	MOVQ         dst+0(FP), DI
	MOVQ         src+8(FP), SI
	VBROADCASTSD mean+16(FP), Y15
	MOVQ         n+24(FP), CX
	XORQ         AX, AX

centre8:
	LEAQ      8(AX), DX
	CMPQ      DX, CX
	JGT       centre4
	VCVTPS2PD (SI)(AX*4), Y0
	VCVTPS2PD 16(SI)(AX*4), Y1
	VSUBPD    Y15, Y0, Y0
	VSUBPD    Y15, Y1, Y1
	VMOVUPD   Y0, (DI)(AX*8)
	VMOVUPD   Y1, 32(DI)(AX*8)
	MOVQ      DX, AX
	JMP       centre8

centre4:
	CMPQ      AX, CX
	JGE       centredone
	VCVTPS2PD (SI)(AX*4), Y0
	VSUBPD    Y15, Y0, Y0
	VMOVUPD   Y0, (DI)(AX*8)
	ADDQ      $4, AX
	JMP       centre4

centredone:
	VZEROUPPER
	RET
