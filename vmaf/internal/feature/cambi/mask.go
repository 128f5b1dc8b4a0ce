package cambi

import "math/bits"

// spatialMask marks the flat pixels: those whose 7x7 neighbourhood
// (cut off at the picture's edges) holds more than maskIndex pixels
// equal to both their right and lower neighbours (a missing neighbour
// counts as equal). The count is exact integer arithmetic, so any
// summation order gives libvmaf's mask.
func spatialMask(img []uint16, mask []uint8, w, h int, b *buffers) {
	const pad = maskFilterSize >> 1
	limit := int32(maskIndex(w, h))
	flat := b.flat[:w*h]
	for y := 0; y < h; y++ {
		row, out := img[y*w:(y+1)*w], flat[y*w:(y+1)*w]
		if y == h-1 {
			for x := 0; x < w-1; x++ {
				out[x] = b2u(row[x] == row[x+1])
			}
		} else {
			below := img[(y+1)*w : (y+2)*w]
			for x := 0; x < w-1; x++ {
				out[x] = b2u(row[x] == row[x+1] && row[x] == below[x])
			}
			out[w-1] = b2u(row[w-1] == below[w-1])
			continue
		}
		out[w-1] = 1
	}

	cols := b.colSums[:w]
	clear(cols)
	for y := 0; y < min(pad, h); y++ {
		addRow(cols, flat[y*w:(y+1)*w], 1)
	}
	for y := 0; y < h; y++ {
		if y+pad < h {
			addRow(cols, flat[(y+pad)*w:(y+pad+1)*w], 1)
		}
		if y-pad-1 >= 0 {
			addRow(cols, flat[(y-pad-1)*w:(y-pad)*w], -1)
		}
		out := mask[y*w : (y+1)*w]
		var sum int32
		for x := 0; x < min(pad, w); x++ {
			sum += cols[x]
		}
		for x := 0; x < w; x++ {
			if x+pad < w {
				sum += cols[x+pad]
			}
			if x-pad-1 >= 0 {
				sum -= cols[x-pad-1]
			}
			out[x] = b2u(sum > limit)
		}
	}
}

func addRow(cols []int32, row []uint8, sign int32) {
	row = row[:len(cols)]
	for x, v := range row {
		cols[x] += sign * int32(v)
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
