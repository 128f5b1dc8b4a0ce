//go:build amd64 && !purego

#include "textflag.h"

// func antiDither32(r0, r1 *uint16, n int)
//
// r0[x] = (r0[x] + r0[x+1] + r1[x] + r1[x+1]) >> 2 for x < n, n a
// multiple of 32. The sums of four levels (at most 4·1024) fit in 16
// bits. Each store lands before every sample still to be read.
TEXT ·antiDither32(SB), NOSPLIT, $0-24
	MOVQ r0+0(FP), AX
	MOVQ r1+8(FP), BX
	MOVQ n+16(FP), CX
	SHLQ $1, CX
	XORQ SI, SI
	TESTQ CX, CX
	JZ adone

aloop:
	VMOVDQU16 (AX)(SI*1), Z0
	VMOVDQU16 2(AX)(SI*1), Z1
	VPADDW Z1, Z0, Z0
	VMOVDQU16 (BX)(SI*1), Z1
	VPADDW Z1, Z0, Z0
	VMOVDQU16 2(BX)(SI*1), Z1
	VPADDW Z1, Z0, Z0
	VPSRLW $2, Z0, Z0
	VMOVDQU16 Z0, (AX)(SI*1)
	ADDQ $64, SI
	CMPQ SI, CX
	JLT aloop

adone:
	VZEROUPPER
	RET

// func flat32(row, below *uint16, out *uint8, n int)
//
// out[x] = 1 where row[x] equals both row[x+1] and below[x], else 0,
// for x < n, n a multiple of 32.
TEXT ·flat32(SB), NOSPLIT, $0-32
	MOVQ row+0(FP), AX
	MOVQ below+8(FP), BX
	MOVQ out+16(FP), DI
	MOVQ n+24(FP), CX
	XORQ SI, SI
	TESTQ CX, CX
	JZ fdone

floop:
	VMOVDQU16 (AX)(SI*2), Z0
	VMOVDQU16 2(AX)(SI*2), Z1
	VPCMPEQW Z1, Z0, K1
	VMOVDQU16 (BX)(SI*2), Z1
	VPCMPEQW Z1, Z0, K1, K1
	VPMOVM2B K1, Y0
	VPABSB Y0, Y0
	VMOVDQU8 Y0, (DI)(SI*1)
	ADDQ $32, SI
	CMPQ SI, CX
	JLT floop

fdone:
	VZEROUPPER
	RET

// func slideCols16(cols *int32, add, sub *uint8, n int)
//
// cols[x] += add[x] - sub[x] for x < n, n a multiple of 16.
TEXT ·slideCols16(SB), NOSPLIT, $0-32
	MOVQ cols+0(FP), AX
	MOVQ add+8(FP), BX
	MOVQ sub+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ SI, SI
	TESTQ CX, CX
	JZ sdone

sloop:
	VPMOVZXBD (BX)(SI*1), Z0
	VPMOVZXBD (DX)(SI*1), Z1
	VPSUBD Z1, Z0, Z0
	VMOVDQU32 (AX)(SI*4), Z1
	VPADDD Z1, Z0, Z0
	VMOVDQU32 Z0, (AX)(SI*4)
	ADDQ $16, SI
	CMPQ SI, CX
	JLT sloop

sdone:
	VZEROUPPER
	RET

// func box7x16(cols *int32, out *uint8, n int, limit int32)
//
// out[x] = 1 where cols[x] + ... + cols[x+6] > limit, else 0, for x < n,
// n a multiple of 16.
TEXT ·box7x16(SB), NOSPLIT, $0-28
	MOVQ cols+0(FP), AX
	MOVQ out+8(FP), DI
	MOVQ n+16(FP), CX
	MOVL limit+24(FP), DX
	VPBROADCASTD DX, Z7
	XORQ SI, SI
	TESTQ CX, CX
	JZ bdone

bloop:
	VMOVDQU32 (AX)(SI*4), Z0
	VMOVDQU32 4(AX)(SI*4), Z1
	VPADDD Z1, Z0, Z0
	VMOVDQU32 8(AX)(SI*4), Z1
	VPADDD Z1, Z0, Z0
	VMOVDQU32 12(AX)(SI*4), Z1
	VPADDD Z1, Z0, Z0
	VMOVDQU32 16(AX)(SI*4), Z1
	VPADDD Z1, Z0, Z0
	VMOVDQU32 20(AX)(SI*4), Z1
	VPADDD Z1, Z0, Z0
	VMOVDQU32 24(AX)(SI*4), Z1
	VPADDD Z1, Z0, Z0
	VPCMPGTD Z7, Z0, K1
	VPMOVM2B K1, X0
	VPABSB X0, X0
	VMOVDQU8 X0, (DI)(SI*1)
	ADDQ $16, SI
	CMPQ SI, CX
	JLT bloop

bdone:
	VZEROUPPER
	RET

// func levelRows32(img *uint16, mask *uint8, out *int16, n int, base, size int)
//
// out[x] = the histogram row of level img[x]&2047 (level - base when it
// is within [base, base+size) and at most 1024), or -1 where it has none
// or mask[x] is 0, for x < n, n a multiple of 32.
TEXT ·levelRows32(SB), NOSPLIT, $0-48
	MOVQ img+0(FP), AX
	MOVQ mask+8(FP), BX
	MOVQ out+16(FP), DI
	MOVQ n+24(FP), CX
	MOVQ base+32(FP), DX
	VPBROADCASTW DX, Z4
	MOVQ size+40(FP), DX
	VPBROADCASTW DX, Z5
	MOVQ $2047, DX
	VPBROADCASTW DX, Z6
	MOVQ $1024, DX
	VPBROADCASTW DX, Z7
	VPTERNLOGD $0xff, Z8, Z8, Z8
	XORQ SI, SI
	TESTQ CX, CX
	JZ ldone

lloop:
	VMOVDQU16 (AX)(SI*2), Z0
	VPANDD Z6, Z0, Z0
	VPSUBW Z4, Z0, Z1
	VPCMPUW $1, Z5, Z1, K1
	VPCMPUW $2, Z7, Z0, K1, K1
	VMOVDQU8 (BX)(SI*1), Y2
	VPTESTMB Y2, Y2, K1, K1
	VMOVDQA64 Z8, Z2
	VMOVDQU16 Z1, K1, Z2
	VMOVDQU16 Z2, (DI)(SI*2)
	ADDQ $32, SI
	CMPQ SI, CX
	JLT lloop

ldone:
	VZEROUPPER
	RET

// func evens16(dst, src *uint16, n int)
//
// dst[x] = src[2x] for x < n, n a multiple of 16. Each store lands
// before every sample still to be read, so dst may be src.
TEXT ·evens16(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHLQ $1, CX
	XORQ DX, DX
	TESTQ CX, CX
	JZ edone

eloop:
	VMOVDQU32 (SI)(DX*2), Z0
	VPMOVDW Z0, Y0
	VMOVDQU16 Y0, (DI)(DX*1)
	ADDQ $32, DX
	CMPQ DX, CX
	JLT eloop

edone:
	VZEROUPPER
	RET

// func evens8(dst, src *uint8, n int)
//
// dst[x] = src[2x] for x < n, n a multiple of 32, as evens16.
TEXT ·evens8(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	XORQ DX, DX
	TESTQ CX, CX
	JZ e8done

e8loop:
	VMOVDQU16 (SI)(DX*2), Z0
	VPMOVWB Z0, Y0
	VMOVDQU8 Y0, (DI)(DX*1)
	ADDQ $32, DX
	CMPQ DX, CX
	JLT e8loop

e8done:
	VZEROUPPER
	RET

// func widen32(dst *uint16, src *uint8, n int)
//
// dst[x] = src[x] << 2 for x < n, n a multiple of 32.
TEXT ·widen32(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	XORQ DX, DX
	TESTQ CX, CX
	JZ wdone

wloop:
	VPMOVZXBW (SI)(DX*1), Z0
	VPSLLW $2, Z0, Z0
	VMOVDQU16 Z0, (DI)(DX*2)
	ADDQ $32, DX
	CMPQ DX, CX
	JLT wloop

wdone:
	VZEROUPPER
	RET

// func nextChange(add, sub *int16, from, n, addLevel, subLevel int) int
//
// The first j >= from, 32 at a time while j+32 <= n, where the pair
// (add[j], sub[j]), both -1 when equal, differs from (addLevel,
// subLevel); else the first j that was not examined.
TEXT ·nextChange(SB), NOSPLIT, $0-56
	MOVQ add+0(FP), AX
	MOVQ sub+8(FP), BX
	MOVQ from+16(FP), SI
	MOVQ n+24(FP), CX
	MOVQ addLevel+32(FP), DX
	VPBROADCASTW DX, Z1
	MOVQ subLevel+40(FP), DX
	VPBROADCASTW DX, Z2
	VPTERNLOGD $0xff, Z3, Z3, Z3
	SUBQ $32, CX

cloop:
	CMPQ SI, CX
	JGT cdone
	VMOVDQU16 (AX)(SI*2), Z4
	VMOVDQU16 (BX)(SI*2), Z5
	VPCMPEQW Z5, Z4, K1
	VMOVDQU16 Z3, K1, Z4
	VMOVDQU16 Z3, K1, Z5
	VPCMPW $4, Z1, Z4, K2
	VPCMPW $4, Z2, Z5, K3
	KORD K2, K3, K2
	KMOVD K2, DX
	TESTL DX, DX
	JNZ cfound
	ADDQ $32, SI
	JMP cloop

cfound:
	TZCNTL DX, DX
	ADDQ DX, SI

cdone:
	MOVQ SI, ret+48(FP)
	VZEROUPPER
	RET
