package floatadm

import "github.com/vmafsink/vmafsink/vmaf/internal/cpu"

// hasSSE2 tells whether the process's CPU mask lets the SSE2 loops run;
// instances read it when they are made.
func hasSSE2() bool { return cpu.Get().SSE2 }

// vertical is the wavelet's vertical pass over one output row: four
// columns at a time with SSE2, whose lanes repeat filter4's products and
// sums in its order, the rest with verticalGo.
func vertical(lo, hi, r0, r1, r2, r3 []float32) {
	n4 := len(lo) &^ 3
	if n4 > 0 {
		_, _, _, _, _ = hi[n4-1], r0[n4-1], r1[n4-1], r2[n4-1], r3[n4-1]
		rows := [4]*float32{&r0[0], &r1[0], &r2[0], &r3[0]}
		vertical4(&lo[0], &hi[0], &rows, &dwtLo, &dwtHi, n4)
	}
	verticalGo(lo, hi, r0, r1, r2, r3, n4)
}

// vertical4 filters n columns (a multiple of 4) of rows with fl into lo
// and with fh into hi.
//
//go:noescape
func vertical4(lo, hi *float32, rows *[4]*float32, fl, fh *[4]float32, n int)

// horizontal is horizontalGo from 1 to end, four outputs at a time with
// SSE2 (the taps of four outputs are the even and odd samples of ten
// consecutive ones), whose lanes repeat filter4's order.
func horizontal(src, lo, hi []float32, end int) {
	n4 := (end - 1) &^ 3
	if n4 > 0 {
		// The last block reads samples up to 2(n4)+2.
		_, _, _ = src[2*n4+2], lo[n4], hi[n4]
		horizontal4(&lo[1], &hi[1], &src[1], &dwtLo, &dwtHi, n4)
	}
	horizontalGo(src, lo, hi, 1+n4, end)
}

// horizontal4 writes n outputs (a multiple of 4) of each filter from the
// samples at src, two per output.
//
//go:noescape
func horizontal4(lo, hi, src *float32, fl, fh *[4]float32, n int)
