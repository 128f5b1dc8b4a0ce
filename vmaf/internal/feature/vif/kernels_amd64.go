//go:build !purego

package vif

import (
	"math"

	"github.com/vmafsink/vmafsink/vmaf/internal/cpu"
)

// The AVX2 and AVX-512 VIF kernels are Go assembly generated with avo by
// internal/asmgen/vif (a module of its own, so that building vmaf never
// needs avo); run go generate in this directory after changing it.
// internal/asmgen/README.md says why assembly rather than the simd/archsimd
// experiment, and how the kernels stay bit-identical to the portable ones.
//
//go:generate go run -C ../../../../internal/asmgen ./vif -out ../../vmaf/internal/feature/vif/vif_amd64.s -stubs ../../vmaf/internal/feature/vif/vif_stub_amd64.go -pkg vif

// vifAVX2Kernels processes whole vector blocks in assembly and the last
// few columns of a row with the scalar code in vectail_amd64.go.
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

// vifAVX512Kernels runs blocks twice as wide as the AVX2 kernels', then
// at most one AVX2 block, then the scalar tail.
var vifAVX512Kernels = vifKernels{
	name:       "avx512",
	wordRows:   true,
	vertical8:  vifVertical8Wide,
	vertical16: vifVertical16Wide,
	horizontal: vifHorizontalWide,
	means8:     vifMeans8Wide,
	means16:    vifMeans16Wide,
	decimate:   vifDecimateWide,
	accumulate: vifAccumulateWide,
}

// The AVX-512 kernels need VL and VNNI too, which every AVX-512 CPU since
// Ice Lake and Zen 4 has; internal/cpu's AVX512 includes them, and its
// AVX2 includes FMA.

// vifBestKernels returns the fastest kernel set this machine runs under
// the process's CPU mask.
func vifBestKernels() *vifKernels {
	switch f := cpu.Get(); {
	case f.AVX512:
		return &vifAVX512Kernels
	case f.AVX2:
		return &vifAVX2Kernels
	}
	return &vifScalarKernels
}

// vifKernelSets lists every kernel set this machine runs, for tests,
// slowest first.
func vifKernelSets() []*vifKernels {
	sets := []*vifKernels{&vifScalarKernels}
	if cpu.X86.AVX2 {
		sets = append(sets, &vifAVX2Kernels)
	}
	if cpu.X86.AVX512 {
		sets = append(sets, &vifAVX512Kernels)
	}
	return sets
}

// vifVecKernelSupport lists every vector kernel set of this build with
// whether this machine runs it, so that tests can say which they skip.
func vifVecKernelSupport() []vifKernelSupport {
	return []vifKernelSupport{{&vifAVX2Kernels, cpu.X86.AVX2}, {&vifAVX512Kernels, cpu.X86.AVX512}}
}

// vifAt returns a pointer to s[off], having checked that s holds n
// elements from there: the assembly trusts it.
func vifAt[T any](s []T, off, n int) *T {
	return &s[off : off+n][0]
}

// vifRowPtrs gathers the window's rows, n samples of each from column
// off, as the vertical kernels take them: the reference's rows, then the
// distorted picture's from index vifMaxTaps.
func vifRowPtrs[T uint8 | uint16](rows *[2 * vifMaxTaps]*T, ref, dis [][]T, off, n int) {
	for k := range ref {
		rows[k] = vifAt(ref[k], off, n)
		rows[vifMaxTaps+k] = vifAt(dis[k], off, n)
	}
}

// vifWords returns a pointer to the first statistics row at padded index
// off, having checked that every row holds n words from there.
func (b *vifRowBuf) vifWords(off, n int) *uint16 {
	_ = b.words[(vifWordRows-1)*b.wordStride+off : (vifWordRows-1)*b.wordStride+off+n]
	return vifAt(b.words, off, n)
}

// The span functions run one kernel over columns [j, e), a whole number of
// its blocks (16 or 8 columns for AVX2, twice that for AVX-512 when wide).
// The block functions cover a row with AVX-512 blocks (when wide), then
// AVX2 blocks, then the portable code for the columns left.

// vifWideEnd is where the AVX-512 blocks of a run of n columns end, n a
// whole number of AVX2 blocks of block columns: 0 when not wide.
func vifWideEnd(n, block int, wide bool) int {
	if !wide {
		return 0
	}
	return n &^ (2*block - 1)
}

func vifVertical8Span(b *vifRowBuf, ref, dis [][]byte, t *vifVecTaps, half, j, e int, wide bool) {
	if e <= j {
		return
	}
	var rows [2 * vifMaxTaps]*byte
	vifRowPtrs(&rows, ref[:2*half+1], dis[:2*half+1], j, e-j)
	// Direct calls, so that rows stays on the stack.
	if wide {
		vifVertical8AVX512(&rows[0], &t.w16[0][0], half, b.vifWords(vifPad+j, e-j), 2*b.wordStride, e-j)
	} else {
		vifVertical8AVX2(&rows[0], &t.w16[0][0], half, b.vifWords(vifPad+j, e-j), 2*b.wordStride, e-j)
	}
}

func vifVertical8Vec(b *vifRowBuf, ref, dis [][]byte, taps []uint16, w int) {
	vifVertical8Blocks(b, ref, dis, taps, w, false)
}

func vifVertical8Wide(b *vifRowBuf, ref, dis [][]byte, taps []uint16, w int) {
	vifVertical8Blocks(b, ref, dis, taps, w, true)
}

func vifVertical8Blocks(b *vifRowBuf, ref, dis [][]byte, taps []uint16, w int, wide bool) {
	n := 0
	if t := vifVecTapsFor(taps); t != nil {
		n = w &^ 15
		m := vifWideEnd(n, 16, wide)
		vifVertical8Span(b, ref, dis, t, len(taps)/2, 0, m, true)
		vifVertical8Span(b, ref, dis, t, len(taps)/2, m, n, false)
	}
	vifVertical8Cols(b, ref, dis, taps, n, w)
}

func vifVertical16Span(b *vifRowBuf, ref, dis [][]uint16, t *vifVecTaps, half, j, e int, muShift, sqShift uint, wide bool) {
	if e <= j {
		return
	}
	var rows [2 * vifMaxTaps]*uint16
	vifRowPtrs(&rows, ref[:2*half+1], dis[:2*half+1], j, e-j)
	dst, muRound, sqScale := b.vifWords(vifPad+j, e-j), vifRounding(muShift), math.Ldexp(1, -int(sqShift))
	if wide {
		vifVertical16AVX512(&rows[0], &t.w16[0][0], half, dst, 2*b.wordStride, e-j, uint64(muShift), muRound, sqScale)
	} else {
		vifVertical16AVX2(&rows[0], &t.w16[0][0], half, dst, 2*b.wordStride, e-j, uint64(muShift), muRound, sqScale)
	}
}

func vifVertical16Vec(b *vifRowBuf, ref, dis [][]uint16, taps []uint16, w int, muShift, sqShift uint) {
	vifVertical16Blocks(b, ref, dis, taps, w, muShift, sqShift, false)
}

func vifVertical16Wide(b *vifRowBuf, ref, dis [][]uint16, taps []uint16, w int, muShift, sqShift uint) {
	vifVertical16Blocks(b, ref, dis, taps, w, muShift, sqShift, true)
}

func vifVertical16Blocks(b *vifRowBuf, ref, dis [][]uint16, taps []uint16, w int, muShift, sqShift uint, wide bool) {
	n := 0
	// The float64 rounding needs a shift; every caller has one.
	if t := vifVecTapsFor(taps); t != nil && sqShift > 0 {
		n = w &^ 7
		m := vifWideEnd(n, 8, wide)
		vifVertical16Span(b, ref, dis, t, len(taps)/2, 0, m, muShift, sqShift, true)
		vifVertical16Span(b, ref, dis, t, len(taps)/2, m, n, muShift, sqShift, false)
	}
	vifVertical16Cols(b, ref, dis, taps, n, w, muShift, sqShift)
}

func vifHorizontalSpan(b *vifRowBuf, t *vifVecTaps, half, j, e int, wide bool) {
	if e <= j {
		return
	}
	// The pairs of taps read a block of words at up to 2·npairs-1 past
	// each column.
	base := vifPad - half + j
	kernel := vifHorizontalAVX2
	if wide {
		kernel = vifHorizontalAVX512
	}
	kernel(b.vifWords(base, e-j+2*t.npairs), 2*b.wordStride, &t.w16[0][0], t.npairs,
		vifAt(b.sigma1Sq, j, e-j), vifAt(b.sigma2Sq, j, e-j), vifAt(b.sigma12, j, e-j), e-j)
}

func vifHorizontalVec(b *vifRowBuf, taps []uint16, w int)  { vifHorizontalBlocks(b, taps, w, false) }
func vifHorizontalWide(b *vifRowBuf, taps []uint16, w int) { vifHorizontalBlocks(b, taps, w, true) }

func vifHorizontalBlocks(b *vifRowBuf, taps []uint16, w int, wide bool) {
	n := 0
	if t := vifVecTapsFor(taps); t != nil {
		n = w &^ 15
		m := vifWideEnd(n, 16, wide)
		vifHorizontalSpan(b, t, len(taps)/2, 0, m, true)
		vifHorizontalSpan(b, t, len(taps)/2, m, n, false)
	}
	vifHorizontalCols(b, taps, n, w)
}

func vifMeans8Span(b *vifRowBuf, ref, dis [][]byte, t *vifVecTaps, half, j, e int, wide bool) {
	if e <= j {
		return
	}
	var rows [2 * vifMaxTaps]*byte
	vifRowPtrs(&rows, ref[:2*half+1], dis[:2*half+1], j, e-j)
	mu1, mu2 := vifAt(b.mu1, vifPad+j, e-j), vifAt(b.mu2, vifPad+j, e-j)
	if wide {
		vifMeans8AVX512(&rows[0], &t.w16[0][0], half, mu1, mu2, e-j)
	} else {
		vifMeans8AVX2(&rows[0], &t.w16[0][0], half, mu1, mu2, e-j)
	}
}

func vifMeans8Vec(b *vifRowBuf, ref, dis [][]byte, taps []uint16, w int, shift uint) {
	vifMeans8Blocks(b, ref, dis, taps, w, shift, false)
}

func vifMeans8Wide(b *vifRowBuf, ref, dis [][]byte, taps []uint16, w int, shift uint) {
	vifMeans8Blocks(b, ref, dis, taps, w, shift, true)
}

func vifMeans8Blocks(b *vifRowBuf, ref, dis [][]byte, taps []uint16, w int, shift uint, wide bool) {
	n := 0
	if t := vifVecTapsFor(taps); t != nil && shift == 8 {
		n = w &^ 15
		m := vifWideEnd(n, 16, wide)
		vifMeans8Span(b, ref, dis, t, len(taps)/2, 0, m, true)
		vifMeans8Span(b, ref, dis, t, len(taps)/2, m, n, false)
	}
	vifMeansCols(b, ref, dis, taps, n, w, shift)
}

func vifMeans16Span(b *vifRowBuf, ref, dis [][]uint16, t *vifVecTaps, half, j, e int, shift uint, wide bool) {
	if e <= j {
		return
	}
	var rows [2 * vifMaxTaps]*uint16
	vifRowPtrs(&rows, ref[:2*half+1], dis[:2*half+1], j, e-j)
	mu1, mu2 := vifAt(b.mu1, vifPad+j, e-j), vifAt(b.mu2, vifPad+j, e-j)
	if wide {
		vifMeans16AVX512(&rows[0], &t.w16[0][0], half, mu1, mu2, e-j, uint64(shift), vifRounding(shift))
	} else {
		vifMeans16AVX2(&rows[0], &t.w16[0][0], half, mu1, mu2, e-j, uint64(shift), vifRounding(shift))
	}
}

func vifMeans16Vec(b *vifRowBuf, ref, dis [][]uint16, taps []uint16, w int, shift uint) {
	vifMeans16Blocks(b, ref, dis, taps, w, shift, false)
}

func vifMeans16Wide(b *vifRowBuf, ref, dis [][]uint16, taps []uint16, w int, shift uint) {
	vifMeans16Blocks(b, ref, dis, taps, w, shift, true)
}

func vifMeans16Blocks(b *vifRowBuf, ref, dis [][]uint16, taps []uint16, w int, shift uint, wide bool) {
	n := 0
	if t := vifVecTapsFor(taps); t != nil {
		n = w &^ 15
		m := vifWideEnd(n, 16, wide)
		vifMeans16Span(b, ref, dis, t, len(taps)/2, 0, m, shift, true)
		vifMeans16Span(b, ref, dis, t, len(taps)/2, m, n, shift, false)
	}
	vifMeansCols(b, ref, dis, taps, n, w, shift)
}

// vifDecimateSpan makes outputs [j, e) from columns 2j on, whose windows
// reach len(taps)-1 samples further.
func vifDecimateSpan(dstRef, dstDis []uint16, mu1, mu2 []uint32, t *vifVecTaps, half, j, e int, wide bool) {
	if e <= j {
		return
	}
	base, span := vifPad-half+2*j, 2*(e-j)+2*half
	kernel := vifDecimateAVX2
	if wide {
		kernel = vifDecimateAVX512
	}
	kernel(vifAt(mu1, base, span), vifAt(mu2, base, span), &t.w16[0][0], half,
		vifAt(dstRef, j, e-j), vifAt(dstDis, j, e-j), e-j)
}

func vifDecimateVec(dstRef, dstDis []uint16, mu1, mu2 []uint32, taps []uint16) {
	vifDecimateBlocks(dstRef, dstDis, mu1, mu2, taps, false)
}

func vifDecimateWide(dstRef, dstDis []uint16, mu1, mu2 []uint32, taps []uint16) {
	vifDecimateBlocks(dstRef, dstDis, mu1, mu2, taps, true)
}

func vifDecimateBlocks(dstRef, dstDis []uint16, mu1, mu2 []uint32, taps []uint16, wide bool) {
	n := 0
	if t := vifVecTapsFor(taps); t != nil {
		n = len(dstRef) &^ 15
		m := vifWideEnd(n, 16, wide)
		vifDecimateSpan(dstRef, dstDis, mu1, mu2, t, len(taps)/2, 0, m, true)
		vifDecimateSpan(dstRef, dstDis, mu1, mu2, t, len(taps)/2, m, n, false)
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

// vifStatsChunk bounds the pixels one statistics kernel call sums, so
// that no 32-bit lane can overflow: a pixel adds less than 1<<17 to each
// (the AVX-512 kernel folds its 16 lanes into 8 at the end).
const vifStatsChunk = 1 << 12

func vifAccumulateVec(s *vifSums, sigma1Sq, sigma2Sq, sigma12 []int32, gainLimit float64, lg *vifLog2Table) {
	vifAccumulateBlocks(s, sigma1Sq, sigma2Sq, sigma12, gainLimit, lg, false)
}

func vifAccumulateWide(s *vifSums, sigma1Sq, sigma2Sq, sigma12 []int32, gainLimit float64, lg *vifLog2Table) {
	vifAccumulateBlocks(s, sigma1Sq, sigma2Sq, sigma12, gainLimit, lg, true)
}

func vifAccumulateBlocks(s *vifSums, sigma1Sq, sigma2Sq, sigma12 []int32, gainLimit float64, lg *vifLog2Table, wide bool) {
	w := len(sigma1Sq)
	n := w &^ 7
	m := vifWideEnd(n, 8, wide)
	vifStatsSpan(s, sigma1Sq, sigma2Sq, sigma12, 0, m, gainLimit, lg, true)
	vifStatsSpan(s, sigma1Sq, sigma2Sq, sigma12, m, n, gainLimit, lg, false)
	s.addRow(sigma1Sq[n:], sigma2Sq[n:w], sigma12[n:w], gainLimit, lg)
}

// vifStatsSpan adds pixels [j, e) to s, e-j a multiple of the kernel's
// block (8 pixels, or 16 when wide).
func vifStatsSpan(s *vifSums, sigma1Sq, sigma2Sq, sigma12 []int32, j, e int, gainLimit float64, lg *vifLog2Table, wide bool) {
	for j0 := j; j0 < e; j0 += vifStatsChunk {
		m := min(vifStatsChunk, e-j0)
		lanes := vifStatLanes{gainLimit: [4]float64{gainLimit, gainLimit, gainLimit, gainLimit}}
		s1, s2, s12 := vifAt(sigma1Sq, j0, m), vifAt(sigma2Sq, j0, m), vifAt(sigma12, j0, m)
		if wide {
			vifStatsAVX512(s1, s2, s12, m, &lg[0], &lanes.numLog[0])
		} else {
			vifStatsAVX2(s1, s2, s12, m, &lg[0], &lanes.numLog[0])
		}
		for l := range 8 {
			s.numLog += int64(lanes.numLog[l])
			s.denLog += int64(lanes.denLog[l])
			s.denLin += int64(lanes.denLin[l])
		}
		for _, x := range lanes.numLin {
			s.numLin += x
		}
	}
}
