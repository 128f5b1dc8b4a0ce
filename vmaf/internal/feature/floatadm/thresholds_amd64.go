package floatadm

// thresholds fills thr for a run of columns: four at a time with SSE2,
// whose lanes repeat thresholdsGo's float and double operations in its
// order, and the rest with thresholdsGo.
func thresholds(thr []float32, rows *thresholdRows) {
	n4 := len(thr) &^ 3
	if n4 > 0 {
		var p [12]*float32
		for b := 0; b < 3; b++ {
			for r := 0; r < 3; r++ {
				_ = rows[b][r][n4+1] // the last block reads up to here
				p[4*b+r] = &rows[b][r][0]
			}
			_ = rows[b][3][n4-1]
			p[4*b+3] = &rows[b][3][0]
		}
		thresholds4(&thr[0], &p, n4)
	}
	thresholdsGo(thr, rows, n4)
}

// thresholds4 writes n (a multiple of 4) thresholds to thr from the rows
// p points at: per band, the mask rows above, at and below, and the
// weighted centres.
//
//go:noescape
func thresholds4(thr *float32, p *[12]*float32, n int)
