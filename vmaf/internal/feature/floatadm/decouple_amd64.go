package floatadm

// decoupleRow is decoupleGo over a row: four columns at a time with SSE2,
// whose lanes make decoupleGo's float and double operations and its
// choices (as masks), the rest with decoupleGo.
func decoupleRow(rows *decoupleRows, egl float64) {
	n4 := len(rows.o[0]) &^ 3
	if n4 > 0 {
		var p [15]*float32
		for i, set := range [5]*[3][]float32{&rows.o, &rows.t, &rows.k, &rows.r, &rows.a} {
			for b := 0; b < 3; b++ {
				_ = set[b][n4-1]
				p[3*i+b] = &set[b][0]
			}
		}
		decouple4(&p, n4, egl, cos1degSq)
	}
	decoupleGo(rows, n4, egl)
}

// decouple4 decouples n columns (a multiple of 4) of the rows p points
// at: o, t, k, then r and a, each h, v, d.
//
//go:noescape
func decouple4(p *[15]*float32, n int, egl float64, cos1degSq float32)
