package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// stats512 is stats on 16 pixels a block, with the lane masks in opmask
// registers. It folds its 16 lanes into the 8 of vifStatLanes before
// returning, so that the Go side reads both kernels' sums alike.

var odds Mem // dwords 1,3,…,31: the odd dwords of two vectors, in order

// log2Parts512 is log2Parts on 16 lanes.
func log2Parts512(hi VecVirtual, table Register) VecVirtual {
	idx, v := ZMM(), zeroZ()
	VPSRLD(U8(5), hi, idx)
	VPANDD(low15, idx, idx)
	all := K()
	KXNORW(all, all, all)
	VPGATHERDD(Mem{Base: table, Index: idx, Scale: 2}, all, v)
	VPANDD(low16, v, v)
	VPSRLD(U8(20), hi, hi)
	VPSLLD(U8(11), hi, hi)
	VPADDD(hi, v, v)
	return v
}

func stats512() {
	var ix [16]uint32
	for i := range ix {
		ix[i] = uint32(2*i + 1)
	}
	odds = table32("vifOdds", ix[:])

	TEXT("vifStatsAVX512", NOSPLIT, "func(sigma1Sq, sigma2Sq, sigma12 *int32, n int, log2 *uint16, lanes *int32)")
	Pragma("noescape")
	Doc("vifStatsAVX512 is vifStatsAVX2 for n a multiple of 16.")
	s1p, s2p, s12p := Load(Param("sigma1Sq"), GP64()), Load(Param("sigma2Sq"), GP64()), Load(Param("sigma12"), GP64())
	table := Load(Param("log2"), GP64())
	lanes := Load(Param("lanes"), GP64())
	n := Load(Param("n"), GP64())
	numLog, denLog, denLin, numLin := zeroZ(), zeroZ(), zeroZ(), zeroZ()
	nsq, limit, ones := ZMM(), ZMM(), ZMM()
	VMOVDQU64(nsq32, nsq)
	VBROADCASTSD(Mem{Base: lanes, Disp: lanesLimit}, limit)
	VPTERNLOGD(U8(0xff), ones, ones, ones)
	j := GP64()
	XORQ(j, j)

	Label("block")
	CMPQ(j, n)
	JAE(LabelRef("done"))
	at := func(p Register, h int) Mem { return Mem{Base: p, Index: j, Scale: 4, Disp: 32 * h} }
	// low marks pixels below the noise variance; s2 is the dis variance,
	// at least 0.
	low, zero, s2 := K(), zeroZ(), ZMM()
	VPCMPGTD(at(s1p, 0), nsq, low)
	VPMAXSD(at(s2p, 0), zero, s2)

	// Below the noise variance a pixel only counts, with its dis variance.
	VPSUBD(ones, denLin, low, denLin)
	lin, wide, linHi := ZMM(), ZMM(), YMM()
	VMOVDQA32_Z(s2, low, lin)
	VPMOVZXDQ(lin.AsY(), wide)
	VPADDQ(wide, numLin, numLin)
	VEXTRACTI64X4(U8(1), lin, linHi)
	VPMOVZXDQ(linHi, wide)
	VPADDQ(wide, numLin, numLin)
	// KORTESTW sets the carry when every pixel is low.
	KORTESTW(low, low)
	JCS(LabelRef("next"))

	var den, sum, numer1 [2]VecVirtual
	for h := 0; h < 2; h++ {
		s1, s2, s12 := ZMM(), ZMM(), ZMM()
		VCVTDQ2PD(at(s1p, h), s1)
		VCVTDQ2PD(at(s2p, h), s2)
		VCVTDQ2PD(at(s12p, h), s12)
		den[h] = ZMM()
		VADDPD(nsq64, s1, den[h])
		g, t := ZMM(), ZMM()
		VADDPD(eps64, s1, t)
		VDIVPD(t, s12, g)
		VMULPD(s12, g, t)
		VSUBPD(t, s2, t)
		sv := YMM()
		VCVTTPD2DQ(t, sv)
		VPMAXSD(zero.AsY(), sv, sv)
		numer1[h] = ZMM()
		VCVTDQ2PD(sv, numer1[h])
		VADDPD(nsq64, numer1[h], numer1[h])
		VMINPD(limit, g, g)
		VMULPD(g, g, g)
		VMULPD(s1, g, g)
		VRNDSCALEPD(U8(3), g, g)
		sum[h] = ZMM()
		VADDPD(numer1[h], g, sum[h])
	}
	denV := log2Parts512(permute2(odds, den[0], den[1], false), table)
	numV := log2Parts512(permute2(odds, sum[0], sum[1], false), table)
	n1V := log2Parts512(permute2(odds, numer1[0], numer1[1], false), table)
	VPSUBD(n1V, numV, numV)

	// Always the denominator's; the numerator's when both sigma12 and the
	// dis variance are positive.
	high := K()
	KNOTW(low, high)
	VPSUBD(denShift, denV, denV)
	VPADDD(denV, denLog, high, denLog)
	pos, pos2 := K(), K()
	VPCMPGTD(zero, s2, pos)
	s12 := ZMM()
	VMOVDQU32(at(s12p, 0), s12)
	VPCMPGTD(zero, s12, pos2)
	KANDW(pos2, pos, pos)
	KANDW(high, pos, pos)
	VPADDD(numV, numLog, pos, numLog)

	Label("next")
	ADDQ(U8(16), j)
	JMP(LabelRef("block"))

	Label("done")
	// Fold the upper 8 lanes (4 for numLin) onto the lower.
	for _, s := range []struct {
		v    VecVirtual
		disp int
		quad bool
	}{{numLog, lanesNumLog, false}, {denLog, lanesDenLog, false}, {denLin, lanesDenLin, false}, {numLin, lanesNumLin, true}} {
		hi := YMM()
		VEXTRACTI64X4(U8(1), s.v, hi)
		if s.quad {
			VPADDQ(hi, s.v.AsY(), hi)
		} else {
			VPADDD(hi, s.v.AsY(), hi)
		}
		VMOVDQU(hi, Mem{Base: lanes, Disp: s.disp})
	}
	VZEROUPPER()
	RET()
}
