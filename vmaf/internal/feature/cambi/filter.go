package cambi

import "unsafe"

// decimate keeps every other sample of every other row, packing the
// nw x nh result at the start of p (which held w columns). Each write
// lands at or before every sample still to be read, so it works in
// place. prefix, when not nil, does the start of each row (see
// evensPrefix16).
func decimate[T uint8 | uint16](p []T, w, nw, nh int, prefix func(dst, src []T) int) {
	for y := 0; y < nh; y++ {
		src := p[2*y*w:]
		dst := p[y*nw : (y+1)*nw]
		if prefix != nil {
			n := prefix(dst, src)
			dst, src = dst[n:], src[2*n:]
		}
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
// With vec, the rows go through the vector kernel (modeRow).
func modeFilter(img []uint16, w, h int, rows []uint16, vec bool) {
	if h < 3 {
		return
	}
	ring := [3][]uint16{rows[:w], rows[w : 2*w], rows[2*w : 3*w]}
	horizontal, vertical := horizontalMode, modeRowGo
	if vec {
		horizontal, vertical = horizontalModeVec, modeRow
	}
	horizontal(img[:w], ring[0])
	horizontal(img[w:2*w], ring[1])
	for y := 2; y < h; y++ {
		above, mid, below := ring[(y-2)%3], ring[(y-1)%3], ring[y%3]
		horizontal(img[y*w:(y+1)*w], below)
		vertical(above, mid, below, img[(y-1)*w:y*w])
	}
}

// horizontalModeVec is horizontalMode through modeRow.
func horizontalModeVec(in, out []uint16) {
	w := len(in)
	out = out[:w]
	out[0], out[w-1] = in[0], in[w-1]
	if w > 2 {
		modeRow(in[:w-2], in[1:w-1], in[2:], out[1:w-1])
	}
}

// word is the four levels s[i:i+4] as one word; putWord stores one.
func word(s []uint16, i int) uint64 {
	return *(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), 2*i))
}

func putWord(s []uint16, i int, v uint64) {
	*(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), 2*i)) = v
}

// Lane-wise arithmetic on four 16-bit levels in a word. Levels never
// exceed 1024, far below bit 15, so lanes neither carry nor borrow.
const (
	lanesLow  = 0x0001_0001_0001_0001
	lanesHigh = 0x8000_8000_8000_8000
)

// lanesMode3 is mode3 in each lane: the minimum, replaced by b where b
// and c agree, replaced by a where a agrees with either. The lane
// masks are built inline (this is the mode filter's inner loop).
func lanesMode3(a, b, c uint64) uint64 {
	// Flat areas, the common case, agree on all four lanes.
	if a == b || a == c {
		return a
	}
	if b == c {
		return b
	}
	// A lane mask is found as bit 15 of each lane (lane a | 0x8000
	// minus lane b keeps it where a >= b; (a ^ b) + 0x7fff sets it where
	// they differ), then widened to the lane: m | m - m>>15.
	geAB := ((a | lanesHigh) - b) & lanesHigh
	geAB |= geAB - geAB>>15
	lo := b&geAB | a&^geAB
	geLC := ((lo | lanesHigh) - c) & lanesHigh
	geLC |= geLC - geLC>>15
	r := c&geLC | lo&^geLC
	// Bit 15 set in the lanes where the pair differs.
	dBC := ((b ^ c) + 0x7fff*lanesLow) & lanesHigh
	dBC |= dBC - dBC>>15
	r = r&dBC | b&^dBC
	dAB := ((a ^ b) + 0x7fff*lanesLow) & lanesHigh
	dAC := ((a ^ c) + 0x7fff*lanesLow) & lanesHigh
	dA := dAB & dAC
	dA |= dA - dA>>15
	return r&dA | a&^dA
}

// horizontalMode is the mode of each triple along a row, four at once.
func horizontalMode(in, out []uint16) {
	w := len(in)
	out = out[:w]
	out[0], out[w-1] = in[0], in[w-1]
	x := 1
	for ; x+4 < w; x += 4 {
		putWord(out, x, lanesMode3(word(in, x-1), word(in, x), word(in, x+1)))
	}
	for ; x < w-1; x++ {
		out[x] = mode3(in[x-1], in[x], in[x+1])
	}
}

// modeRowGo is the mode down each column of three rows.
func modeRowGo(a, b, c, out []uint16) {
	n := len(out)
	a, b, c = a[:n], b[:n], c[:n]
	x := 0
	for ; x+4 <= n; x += 4 {
		putWord(out, x, lanesMode3(word(a, x), word(b, x), word(c, x)))
	}
	for ; x < n; x++ {
		out[x] = mode3(a[x], b[x], c[x])
	}
}
