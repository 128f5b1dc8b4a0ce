package cambi

// buffers is an instance's scratch memory, sized once for the larger of
// the pictures it scores.
type buffers struct {
	img      []uint16  // the picture in 10-bit levels, packed, shrinking with each scale
	mask     []uint8   // flat pixels, packed alike
	flat     []uint8   // pixels equal to their right and lower neighbours
	colSums  []int32   // the mask's per-column window counts
	modeRows []uint16  // the mode filter's three row modes
	hist     []uint16  // per-column level histograms over the band
	rows     []int16   // each pixel's histogram row, -1 when not counted
	cvals    []float32 // responses of the current scale
	sel      []float32 // positive responses, for pooling
}

func newBuffers(w, h int, cfg *config) buffers {
	n := w * h
	return buffers{
		img:      make([]uint16, n),
		mask:     make([]uint8, n),
		flat:     make([]uint8, n),
		colSums:  make([]int32, w),
		modeRows: make([]uint16, 3*w),
		hist:     make([]uint16, cfg.bandSize*w),
		rows:     make([]int16, n),
		cvals:    make([]float32, n),
		sel:      make([]float32, 0, n),
	}
}
