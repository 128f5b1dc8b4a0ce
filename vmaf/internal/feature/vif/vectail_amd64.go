//go:build !purego

package vif

import (
	"slices"
	"sync"
)

// vifVecTaps holds one window's coefficients as the AVX2 kernels read
// them. The generator (internal/asmgen/vif) hard-codes this layout;
// TestVIFVecTapsLayout checks it.
type vifVecTaps struct {
	// The distinct coefficients (the window's first half, then its
	// centre): in both 16-bit halves of eight 32-bit lanes (for VPMADDWD,
	// which takes them signed: not for a centre of 1<<15 or more), in
	// eight 32-bit lanes, and as four float64.
	w16 [vifPad + 1][8]uint32
	w32 [vifPad + 1][8]uint32
	f64 [vifPad + 1][4]float64
	// The whole window as pairs of neighbouring taps (c[2i] low, c[2i+1]
	// high, zero past the end) for the horizontal pass, halved when a tap
	// is 1<<15 or more; corr is what the bias of the words adds to those
	// sums, and shift undoes the halving.
	pairs [vifPad + 1][8]uint32
	corr  [8]uint32
	shift uint64
	// oddPairs are the pairs one tap earlier, (c[2i-1], c[2i]), halved
	// like pairs: against the words pairs reads, they give the odd
	// columns' sums, so that the AVX-512 kernel loads each word once.
	oddPairs [vifPad + 1][8]uint32
	// npairs is the number of pairs of either kind (not read by the
	// kernels); the windows have odd lengths, so both cover every tap.
	npairs int
}

// vifVecFilters returns vifFilters laid out for the AVX2 kernels, built on
// first use and read-only after.
var vifVecFilters = sync.OnceValue(func() *[len(vifFilters)]vifVecTaps {
	var t [len(vifFilters)]vifVecTaps
	for s, taps := range vifFilters {
		v := &t[s]
		for k, c := range taps[:len(taps)/2+1] {
			for l := range v.w16[k] {
				v.w16[k][l] = uint32(c)<<16 | uint32(c)
				v.w32[k][l] = uint32(c)
			}
			for l := range v.f64[k] {
				v.f64[k][l] = float64(c)
			}
		}
		// VPMADDWD takes signed words: a window with a tap of 1<<15 or
		// more (scale 3's centre) is filtered with halved taps, which are
		// all even there, and the sums doubled.
		if slices.Max(taps) >= 1<<15 {
			v.shift = 1
		}
		var sum uint32
		v.npairs = (len(taps) + 1) / 2
		for i := range v.npairs {
			lo := uint32(taps[2*i]) >> v.shift
			var hi uint32
			if 2*i+1 < len(taps) {
				hi = uint32(taps[2*i+1]) >> v.shift
			}
			sum += lo + hi
			var before uint32
			if i > 0 {
				before = uint32(taps[2*i-1]) >> v.shift
			}
			for l := range v.pairs[i] {
				v.pairs[i][l] = hi<<16 | lo
				v.oddPairs[i][l] = lo<<16 | before
			}
		}
		for l := range v.corr {
			v.corr[l] = sum * vifWordBias
		}
	}
	return &t
})

// vifVecTapsFor finds the vector layout of one of vifFilters, or nil for a
// window that is not one of them.
func vifVecTapsFor(taps []uint16) *vifVecTaps {
	for s, f := range vifFilters {
		if len(f) == len(taps) && &f[0] == &taps[0] {
			return &vifVecFilters()[s]
		}
	}
	return nil
}

// The rest of this file finishes the columns from j0 to w that do not fill
// a vector block, in the vector kernels' layout (16-bit rows), one column
// at a time.

func vifVertical8Cols(b *vifRowBuf, ref, dis [][]byte, taps []uint16, j0, w int) {
	for j := j0; j < w; j++ {
		var m1, m2, xx, yy, xy uint32
		for k, c := range taps {
			a, d, c := uint32(ref[k][j]), uint32(dis[k][j]), uint32(c)
			m1 += c * a
			m2 += c * d
			xx += c * a * a
			yy += c * d * d
			xy += c * a * d
		}
		o := vifPad + j
		b.setWord(vifWordMu1, o, (m1+1<<7)>>8)
		b.setWord(vifWordMu2, o, (m2+1<<7)>>8)
		b.setMoment(vifWordXXHi, o, xx)
		b.setMoment(vifWordYYHi, o, yy)
		b.setMoment(vifWordXYHi, o, xy)
	}
}

func vifVertical16Cols(b *vifRowBuf, ref, dis [][]uint16, taps []uint16, j0, w int, muShift, sqShift uint) {
	muRound, sqRound := vifRounding(muShift), uint64(vifRounding(sqShift))
	for j := j0; j < w; j++ {
		var m1, m2 uint32
		var xx, yy, xy uint64
		for k, c := range taps {
			a, d, c := uint64(ref[k][j]), uint64(dis[k][j]), uint64(c)
			m1 += uint32(c * a)
			m2 += uint32(c * d)
			xx += c * a * a
			yy += c * d * d
			xy += c * a * d
		}
		o := vifPad + j
		b.setWord(vifWordMu1, o, (m1+muRound)>>muShift)
		b.setWord(vifWordMu2, o, (m2+muRound)>>muShift)
		b.setMoment(vifWordXXHi, o, uint32((xx+sqRound)>>sqShift))
		b.setMoment(vifWordYYHi, o, uint32((yy+sqRound)>>sqShift))
		b.setMoment(vifWordXYHi, o, uint32((xy+sqRound)>>sqShift))
	}
}

func vifHorizontalCols(b *vifRowBuf, taps []uint16, j0, w int) {
	base := vifPad - len(taps)/2
	for j := j0; j < w; j++ {
		var a1, a2 uint32
		var xx, yy, xy uint64
		for k, c := range taps {
			i := base + j + k
			a1 += uint32(c) * b.word(vifWordMu1, i)
			a2 += uint32(c) * b.word(vifWordMu2, i)
			xx += uint64(c) * uint64(b.moment(vifWordXXHi, i))
			yy += uint64(c) * uint64(b.moment(vifWordYYHi, i))
			xy += uint64(c) * uint64(b.moment(vifWordXYHi, i))
		}
		b.sigma1Sq[j], b.sigma2Sq[j], b.sigma12[j] = vifSigmas(a1, a2, xx, yy, xy)
	}
}

func vifMeansCols[T uint8 | uint16](b *vifRowBuf, ref, dis [][]T, taps []uint16, j0, w int, shift uint) {
	round := vifRounding(shift)
	for j := j0; j < w; j++ {
		var m1, m2 uint32
		for k, c := range taps {
			m1 += uint32(c) * uint32(ref[k][j])
			m2 += uint32(c) * uint32(dis[k][j])
		}
		b.mu1[vifPad+j], b.mu2[vifPad+j] = (m1+round)>>shift, (m2+round)>>shift
	}
}
