//go:build !purego

package vmaf

import (
	"math"

	"golang.org/x/sys/cpu"
)

// The AVX2 VIF kernels are Go assembly generated with avo by
// internal/asmgen/vif (a module of its own, so that building vmaf never
// needs avo); run go generate in this directory after changing it.
// internal/asmgen/README.md says why assembly rather than the simd/archsimd
// experiment, and how the kernels stay bit-identical to the portable ones.
//
//go:generate go run -C ../internal/asmgen ./vif -out ../../vmaf/vif_amd64.s -stubs ../../vmaf/vif_stub_amd64.go -pkg vmaf

// vifAVX2Kernels processes whole vector blocks in assembly and the last
// few columns of a row with the scalar code in vif_vectail_amd64.go.
var vifAVX2Kernels = vifKernels{
	name:       "avx2",
	wordRows:   true,
	vertical8:  vifVertical8Vec,
	vertical16: vifVertical16Vec,
	horizontal: vifHorizontalVec,
	means8:     vifMeans8Vec,
	means16:    vifMeans16Vec,
	decimate:   vifDecimateVec,
	accumulate: vifAccumulateVec,
}

// vifHasAVX2 tells whether the CPU and OS support the AVX2 kernels.
var vifHasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// vifBestKernels returns the fastest kernel set this machine runs.
func vifBestKernels() *vifKernels {
	if vifHasAVX2 {
		return &vifAVX2Kernels
	}
	return &vifScalarKernels
}

// vifKernelSets lists every kernel set this machine runs, for tests.
func vifKernelSets() []*vifKernels {
	if vifHasAVX2 {
		return []*vifKernels{&vifScalarKernels, &vifAVX2Kernels}
	}
	return []*vifKernels{&vifScalarKernels}
}

// vifAt returns a pointer to s[off], having checked that s holds n
// elements from there: the assembly trusts it.
func vifAt[T any](s []T, off, n int) *T {
	return &s[off : off+n][0]
}

// vifRowPtrs gathers the window's rows, first n samples of each, as the
// vertical kernels take them: the reference's rows, then the distorted
// picture's from index vifMaxTaps.
func vifRowPtrs[T uint8 | uint16](rows *[2 * vifMaxTaps]*T, ref, dis [][]T, n int) {
	for k := range ref {
		rows[k] = vifAt(ref[k], 0, n)
		rows[vifMaxTaps+k] = vifAt(dis[k], 0, n)
	}
}

// vifWords returns a pointer to the first statistics row at padded index
// off, having checked that every row holds n words from there.
func (b *vifRowBuf) vifWords(off, n int) *uint16 {
	_ = b.words[(vifWordRows-1)*b.wordStride+off : (vifWordRows-1)*b.wordStride+off+n]
	return vifAt(b.words, off, n)
}

func vifVertical8Vec(b *vifRowBuf, ref, dis [][]byte, taps []uint16, w int) {
	n := 0
	if t := vifVecTapsFor(taps); t != nil && w >= 16 {
		n = w &^ 15
		var rows [2 * vifMaxTaps]*byte
		vifRowPtrs(&rows, ref[:len(taps)], dis[:len(taps)], n)
		vifVertical8AVX2(&rows[0], &t.w16[0][0], len(taps)/2, b.vifWords(vifPad, n), 2*b.wordStride, n)
	}
	vifVertical8Cols(b, ref, dis, taps, n, w)
}

func vifVertical16Vec(b *vifRowBuf, ref, dis [][]uint16, taps []uint16, w int, muShift, sqShift uint) {
	n := 0
	// The float64 rounding needs a shift; every caller has one.
	if t := vifVecTapsFor(taps); t != nil && w >= 8 && sqShift > 0 {
		n = w &^ 7
		var rows [2 * vifMaxTaps]*uint16
		vifRowPtrs(&rows, ref[:len(taps)], dis[:len(taps)], n)
		vifVertical16AVX2(&rows[0], &t.w16[0][0], len(taps)/2, b.vifWords(vifPad, n), 2*b.wordStride, n,
			uint64(muShift), vifRounding(muShift), math.Ldexp(1, -int(sqShift)))
	}
	vifVertical16Cols(b, ref, dis, taps, n, w, muShift, sqShift)
}

func vifHorizontalVec(b *vifRowBuf, taps []uint16, w int) {
	n := 0
	if t := vifVecTapsFor(taps); t != nil && w >= 16 {
		n = w &^ 15
		// The pairs of taps read 16 words at up to 2·npairs-1 past each
		// column.
		base := vifPad - len(taps)/2
		vifHorizontalAVX2(b.vifWords(base, n+2*t.npairs), 2*b.wordStride, &t.w16[0][0], t.npairs,
			vifAt(b.sigma1Sq, 0, n), vifAt(b.sigma2Sq, 0, n), vifAt(b.sigma12, 0, n), n)
	}
	vifHorizontalCols(b, taps, n, w)
}

func vifMeans8Vec(b *vifRowBuf, ref, dis [][]byte, taps []uint16, w int, shift uint) {
	n := 0
	if t := vifVecTapsFor(taps); t != nil && w >= 16 && shift == 8 {
		n = w &^ 15
		var rows [2 * vifMaxTaps]*byte
		vifRowPtrs(&rows, ref[:len(taps)], dis[:len(taps)], n)
		vifMeans8AVX2(&rows[0], &t.w16[0][0], len(taps)/2, vifAt(b.mu1, vifPad, n), vifAt(b.mu2, vifPad, n), n)
	}
	vifMeansCols(b, ref, dis, taps, n, w, shift)
}

func vifMeans16Vec(b *vifRowBuf, ref, dis [][]uint16, taps []uint16, w int, shift uint) {
	n := 0
	if t := vifVecTapsFor(taps); t != nil && w >= 16 {
		n = w &^ 15
		var rows [2 * vifMaxTaps]*uint16
		vifRowPtrs(&rows, ref[:len(taps)], dis[:len(taps)], n)
		vifMeans16AVX2(&rows[0], &t.w16[0][0], len(taps)/2, vifAt(b.mu1, vifPad, n), vifAt(b.mu2, vifPad, n), n,
			uint64(shift), vifRounding(shift))
	}
	vifMeansCols(b, ref, dis, taps, n, w, shift)
}

func vifDecimateVec(dstRef, dstDis []uint16, mu1, mu2 []uint32, taps []uint16) {
	n := 0
	if t := vifVecTapsFor(taps); t != nil && len(dstRef) >= 16 {
		n = len(dstRef) &^ 15
		// 2n columns whose windows reach len(taps)-1 samples further.
		base, span := vifPad-len(taps)/2, 2*n+len(taps)-1
		vifDecimateAVX2(vifAt(mu1, base, span), vifAt(mu2, base, span), &t.w16[0][0], len(taps)/2,
			vifAt(dstRef, 0, n), vifAt(dstDis, 0, n), n)
	}
	vifDecimateRow(dstRef[n:], dstDis[n:], mu1[2*n:], mu2[2*n:], taps)
}

// vifStatLanes passes vifStatsAVX2 its gain limit and takes back its sums
// per vector lane.
type vifStatLanes struct {
	numLog, denLog, denLin [8]int32
	numLin                 [4]int64
	gainLimit              [4]float64
}

// vifStatsChunk bounds the pixels one vifStatsAVX2 call sums, so that no
// 32-bit lane can overflow: a pixel adds less than 1<<17 to each.
const vifStatsChunk = 1 << 12

func vifAccumulateVec(s *vifSums, sigma1Sq, sigma2Sq, sigma12 []int32, gainLimit float64, lg *vifLog2Table) {
	w := len(sigma1Sq)
	sigma2Sq, sigma12 = sigma2Sq[:w], sigma12[:w]
	n := w &^ 7
	for j0 := 0; j0 < n; j0 += vifStatsChunk {
		m := min(vifStatsChunk, n-j0)
		lanes := vifStatLanes{gainLimit: [4]float64{gainLimit, gainLimit, gainLimit, gainLimit}}
		vifStatsAVX2(vifAt(sigma1Sq, j0, m), vifAt(sigma2Sq, j0, m), vifAt(sigma12, j0, m), m, &lg[0], &lanes.numLog[0])
		for l := range 8 {
			s.numLog += int64(lanes.numLog[l])
			s.denLog += int64(lanes.denLog[l])
			s.denLin += int64(lanes.denLin[l])
		}
		for _, x := range lanes.numLin {
			s.numLin += x
		}
	}
	s.addRow(sigma1Sq[n:], sigma2Sq[n:], sigma12[n:], gainLimit, lg)
}
