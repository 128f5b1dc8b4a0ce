package main

import (
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The statistics kernel turns variances and covariances into VIF's sums
// without branches: it computes both of libvmaf's cases for every pixel
// and masks. The per-pixel arithmetic is the same IEEE double operations
// in the same order as vmaf's vifSums.add (division, separate multiply and
// subtract, truncating conversions), so every rounding is the same. Its
// integer logarithm of x >= 2^17 reads the table at the 15 fraction bits
// that follow the leading one and adds 2048 times the bit position, which
// the float64 form of x (exact, as x < 2^53) carries in its exponent and
// mantissa.

// Byte offsets in vmaf's vifStatLanes.
const (
	lanesNumLog = 0
	lanesDenLog = 32
	lanesDenLin = 64
	lanesNumLin = 96
	lanesLimit  = 128 // input: the gain limit in four float64
)

var (
	nsq32    Mem // the noise variance 2<<16 in 32-bit lanes
	nsq64    Mem // the same as float64
	eps64    Mem // libvmaf's epsilon 65536e-10 as float64
	low15    Mem // 0x7fff in 32-bit lanes
	denShift Mem // 2048·(1023+15+17) in 32-bit lanes: exponent bias, table scale, log2 of the noise
)

func statsConstants() {
	nsq32 = constant32("vifNsq32", 2<<16)
	nsq64 = constant64("vifNsq64", math.Float64bits(2<<16))
	eps64 = constant64("vifEps", math.Float64bits(65536*1.0e-10))
	low15 = constant32("vifLow15", 0x7fff)
	denShift = constant32("vifDenShift", 2048*(1023+15+17))
}

// highWords packs the high 32 bits of the eight float64 in a and b (lanes
// 0-3 and 4-7) into eight 32-bit lanes in order.
func highWords(a, b VecVirtual) VecVirtual { return highWordsOf(a, b, 0xdd) }

// highWordsOf packs the low (sel 0x88) or high (0xdd) 32 bits of the eight
// 64-bit lanes of a and b into eight 32-bit lanes in order.
func highWordsOf(a, b VecVirtual, sel uint8) VecVirtual {
	v := YMM()
	VSHUFPS(U8(sel), b, a, v)
	VPERMQ(U8(0xd8), v, v)
	return v
}

// log2Parts returns, for eight numbers given by the high words of their
// float64 forms, table[15 fraction bits] + 2048·(biased exponent); the
// caller removes the biases.
func log2Parts(hi VecVirtual, table Register) VecVirtual {
	idx, v, all := YMM(), YMM(), YMM()
	VPSRLD(U8(5), hi, idx)
	VPAND(low15, idx, idx)
	VPCMPEQD(all, all, all)
	VPXOR(v, v, v)
	VPGATHERDD(all, Mem{Base: table, Index: idx, Scale: 2}, v)
	VPAND(low16, v, v)
	VPSRLD(U8(20), hi, hi)
	VPSLLD(U8(11), hi, hi)
	VPADDD(hi, v, v)
	return v
}

func stats() {
	TEXT("vifStatsAVX2", NOSPLIT, "func(sigma1Sq, sigma2Sq, sigma12 *int32, n int, log2 *uint16, lanes *int32)")
	Pragma("noescape")
	Doc("vifStatsAVX2 is vifSums.addRow for the first n pixels (a multiple of",
		"8), leaving per-lane partial sums in lanes (a vifStatLanes, which",
		"also holds the gain limit). The",
		"table must have one entry past the last index it is read at.")
	s1p, s2p, s12p := Load(Param("sigma1Sq"), GP64()), Load(Param("sigma2Sq"), GP64()), Load(Param("sigma12"), GP64())
	table := Load(Param("log2"), GP64())
	lanes := Load(Param("lanes"), GP64())
	n := Load(Param("n"), GP64())
	numLog, denLog, denLin, numLin := YMM(), YMM(), YMM(), YMM()
	for _, v := range []VecVirtual{numLog, denLog, denLin, numLin} {
		VPXOR(v, v, v)
	}
	j := GP64()
	XORQ(j, j)

	Label("block")
	CMPQ(j, n)
	JAE(LabelRef("done"))
	at := func(p Register, h int) Mem { return Mem{Base: p, Index: j, Scale: 4, Disp: 16 * h} }
	// low marks pixels below the noise variance; s2 is the dis variance,
	// at least 0.
	lowAndS2 := func() (low, s2 VecVirtual) {
		low, s2 = YMM(), YMM()
		VMOVDQU(nsq32, low)
		VPCMPGTD(at(s1p, 0), low, low)
		VPXOR(s2, s2, s2)
		VPMAXSD(at(s2p, 0), s2, s2)
		return low, s2
	}

	// Below the noise variance a pixel only counts, with its dis variance.
	low, s2 := lowAndS2()
	VPSUBD(low, denLin, denLin)
	lin, wide := YMM(), YMM()
	VPAND(low, s2, lin)
	VPMOVZXDQ(lin.AsX(), wide)
	VPADDQ(wide, numLin, numLin)
	linHi := XMM()
	VEXTRACTI128(U8(1), lin, linHi)
	VPMOVZXDQ(linHi, wide)
	VPADDQ(wide, numLin, numLin)
	// Flat stretches of picture have whole blocks of such pixels.
	mask := GP32()
	VPMOVMSKB(low, mask)
	CMPL(mask, U32(0xffffffff))
	JE(LabelRef("next"))

	// The others add logarithms, computed for both halves of the block
	// in float64: those of the denominator (nsq + sigma1²) and of the
	// numerator (numer1 + gain, and numer1 on its own).
	var den, sum, numer1 [2]VecVirtual
	for h := 0; h < 2; h++ {
		s1, s2, s12 := YMM(), YMM(), YMM()
		VCVTDQ2PD(at(s1p, h), s1)
		VCVTDQ2PD(at(s2p, h), s2)
		VCVTDQ2PD(at(s12p, h), s12)
		den[h] = YMM()
		VADDPD(nsq64, s1, den[h])
		g, t := YMM(), YMM()
		VADDPD(eps64, s1, t)
		VDIVPD(t, s12, g)
		// sv² = int32(sigma2² - (g·sigma12)), at least 0.
		VMULPD(s12, g, t)
		VSUBPD(t, s2, t)
		sv, zero := XMM(), XMM()
		VCVTTPD2DQY(t, sv)
		VPXOR(zero, zero, zero)
		VPMAXSD(zero, sv, sv)
		numer1[h] = YMM()
		VCVTDQ2PD(sv, numer1[h])
		VADDPD(nsq64, numer1[h], numer1[h])
		// gain = int64(min(g, limit)² · sigma1²)
		VMINPD(Mem{Base: lanes, Disp: lanesLimit}, g, g)
		VMULPD(g, g, g)
		VMULPD(s1, g, g)
		VROUNDPD(U8(3), g, g)
		sum[h] = YMM()
		VADDPD(numer1[h], g, sum[h])
	}
	denV := log2Parts(highWords(den[0], den[1]), table)
	numV := log2Parts(highWords(sum[0], sum[1]), table)
	n1V := log2Parts(highWords(numer1[0], numer1[1]), table)
	VPSUBD(n1V, numV, numV)

	// Always the denominator's; the numerator's when both sigma12 and the
	// dis variance are positive.
	low, s2 = lowAndS2()
	VPSUBD(denShift, denV, denV)
	VPANDN(denV, low, denV)
	VPADDD(denV, denLog, denLog)
	s12, zero := YMM(), YMM()
	VPXOR(zero, zero, zero)
	VMOVDQU(at(s12p, 0), s12)
	VPCMPGTD(zero, s12, s12)
	VPCMPGTD(zero, s2, s2)
	VPAND(s2, s12, s12)
	VPANDN(s12, low, s12)
	VPAND(s12, numV, numV)
	VPADDD(numV, numLog, numLog)

	Label("next")
	ADDQ(U8(8), j)
	JMP(LabelRef("block"))

	Label("done")
	VMOVDQU(numLog, Mem{Base: lanes, Disp: lanesNumLog})
	VMOVDQU(denLog, Mem{Base: lanes, Disp: lanesDenLog})
	VMOVDQU(denLin, Mem{Base: lanes, Disp: lanesDenLin})
	VMOVDQU(numLin, Mem{Base: lanes, Disp: lanesNumLin})
	VZEROUPPER()
	RET()
}
