package cambi

// buffers is an instance's scratch memory, sized once for the larger of
// the pictures it scores.
type buffers struct {
	img      []uint16  // the picture in 10-bit levels, packed, shrinking with each scale
	mask     []uint8   // flat pixels, packed alike
	flat     []uint8   // ring of 8 rows: pixels equal to their right and lower neighbours
	colSums  []int32   // the mask's per-column window counts
	modeRows []uint16  // the mode filter's three row modes
	hist     []uint16  // per-column level histograms over the band
	rows     []int16   // ring of 2·pad+2 rows: each pixel's histogram row, -1 when not counted
	sel      []float32 // positive responses of the current scale, for pooling
	best     []float32 // a row's responses from the vector kernel
	cvals    []float32 // every response of the current scale, for heatmaps only
}

func newBuffers(w, h, pad int, heatmaps bool, cfg *config) buffers {
	n := w * h
	b := buffers{
		img:      make([]uint16, n),
		mask:     make([]uint8, n),
		flat:     make([]uint8, 8*w),
		colSums:  make([]int32, w),
		modeRows: make([]uint16, 3*w),
		hist:     make([]uint16, cfg.bandSize*w),
		rows:     make([]int16, (2*pad+2)*w),
		sel:      make([]float32, 0, n),
		best:     make([]float32, w),
	}
	if heatmaps {
		b.cvals = make([]float32, n)
	}
	return b
}
