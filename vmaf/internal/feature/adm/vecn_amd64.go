//go:build !purego

package adm

import (
	"math"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature/internal/kit"
)

// Wrappers of the AVX2 kernels of levels 1 to 3 (see kernels_amd64.go).

func admDWTNVertVec(lo, hi []int32, r *[4][]int32, p *admDWTNParams) {
	n := len(lo) &^ 7
	if n > 0 {
		admDWTNVertAVX2(kit.At(lo, n), kit.At(hi, n), kit.At(r[0], n), kit.At(r[1], n), kit.At(r[2], n), kit.At(r[3], n), n,
			uint64(p.vShift), p.vRound)
	}
	if n < len(lo) {
		admDWTNVert(lo[n:], hi[n:], &[4][]int32{r[0][n:], r[1][n:], r[2][n:], r[3][n:]}, p)
	}
}

func admDWTNHorizVec(ll []int32, det *[3][]int32, lo, hi []int32, p *admDWTNParams) {
	n := len(det[0])
	// The kernel reads one sample past the last output's window.
	v := 0
	if m := min(len(lo), len(hi)); m >= 3 {
		v = min(n, (m-3)/2) &^ 7
	}
	if v > 0 {
		var pll *int32
		if ll != nil {
			pll = kit.At(ll, v)
		}
		admDWTNHorizAVX2(pll, kit.At(det[0], v), kit.At(det[1], v), kit.At(det[2], v), kit.At(lo, 2*v+3), kit.At(hi, 2*v+3), v,
			uint64(p.hShift), p.hRound)
	}
	if v < n {
		if ll != nil {
			ll = ll[v:]
		}
		admDWTNHoriz(ll, &[3][]int32{det[0][v:], det[1][v:], det[2][v:]}, lo[2*v:], hi[2*v:], p)
	}
}

// admVecFactor reports whether the kernels' signed 32-bit products take
// the Q32 CSF factors f.
func admVecFactor(f [3]int64) bool {
	for _, v := range f {
		if v < 0 || v > math.MaxInt32 {
			return false
		}
	}
	return true
}

func admDecoupleNVec(r *admDecouple32Row, gain float64) {
	admDecoupleNSpan(r, gain, false)
}

// admDecoupleNWide runs 16-column AVX-512 blocks, then AVX2 blocks, then
// the portable code.
func admDecoupleNWide(r *admDecouple32Row, gain float64) {
	admDecoupleNSpan(r, gain, true)
}

func admDecoupleNSpan(r *admDecouple32Row, gain float64, wide bool) {
	n := len(r.o[0])
	v := n &^ 7
	if math.IsInf(gain, 0) || !admVecFactor(r.rf) || !r.holds(n) {
		v = 0
	}
	m := 0
	if wide {
		m = v &^ 15
	}
	for j := 0; j < m; {
		j = admDecoupleNAVX512(&r.o[0], j, m, gain, float64(admCos1Sq), &admRecip[0])
		if j < m {
			// Detail too large for the kernel's float64 angle test:
			// the AVX2 blocks take what they can of these 16 columns.
			admDecoupleNBlocks(r, j, j+16, gain)
			j += 16
		}
	}
	admDecoupleNBlocks(r, m, v, gain)
	if v < n {
		tail := r.cols(v, n)
		admDecoupleN(&tail, gain)
	}
}

// admDecoupleNBlocks decouples columns [j, v), a whole number of 8-column
// blocks, with the AVX2 kernel and the portable code for blocks it
// cannot take.
func admDecoupleNBlocks(r *admDecouple32Row, j, v int, gain float64) {
	for j < v {
		j = admDecoupleNAVX2(&r.o[0], j, v, gain, float64(admCos1Sq), &admRecip[0])
		if j < v {
			// Detail too large for the kernel's float64 angle test.
			blk := r.cols(j, j+8)
			admDecoupleN(&blk, gain)
			j += 8
		}
	}
}

// holds reports whether every row of r has n columns.
func (r *admDecouple32Row) holds(n int) bool {
	return admBandsHold(n, &r.o, &r.t, &r.rst, &r.add, &r.mR, &r.fR, &r.mA, &r.fA)
}

// cols returns columns [j0, j1) of r.
func (r *admDecouple32Row) cols(j0, j1 int) admDecouple32Row {
	t := admDecouple32Row{rf: r.rf}
	for i, f := range [...]*[3][]int32{&r.o, &r.t, &r.rst, &r.add, &r.mR, &r.fR, &r.mA, &r.fA} {
		d := [...]*[3][]int32{&t.o, &t.t, &t.rst, &t.add, &t.mR, &t.fR, &t.mA, &t.fA}[i]
		for b := range f {
			d[b] = f[b][j0:j1]
		}
	}
	return t
}

func admCMNVec(r *admCM32Row, p *admCMParams) [3]int64 {
	return admCMNSpan(r, p, false)
}

// admCMNWide runs 16-column AVX-512 blocks, then at most one AVX2 block,
// then the portable code.
func admCMNWide(r *admCM32Row, p *admCMParams) [3]int64 {
	return admCMNSpan(r, p, true)
}

func admCMNSpan(r *admCM32Row, p *admCMParams, wide bool) [3]int64 {
	n := len(r.src[0])
	v := n &^ 7
	if !admVecFactor(p.rf) || !r.holds(n) {
		v = 0
	}
	m := 0
	if wide {
		m = v &^ 15
	}
	var acc [3]int64
	if v > 0 {
		vp := admCMVecBands(p)
		if m > 0 {
			acc[0], acc[1], acc[2] = admCMNAVX512(&r.src[0], &vp[0].rf[0], m)
		}
		if m < v {
			rest := r.from(m)
			h, vv, d := admCMNAVX2(&rest.src[0], &vp[0].rf[0], v-m)
			acc[0], acc[1], acc[2] = acc[0]+h, acc[1]+vv, acc[2]+d
		}
	}
	if v < n {
		tail := r.from(v)
		s := admCMN(&tail, p)
		for b := range acc {
			acc[b] += s[b]
		}
	}
	return acc
}

// admCubeNWide runs 16-sample AVX-512 blocks, then the portable kernel.
func admCubeNWide(row []int32, sq, cs uint) uint64 {
	n := len(row) &^ 15
	var s uint64
	if n > 0 {
		s = admCubeNAVX512(kit.At(row, n), n, uint64(sq), uint64(cs), uint64(1)<<sq, uint64(admRoundHalf(int(cs))))
	}
	return s + admCubeN(row[n:], sq, cs)
}
