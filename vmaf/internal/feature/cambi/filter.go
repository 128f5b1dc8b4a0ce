package cambi

// decimate keeps every other sample of every other row, packing the
// nw x nh result at the start of p (which held w columns). Each write
// lands at or before every sample still to be read, so it works in
// place.
func decimate[T uint8 | uint16](p []T, w, nw, nh int) {
	for y := 0; y < nh; y++ {
		src := p[2*y*w:]
		dst := p[y*nw : (y+1)*nw]
		for x := range dst {
			dst[x] = src[2*x]
		}
	}
}

// mode3 is the most common of three levels, or the lowest when all
// differ.
func mode3(a, b, c uint16) uint16 {
	if a == b || a == c {
		return a
	}
	if b == c {
		return b
	}
	return min(a, b, c)
}

// modeFilter replaces each level by the mode of its 3x3 neighbourhood,
// taken as libvmaf does: the mode across each row's triples (the first
// and last columns kept), then the mode down each column of those. The
// first and last rows are left as they are. rows holds 3·w scratch.
func modeFilter(img []uint16, w, h int, rows []uint16) {
	if h < 3 {
		return
	}
	ring := [3][]uint16{rows[:w], rows[w : 2*w], rows[2*w : 3*w]}
	horizontal := func(y int, out []uint16) {
		in := img[y*w : (y+1)*w]
		out[0] = in[0]
		for x := 1; x < w-1; x++ {
			out[x] = mode3(in[x-1], in[x], in[x+1])
		}
		out[w-1] = in[w-1]
	}
	horizontal(0, ring[0])
	horizontal(1, ring[1])
	for y := 2; y < h; y++ {
		above, mid, below := ring[(y-2)%3], ring[(y-1)%3], ring[y%3]
		horizontal(y, below)
		out := img[(y-1)*w : y*w]
		for x := range out {
			out[x] = mode3(above[x], mid[x], below[x])
		}
	}
}
