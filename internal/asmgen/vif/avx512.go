package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The AVX-512 kernels run the AVX2 kernels' arithmetic on vectors twice as
// wide: the same instructions on the same lanes, so the same bits. They
// differ only where AVX2 had to work around its two 128-bit halves: lane
// order is restored with two-table permutes (VPERMI2D/VPERMI2Q) and
// narrowing stores (VPMOVDW), and the taps, laid out for eight lanes, are
// broadcast from their first lane. They also use AVX512_VNNI's VPDPWSSD,
// which is VPMADDWD and VPADDD in one and wraps alike.

// Permutation indices, 64 bytes each.
var (
	zipLo   Mem // dwords 0,16,1,17,…,7,23: interleave the low halves of two vectors
	zipHi   Mem // dwords 8,24,…,15,31: and their high halves
	evens   Mem // dwords 0,2,…,30: the even dwords of two vectors, in order
	quadsLo Mem // qwords 0,1,8,9,2,3,10,11: the low 128-bit lanes of two vectors, alternately
	quadsHi Mem // qwords 4,5,12,13,6,7,14,15: their high lanes
)

func constants512() {
	var lo, hi, ev [16]uint32
	for i := range 8 {
		lo[2*i], lo[2*i+1] = uint32(i), uint32(16+i)
		hi[2*i], hi[2*i+1] = uint32(8+i), uint32(24+i)
	}
	for i := range ev {
		ev[i] = uint32(2 * i)
	}
	zipLo = table32("vifZipLo", lo[:])
	zipHi = table32("vifZipHi", hi[:])
	evens = table32("vifEvens", ev[:])
	quadsLo = table32("vifQuadsLo", []uint32{0, 0, 1, 0, 8, 0, 9, 0, 2, 0, 3, 0, 10, 0, 11, 0})
	quadsHi = table32("vifQuadsHi", []uint32{4, 0, 5, 0, 12, 0, 13, 0, 6, 0, 7, 0, 14, 0, 15, 0})
}

func table32(name string, v []uint32) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for i, x := range v {
		DATA(4*i, U32(x))
	}
	return m
}

// zeroZ returns a zeroed 512-bit register.
func zeroZ() VecVirtual {
	z := ZMM()
	VPXORD(z, z, z)
	return z
}

// bcast32 loads the first 32-bit lane of m into every lane.
func bcast32(m Mem) VecVirtual {
	z := ZMM()
	VPBROADCASTD(m, z)
	return z
}

// permute2 returns the lanes idx picks from a (indices below 16 for
// dwords, 8 for qwords) and b (the rest).
func permute2(idx Mem, a, b VecVirtual, quads bool) VecVirtual {
	z := ZMM()
	VMOVDQU64(idx, z)
	if quads {
		VPERMI2Q(b, a, z)
	} else {
		VPERMI2D(b, a, z)
	}
	return z
}

// oddLanes returns a mask of the odd 32-bit lanes.
func oddLanes() OpmaskVirtual {
	r, k := GP32(), K()
	MOVL(U32(0xaaaa), r)
	KMOVW(r, k)
	return k
}

// mulRounded512 is mulRounded on 16 lanes; odd masks the odd lanes.
func mulRounded512(a, b, ao, bo VecVirtual, odd OpmaskVirtual) VecVirtual {
	e, o := ZMM(), ZMM()
	VPMULUDQ(b, a, e)
	VPMULUDQ(bo, ao, o)
	VPADDQ(round32, e, e)
	VPADDQ(round32, o, o)
	VPSRLQ(U8(32), e, e)
	VPBLENDMD(o, e, odd, e)
	return e
}

// interleave512 is interleave on 512-bit registers.
func interleave512(a, b VecVirtual) pairs8 {
	p := pairs8{ZMM(), ZMM()}
	VPUNPCKLWD(b, a, p[0])
	VPUNPCKHWD(b, a, p[1])
	return p
}

func newPairs512() pairs8 { return pairs8{zeroZ(), zeroZ()} }

// storeWords32 biases 32 words (in order) and stores them.
func storeWords32(v VecVirtual, dst Mem) {
	VPXORD(bias16, v, v)
	VMOVDQU64(v, dst)
}

// storeMeans32 rounds 8-bit mean sums of 32 columns by 8 bits and stores
// them as a biased 16-bit row; VPACKUSDW undoes the pairs' column order
// within each 128-bit lane, as in storeMeans16.
func storeMeans32(p pairs8, dst Mem) {
	for _, v := range p {
		VPADDD(round8, v, v)
		VPSRLD(U8(8), v, v)
	}
	w := ZMM()
	VPACKUSDW(p[1], p[0], w)
	storeWords32(w, dst)
}

// storeMoments32 stores 32-bit moment sums of 32 columns as biased high
// and low halves.
func storeMoments32(p pairs8, hi, lo Mem) {
	h := pairs8{ZMM(), ZMM()}
	for i, v := range p {
		VPSRLD(U8(16), v, h[i])
		VPANDD(low16, v, v)
	}
	w := ZMM()
	VPACKUSDW(h[1], h[0], w)
	storeWords32(w, hi)
	VPACKUSDW(p[1], p[0], w)
	storeWords32(w, lo)
}

// storeNarrow stores 16 lanes, each below 1<<16, as biased words.
func storeNarrow(v VecVirtual, dst Mem) {
	VPXORD(bias16, v, v)
	y := YMM()
	VPMOVDW(v, y)
	VMOVDQU(y, dst)
}
