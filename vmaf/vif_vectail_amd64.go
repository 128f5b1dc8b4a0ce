//go:build !purego

package vmaf

import "sync"

// vifVecTaps holds one window's distinct coefficients (its first half,
// then its centre) as the AVX2 kernels read them: in both 16-bit halves of
// eight 32-bit lanes (for VPMADDWD), in eight 32-bit lanes, and as four
// float64. The generator (internal/asmgen/vif) hard-codes this layout;
// TestVIFVecTapsLayout checks it.
type vifVecTaps struct {
	w16 [vifPad + 1][8]uint32
	w32 [vifPad + 1][8]uint32
	f64 [vifPad + 1][4]float64
}

// vifVecFilters returns vifFilters laid out for the AVX2 kernels, built on
// first use and read-only after.
var vifVecFilters = sync.OnceValue(func() *[len(vifFilters)]vifVecTaps {
	var t [len(vifFilters)]vifVecTaps
	for s, taps := range vifFilters {
		for k, c := range taps[:len(taps)/2+1] {
			for l := range t[s].w16[k] {
				t[s].w16[k][l] = uint32(c)<<16 | uint32(c)
				t[s].w32[k][l] = uint32(c)
			}
			for l := range t[s].f64[k] {
				t[s].f64[k][l] = float64(c)
			}
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
// a vector block, in the vector kernels' layout (float64 moments), one
// column at a time.

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
		b.mu1[o], b.mu2[o] = (m1+1<<7)>>8, (m2+1<<7)>>8
		b.fxx[o], b.fyy[o], b.fxy[o] = float64(xx), float64(yy), float64(xy)
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
		b.mu1[o], b.mu2[o] = (m1+muRound)>>muShift, (m2+muRound)>>muShift
		b.fxx[o] = float64(uint32((xx + sqRound) >> sqShift))
		b.fyy[o] = float64(uint32((yy + sqRound) >> sqShift))
		b.fxy[o] = float64(uint32((xy + sqRound) >> sqShift))
	}
}

func vifHorizontalCols(b *vifRowBuf, taps []uint16, j0, w int) {
	base := vifPad - len(taps)/2
	for j := j0; j < w; j++ {
		var a1, a2 uint32
		var xx, yy, xy uint64
		for k, c := range taps {
			i := base + j + k
			a1 += uint32(c) * b.mu1[i]
			a2 += uint32(c) * b.mu2[i]
			xx += uint64(c) * uint64(b.fxx[i])
			yy += uint64(c) * uint64(b.fyy[i])
			xy += uint64(c) * uint64(b.fxy[i])
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
