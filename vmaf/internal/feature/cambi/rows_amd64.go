//go:build amd64 && !purego

package cambi

// The row kernels below do a prefix of a row with AVX-512 and return
// its length; the portable loop does the rest. Each computes exactly
// what the portable loop would (integer arithmetic, comparisons), so
// the split changes nothing.

//go:noescape
func antiDither32(r0, r1 *uint16, n int)

//go:noescape
func flat32(row, below *uint16, out *uint8, n int)

//go:noescape
func slideCols16(cols *int32, add, sub *uint8, n int)

//go:noescape
func box7x16(cols *int32, out *uint8, n int, limit int32)

//go:noescape
func levelRows32(img *uint16, mask *uint8, out *int16, n int, base, size int)

// antiDitherPrefix averages r0[x] with r0[x+1], r1[x] and r1[x+1] for a
// prefix of x < len(r0)-1.
func antiDitherPrefix(r0, r1 []uint16) int {
	n := (len(r0) - 1) &^ 31
	if n > 0 {
		_ = r1[n]
		_ = r0[n]
		antiDither32(&r0[0], &r1[0], n)
	}
	return n
}

// flatPrefix marks the pixels of row equal to their right neighbour
// and to the one below, for a prefix of x < len(row)-1.
func flatPrefix(row, below []uint16, out []uint8) int {
	n := (len(row) - 1) &^ 31
	if n > 0 {
		_, _, _ = row[n], below[n-1], out[n-1]
		flat32(&row[0], &below[0], &out[0], n)
	}
	return n
}

// slideColsPrefix is slideCols over a prefix of cols.
func slideColsPrefix(cols []int32, add, sub []uint8) int {
	n := len(cols) &^ 15
	if n > 0 {
		_, _ = add[n-1], sub[n-1]
		slideCols16(&cols[0], &add[0], &sub[0], n)
	}
	return n
}

// boxInterior marks out[x] for x in [3, 3+n), the columns whose 7-wide
// window lies inside the row, and returns n.
func boxInterior(cols []int32, out []uint8, limit int32) int {
	n := (len(cols) - 6) &^ 15
	if n > 0 {
		_, _ = cols[n+5], out[n+2]
		box7x16(&cols[0], &out[3], n, limit)
	}
	return max(n, 0)
}

// levelRowsPrefix is the histogram rows of a prefix of a row of levels
// (see cValues), from the band as cfg sets it.
func levelRowsPrefix(img []uint16, mask []uint8, out []int16, cfg *config) int {
	n := len(out) &^ 31
	if n > 0 {
		_, _ = img[n-1], mask[n-1]
		levelRows32(&img[0], &mask[0], &out[0], n, cfg.bandBase, cfg.bandSize)
	}
	return n
}

//go:noescape
func evens16(dst, src *uint16, n int)

//go:noescape
func evens8(dst, src *uint8, n int)

//go:noescape
func widen32(dst *uint16, src *uint8, n int)

// evensPrefix16 and evensPrefix8 set dst[x] = src[2x] for a prefix of
// dst (src may be dst, or start after it).
func evensPrefix16(dst, src []uint16) int {
	n := min(len(dst), len(src)/2) &^ 15
	if n > 0 {
		evens16(&dst[0], &src[0], n)
	}
	return n
}

func evensPrefix8(dst, src []uint8) int {
	n := min(len(dst), len(src)/2) &^ 31
	if n > 0 {
		evens8(&dst[0], &src[0], n)
	}
	return n
}

// widenPrefix sets dst[x] = src[x] << 2, 8-bit samples as 10-bit
// levels, for a prefix of dst.
func widenPrefix(dst []uint16, src []uint8) int {
	n := min(len(dst), len(src)) &^ 31
	if n > 0 {
		widen32(&dst[0], &src[0], n)
	}
	return n
}

//go:noescape
func cRow16(rows *int16, img *uint16, hist *uint16, best *float32, n, stride int, active *uint32, weights *[32]int32, rcp *float32, nd int, pos *float32) int

// cRowPrefix sets best[j] to pixel j's response (0 for none) for the
// first n pixels of the row, as cRow computes them (see there for why
// the reads stay in the tables), and writes the positive ones in order
// from pos[0], k of them. pos must have room for n.
func cRowPrefix(hist []uint16, rows []int16, img []uint16, best, pos []float32, cfg *config) (n, k int) {
	n = min(len(rows), len(pos)) &^ 15
	if n > 0 {
		_, _ = img[n-1], best[n-1]
		k = cRow16(&rows[0], &img[0], &hist[0], &best[0], n, 2*len(rows), &cfg.active[0], &cfg.weights32,
			&cfg.reciprocal[0], cfg.numDiffs, &pos[0])
	}
	return n, k
}

//go:noescape
func nextChange(add, sub *int16, from, n, addLevel, subLevel int) int

// skipUnchanged is the first j >= from where slideRows has something
// to do, when it is found in a whole number of 32-pixel steps; else
// the first j not examined.
func skipUnchanged(add, sub []int16, from int, addLevel, subLevel int16) int {
	n := len(add)
	if from+32 > n {
		return from
	}
	_ = sub[n-1]
	return nextChange(&add[0], &sub[0], from, n, int(addLevel), int(subLevel))
}
