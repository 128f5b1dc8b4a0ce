package main

import (
	"encoding/binary"

	"github.com/vmafsink/vmafsink/vmaf"
)

// signatureOf averages every other luma sample of every other row into
// the grid: sample (x, y), both even, falls in grid cell
// (x·sigCols/Width, y·sigRows/Height). The run takes the signatures of its
// first frames while it scores them, so this pass is kept cheap: each row
// is summed a grid column at a time, in integers (exact, as the float64
// sums of a plain loop would be).
func signatureOf(p *vmaf.Picture) signature {
	var sum [sigCols * sigRows]uint64
	var cnt [sigCols * sigRows]int
	edges := sigColumnEdges(p.Width)
	row := p.Planes[0]
	for y := 0; y < p.Height; y += 2 {
		line := row[y*p.Strides[0]:]
		base := (y * sigRows / p.Height) * sigCols
		for c := range sigCols {
			lo, hi := edges[c], edges[c+1]
			if hi <= lo {
				continue
			}
			if p.BitDepth > 8 {
				sum[base+c] += sumEvenWords(line[2*lo : 2*hi])
			} else {
				sum[base+c] += sumEvenBytes(line[lo:hi])
			}
			cnt[base+c] += (hi - lo + 1) / 2
		}
	}
	scale := 1.0
	if p.BitDepth > 8 {
		scale = 1 / float64(int(1)<<(p.BitDepth-8))
	}
	var s signature
	for i := range s {
		if cnt[i] > 0 {
			s[i] = float32(float64(sum[i]) / float64(cnt[i]) * scale)
		}
	}
	return s
}

// sigColumnEdges gives, for each grid column c, the first even x with
// x·sigCols/width ≥ c (the column's samples are edges[c] ≤ x < edges[c+1],
// x even), the last edge clipped to width.
func sigColumnEdges(width int) [sigCols + 1]int {
	var e [sigCols + 1]int
	for c := range e {
		x := (c*width + sigCols - 1) / sigCols // ceil(c·width/sigCols)
		x += x & 1
		e[c] = min(x, width)
	}
	return e
}

// sumEvenBytes sums the bytes at even offsets of b, eight bytes a step:
// the four even bytes of a little-endian word are its low bytes of four
// 16-bit lanes, which hold up to 257 such bytes before they carry.
func sumEvenBytes(b []byte) uint64 {
	const lanes = 0x00ff00ff00ff00ff
	var total uint64
	for len(b) >= 8 {
		n := min(len(b)/8, 256)
		var acc uint64
		for i := range n {
			acc += binary.LittleEndian.Uint64(b[8*i:]) & lanes
		}
		total += acc&0xffff + acc>>16&0xffff + acc>>32&0xffff + acc>>48
		b = b[8*n:]
	}
	for i := 0; i < len(b); i += 2 {
		total += uint64(b[i])
	}
	return total
}

// sumEvenWords sums the little-endian 16-bit samples at even sample
// offsets of b.
func sumEvenWords(b []byte) uint64 {
	var total uint64
	for i := 0; i+1 < len(b); i += 4 {
		total += uint64(binary.LittleEndian.Uint16(b[i:]))
	}
	return total
}
