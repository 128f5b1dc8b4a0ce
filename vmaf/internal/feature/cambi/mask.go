package cambi

import "math/bits"

// spatialMask marks the flat pixels: those whose 7x7 neighbourhood
// (cut off at the picture's edges) holds more than maskIndex pixels
// equal to both their right and lower neighbours (a missing neighbour
// counts as equal). The count is exact integer arithmetic, so any
// summation order gives libvmaf's mask. With vec, the vector kernels
// take most of each row.
func spatialMask(img []uint16, mask []uint8, w, h int, b *buffers, vec bool) {
	const pad = maskFilterSize >> 1
	limit := int32(maskIndex(w, h))
	// Rows y-pad-1..y+pad of flat pixels are kept, row r at slot r mod 8.
	flatRow := func(r int) []uint8 { return b.flat[(r&7)*w : (r&7+1)*w] }
	fill := func(r int) []uint8 {
		row, out := img[r*w:(r+1)*w], flatRow(r)
		if r == h-1 {
			for x := 0; x < w-1; x++ {
				out[x] = b2u(row[x] == row[x+1])
			}
			out[w-1] = 1
			return out
		}
		below := img[(r+1)*w : (r+2)*w]
		x0 := 0
		if vec {
			x0 = flatPrefix(row, below, out)
		}
		left, right := row[x0:], row[x0+1:]
		down, o := below[x0:len(row)], out[x0:w-1]
		left, down = left[:len(right)], down[:len(right)]
		for x, v := range right {
			o[x] = b2u(left[x] == v) & b2u(left[x] == down[x])
		}
		out[w-1] = b2u(row[w-1] == below[w-1])
		return out
	}

	cols := b.colSums[:w]
	clear(cols)
	for y := 0; y < min(pad, h); y++ {
		addRow(cols, fill(y), 1)
	}
	for y := 0; y < h; y++ {
		add, sub := y+pad, y-pad-1
		switch {
		case add < h && sub >= 0:
			slideCols(cols, fill(add), flatRow(sub), vec)
		case add < h:
			addRow(cols, fill(add), 1)
		case sub >= 0:
			addRow(cols, flatRow(sub), -1)
		}
		if vec {
			boxRowVec(cols, mask[y*w:(y+1)*w], limit)
		} else {
			boxRow(cols, mask[y*w:(y+1)*w], pad, limit)
		}
	}
}

// boxRow marks the columns whose sum over 2·pad+1 neighbouring column
// counts (cut off at the edges) is above limit.
func boxRow(cols []int32, out []uint8, pad int, limit int32) {
	w := len(cols)
	out = out[:w]
	var sum int32
	for x := 0; x < min(pad, w); x++ {
		sum += cols[x]
	}
	x := 0
	// Left edge: the window grows.
	for ; x < w && x-pad-1 < 0; x++ {
		if x+pad < w {
			sum += cols[x+pad]
		}
		out[x] = b2u(sum > limit)
	}
	// Interior: one column enters, one leaves.
	if x < w-pad {
		enter, leave := cols[x+pad:w], cols[x-pad-1:w-2*pad-1]
		o := out[x : w-pad]
		leave = leave[:len(enter)]
		o = o[:len(enter)]
		for i, e := range enter {
			sum += e - leave[i]
			o[i] = b2u(sum > limit)
		}
		x = w - pad
	}
	// Right edge: the window shrinks.
	for ; x < w; x++ {
		if x-pad-1 >= 0 {
			sum -= cols[x-pad-1]
		}
		out[x] = b2u(sum > limit)
	}
}

func slideCols(cols []int32, add, sub []uint8, vec bool) {
	if vec {
		n := slideColsPrefix(cols, add, sub)
		cols, add, sub = cols[n:], add[n:], sub[n:]
	}
	add, sub = add[:len(cols)], sub[:len(cols)]
	for x := range cols {
		cols[x] += int32(add[x]) - int32(sub[x])
	}
}

// boxRowVec is boxRow for the 7x7 window: the interior columns with
// the vector kernel, the few others summed directly.
func boxRowVec(cols []int32, out []uint8, limit int32) {
	const pad = maskFilterSize >> 1
	w := len(cols)
	out = out[:w]
	n := boxInterior(cols, out, limit)
	for x := 0; x < w; x++ {
		if x == pad && n > 0 {
			x += n - 1
			continue
		}
		var sum int32
		for _, c := range cols[max(x-pad, 0):min(x+pad+1, w)] {
			sum += c
		}
		out[x] = b2u(sum > limit)
	}
}

// maskIndex is libvmaf's flatness threshold for a 7x7 window, which
// grows slowly with the picture's area.
func maskIndex(w, h int) int {
	area := uint32(w>>6) * uint32(h>>6)
	logArea := 0
	if area > 0 {
		logArea = bits.Len32(area - 1) // ceil(log2(area))
	}
	return (maskFilterSize*maskFilterSize + 3*(logArea-11) - 1) >> 1
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

func addRow(cols []int32, row []uint8, sign int32) {
	row = row[:len(cols)]
	for x, v := range row {
		cols[x] += sign * int32(v)
	}
}
