package vif

// vifKernels is one implementation of the VIF row kernels. Every set must
// produce the same bits as the portable one (vifScalarKernels); the vector
// sets only change how the sums are formed, never their values.
type vifKernels struct {
	name string
	// wordRows makes the vertical statistics passes write vifRowBuf's
	// biased 16-bit rows instead of its columns.
	wordRows bool

	// vertical8 and vertical16 filter one row of the window's input rows
	// (one per tap) vertically into b's padded rows: the means rounded by
	// muShift bits, the second moments by sqShift bits (8-bit input: 8 and
	// none).
	vertical8  func(b *vifRowBuf, ref, dis [][]byte, taps []uint16, w int)
	vertical16 func(b *vifRowBuf, ref, dis [][]uint16, taps []uint16, w int, muShift, sqShift uint)
	// horizontal filters b's mirrored padded rows horizontally into the
	// first w variances and covariances of b.
	horizontal func(b *vifRowBuf, taps []uint16, w int)
	// means8 and means16 filter only the means vertically, rounding by
	// shift bits, into b.mu1 and b.mu2.
	means8  func(b *vifRowBuf, ref, dis [][]byte, taps []uint16, w int, shift uint)
	means16 func(b *vifRowBuf, ref, dis [][]uint16, taps []uint16, w int, shift uint)
	// decimate filters mirrored padded mean rows horizontally at every
	// other column into a row of the next scale.
	decimate func(dstRef, dstDis []uint16, mu1, mu2 []uint32, taps []uint16)
	// accumulate adds a row of variances and covariances to s.
	accumulate func(s *vifSums, sigma1Sq, sigma2Sq, sigma12 []int32, gainLimit float64, lg *vifLog2Table)
}

// vifKernelSupport is a kernel set and whether this machine runs it.
type vifKernelSupport struct {
	k  *vifKernels
	ok bool
}

// vifRowBuf is the scratch of one output row, allocated once per
// extractor. The padded rows hold a vertical pass's rounded sums from
// index vifPad on, with room for the mirrored samples on both sides.
type vifRowBuf struct {
	mu1, mu2 []uint32 // means, for decimation
	// words holds the vector kernels' statistics rows (vifWordRows of
	// them, wordStride apart): each sum as 16-bit words less 1<<15, the
	// second moments split into high and low halves.
	words      []uint16
	wordStride int
	// cols holds the scalar kernels' five sums per column together, so
	// that their horizontal pass needs one pointer for all of them.
	cols []vifCol
	// Horizontal results: ref and dis variance, covariance per column.
	sigma1Sq, sigma2Sq, sigma12 []int32
	// acc and deep are the scalar vertical passes' accumulators for one
	// column block: the means and 8-bit moments, and 16-bit moments.
	acc  [5][]uint32
	deep [3][]uint64
}

// The statistics rows of vifRowBuf.words, in the order the AVX2 kernels
// (internal/asmgen/vif) hard-code.
const (
	vifWordMu1 = iota
	vifWordMu2
	vifWordXXHi
	vifWordXXLo
	vifWordYYHi
	vifWordYYLo
	vifWordXYHi
	vifWordXYLo
	vifWordRows
)

// vifWordBias makes the words signed for VPMADDWD.
const vifWordBias = 1 << 15

// word returns row r's sum at padded index i.
func (b *vifRowBuf) word(r, i int) uint32 {
	return uint32(b.words[r*b.wordStride+i] ^ vifWordBias)
}

// setWord stores v (below 1<<16) as row r's sum at padded index i.
func (b *vifRowBuf) setWord(r, i int, v uint32) {
	b.words[r*b.wordStride+i] = uint16(v) ^ vifWordBias
}

// moment returns the second moment whose high half is in row r.
func (b *vifRowBuf) moment(r, i int) uint32 {
	return b.word(r, i)<<16 | b.word(r+1, i)
}

func (b *vifRowBuf) setMoment(r, i int, v uint32) {
	b.setWord(r, i, v>>16)
	b.setWord(r+1, i, v&0xffff)
}

// vifCol is one column's vertical sums: means, then ref², dis², ref·dis.
type vifCol struct{ mu1, mu2, xx, yy, xy uint32 }

// vifBlock is the column block the scalar vertical kernels work in, so
// that their accumulators stay in the first-level cache.
const vifBlock = 256

func newVIFRowBuf(w int, wordRows bool) vifRowBuf {
	p := w + 2*vifPad
	b := vifRowBuf{
		mu1:      make([]uint32, p),
		mu2:      make([]uint32, p),
		sigma1Sq: make([]int32, w),
		sigma2Sq: make([]int32, w),
		sigma12:  make([]int32, w),
	}
	if wordRows {
		// The vector horizontal pass reads up to one pair of taps past
		// the window, with a zero coefficient; a block's worth of slack
		// keeps that inside the row.
		b.wordStride = p + 16
		b.words = make([]uint16, vifWordRows*b.wordStride)
		return b
	}
	b.cols = make([]vifCol, p)
	for i := range b.acc {
		b.acc[i] = make([]uint32, vifBlock)
	}
	for i := range b.deep {
		b.deep[i] = make([]uint64, vifBlock)
	}
	return b
}

// mirrorMoments fills the margins of the padded rows a horizontal stats
// pass reads, w wide, for a window reaching half samples past each end.
func (b *vifRowBuf) mirrorMoments(w, half int) {
	if b.words == nil {
		vifMirrorEnds(b.cols, w, half)
		return
	}
	for r := range vifWordRows {
		vifMirrorEnds(b.words[r*b.wordStride:(r+1)*b.wordStride], w, half)
	}
}

// vifMirrorEnds reflects the w samples starting at row[vifPad] into the
// half samples before and after them, not repeating the edge samples.
func vifMirrorEnds[T uint16 | uint32 | vifCol](row []T, w, half int) {
	for f := 1; f <= half; f++ {
		row[vifPad-f] = row[vifPad+f]
		row[vifPad+w-1+f] = row[vifPad+w-1-f]
	}
}
