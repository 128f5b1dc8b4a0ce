//go:build amd64 && !purego

#include "textflag.h"

// statConst holds broadcast constants: eps, 1.0f, the mantissa mask, the
// exponent mask, the exponent bias, the log2 polynomial's coefficients
// (highest power first) and 1.0 as a double.
DATA statConst<>+0(SB)/4, $0x2edbe6ff
DATA statConst<>+4(SB)/4, $0x3f800000
DATA statConst<>+8(SB)/4, $0x007fffff
DATA statConst<>+12(SB)/4, $0x000000ff
DATA statConst<>+16(SB)/4, $127
DATA statConst<>+20(SB)/4, $0xbc4f9cb1
DATA statConst<>+24(SB)/4, $0x3d84cb74
DATA statConst<>+28(SB)/4, $0xbe20d169
DATA statConst<>+32(SB)/4, $0x3e83ab7d
DATA statConst<>+36(SB)/4, $0xbeb52559
DATA statConst<>+40(SB)/4, $0x3ef5d3c9
DATA statConst<>+44(SB)/4, $0xbf38a80e
DATA statConst<>+48(SB)/4, $0x3fb8aa39
DATA statConst<>+56(SB)/8, $0x3ff0000000000000
GLOBL statConst<>(SB), RODATA|NOPTR, $64

// LOG2 sets dst to libvmaf's polynomial log2 of the positive (or NaN or
// infinite) floats in src, lane by lane, with the scalar code's
// operations in the scalar code's order. Clobbers Y0, Y1, Y5.
#define LOG2(src, dst) \
	VPBROADCASTD statConst<>+8(SB), Y0; \
	VPAND src, Y0, Y0; \
	VPBROADCASTD statConst<>+4(SB), Y1; \
	VPOR Y1, Y0, Y0; \
	VSUBPS Y1, Y0, Y0; \
	VBROADCASTSS statConst<>+20(SB), Y1; \
	VMULPS Y0, Y1, Y1; \
	VBROADCASTSS statConst<>+24(SB), Y5; \
	VADDPS Y5, Y1, Y1; \
	VMULPS Y0, Y1, Y1; \
	VBROADCASTSS statConst<>+28(SB), Y5; \
	VADDPS Y5, Y1, Y1; \
	VMULPS Y0, Y1, Y1; \
	VBROADCASTSS statConst<>+32(SB), Y5; \
	VADDPS Y5, Y1, Y1; \
	VMULPS Y0, Y1, Y1; \
	VBROADCASTSS statConst<>+36(SB), Y5; \
	VADDPS Y5, Y1, Y1; \
	VMULPS Y0, Y1, Y1; \
	VBROADCASTSS statConst<>+40(SB), Y5; \
	VADDPS Y5, Y1, Y1; \
	VMULPS Y0, Y1, Y1; \
	VBROADCASTSS statConst<>+44(SB), Y5; \
	VADDPS Y5, Y1, Y1; \
	VMULPS Y0, Y1, Y1; \
	VBROADCASTSS statConst<>+48(SB), Y5; \
	VADDPS Y5, Y1, Y1; \
	VMULPS Y0, Y1, Y1; \
	VXORPS Y5, Y5, Y5; \
	VADDPS Y5, Y1, Y1; \
	VPSRLD $23, src, Y5; \
	VPBROADCASTD statConst<>+12(SB), Y0; \
	VPAND Y0, Y5, Y5; \
	VPBROADCASTD statConst<>+16(SB), Y0; \
	VPSUBD Y0, Y5, Y5; \
	VCVTDQ2PS Y5, Y5; \
	VADDPS Y1, Y5, dst

// func statVec(mu1, mu2, xx, yy, xy, nv, dv *float32, n int, limit, inv, below float32, nsq float64)
TEXT ·statVec(SB), NOSPLIT, $0-88
	MOVQ mu1+0(FP), SI
	MOVQ mu2+8(FP), DX
	MOVQ xx+16(FP), R8
	MOVQ yy+24(FP), R9
	MOVQ xy+32(FP), R10
	MOVQ nv+40(FP), R11
	MOVQ dv+48(FP), R12
	MOVQ n+56(FP), CX
	SHLQ $2, CX
	VBROADCASTSS limit+64(FP), Y13
	VBROADCASTSS inv+68(FP), Y12
	VBROADCASTSS below+72(FP), Y15
	VBROADCASTSD nsq+80(FP), Y11
	VBROADCASTSD statConst<>+56(SB), Y10
	VBROADCASTSS statConst<>+0(SB), Y14
	XORQ AX, AX

block:
	CMPQ AX, CX
	JGE  done

	// Variances and covariance: Y2 = s1, Y3 = s2, Y4 = s12.
	VMOVUPS (SI)(AX*1), Y0
	VMOVUPS (DX)(AX*1), Y1
	VMULPS  Y0, Y0, Y5
	VMOVUPS (R8)(AX*1), Y2
	VSUBPS  Y5, Y2, Y2
	VMULPS  Y1, Y1, Y5
	VMOVUPS (R9)(AX*1), Y3
	VSUBPS  Y5, Y3, Y3
	VMULPS  Y1, Y0, Y5
	VMOVUPS (R10)(AX*1), Y4
	VSUBPS  Y5, Y4, Y4

	// Floors at zero (MAXPS keeps the second operand for NaN, as the
	// scalar comparison does).
	VXORPS Y9, Y9, Y9
	VMAXPS Y9, Y2, Y2
	VMAXPS Y9, Y3, Y3

	// Gain Y5 = g and residual Y6 = sv.
	VADDPS Y14, Y2, Y5
	VDIVPS Y5, Y4, Y5
	VMULPS Y4, Y5, Y6
	VSUBPS Y6, Y3, Y6

	// s1 < eps: g = 0, sv = s2, s1 = 0.
	VCMPPS    $1, Y14, Y2, Y7
	VANDNPS   Y5, Y7, Y5
	VBLENDVPS Y7, Y3, Y6, Y6
	VANDNPS   Y2, Y7, Y2

	// s2 < eps: g = 0, sv = 0.
	VCMPPS  $1, Y14, Y3, Y7
	VANDNPS Y5, Y7, Y5
	VANDNPS Y6, Y7, Y6

	// g < 0: sv = s2, g = 0.
	VCMPPS    $1, Y9, Y5, Y7
	VBLENDVPS Y7, Y3, Y6, Y6
	VANDNPS   Y5, Y7, Y5

	VMAXPS Y14, Y6, Y6
	VMINPS Y13, Y5, Y5

	// Numerator argument 1 + g·g·s1/(sv + nsq), in double, into Y7.
	VMULPS       Y5, Y5, Y0
	VMULPS       Y2, Y0, Y0
	VCVTPS2PD    X0, Y7
	VCVTPS2PD    X6, Y8
	VADDPD       Y11, Y8, Y8
	VDIVPD       Y8, Y7, Y7
	VADDPD       Y10, Y7, Y7
	VCVTPD2PSY   Y7, X7
	VEXTRACTF128 $1, Y0, X0
	VCVTPS2PD    X0, Y1
	VEXTRACTF128 $1, Y6, X6
	VCVTPS2PD    X6, Y8
	VADDPD       Y11, Y8, Y8
	VDIVPD       Y8, Y1, Y1
	VADDPD       Y10, Y1, Y1
	VCVTPD2PSY   Y1, X1
	VINSERTF128  $1, X1, Y7, Y7

	// Denominator argument 1 + s1/nsq, in double, into Y8.
	VCVTPS2PD    X2, Y8
	VDIVPD       Y11, Y8, Y8
	VADDPD       Y10, Y8, Y8
	VCVTPD2PSY   Y8, X8
	VEXTRACTF128 $1, Y2, X1
	VCVTPS2PD    X1, Y1
	VDIVPD       Y11, Y1, Y1
	VADDPD       Y10, Y1, Y1
	VCVTPD2PSY   Y1, X1
	VINSERTF128  $1, X1, Y8, Y8

	LOG2(Y7, Y7)
	LOG2(Y8, Y8)

	// s12 < 0: no numerator.
	VCMPPS  $1, Y9, Y4, Y0
	VANDNPS Y7, Y0, Y7

	// s1 < nsq (below is the float threshold equivalent to the double
	// comparison): numerator 1 - s2·inv, denominator 1.
	VCMPPS       $1, Y15, Y2, Y0
	VMULPS       Y12, Y3, Y1
	VBROADCASTSS statConst<>+4(SB), Y6
	VSUBPS       Y1, Y6, Y1
	VBLENDVPS    Y0, Y1, Y7, Y7
	VBLENDVPS    Y0, Y6, Y8, Y8

	VMOVUPS Y7, (R11)(AX*1)
	VMOVUPS Y8, (R12)(AX*1)
	ADDQ    $32, AX
	JMP     block

done:
	VZEROUPPER
	RET
