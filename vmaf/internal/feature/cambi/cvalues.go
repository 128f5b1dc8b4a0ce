package cambi

import "unsafe"

// cValues computes each flat pixel's contrast response c (0 elsewhere)
// from the counts of levels in the window of 2·pad+1 pixels around it,
// cut off at the picture's edges. The counts live in one histogram per
// column, over the levels of the band only: hist[(v-bandBase)·w + x]
// counts the flat pixels of level v in the window around column x of
// the current row. Sliding down a row removes the row leaving the
// window and adds the one entering it, each pixel touching the 2·pad+1
// columns whose windows hold it.
func (x *extractor) cValues(img []uint16, mask []uint8, c []float32, w, h, pad int) {
	cfg := &x.cfg
	hist := x.buf.hist[:cfg.bandSize*w]
	clear(hist)
	if cfg.bandSize == 0 {
		clear(c)
		return
	}
	for y := 0; y < min(pad, h); y++ {
		x.updateRow(hist, img[y*w:(y+1)*w], mask[y*w:(y+1)*w], nil, nil, w, pad)
	}
	for y := 0; y < h; y++ {
		var addImg, subImg []uint16
		var addMask, subMask []uint8
		if y+pad < h {
			r := y + pad
			addImg, addMask = img[r*w:(r+1)*w], mask[r*w:(r+1)*w]
		}
		if y-pad-1 >= 0 {
			r := y - pad - 1
			subImg, subMask = img[r*w:(r+1)*w], mask[r*w:(r+1)*w]
		}
		if addImg != nil || subImg != nil {
			x.updateRow(hist, addImg, addMask, subImg, subMask, w, pad)
		}
		x.cRow(hist, img[y*w:(y+1)*w], mask[y*w:(y+1)*w], c[y*w:(y+1)*w], w)
	}
}

// updateRow adds one row's flat in-band pixels to the histograms and
// removes another's (either may be nil). A pixel leaving and one
// entering the same column at the same level cancel out.
func (x *extractor) updateRow(hist []uint16, addImg []uint16, addMask []uint8, subImg []uint16, subMask []uint8, w, pad int) {
	base, size := x.cfg.bandBase, uint(x.cfg.bandSize)
	for j := 0; j < w; j++ {
		add, sub := -1, -1
		if addImg != nil && addMask[j] != 0 {
			if r := int(addImg[j]) - base; uint(r) < size {
				add = r
			}
		}
		if subImg != nil && subMask[j] != 0 {
			if r := int(subImg[j]) - base; uint(r) < size {
				sub = r
			}
		}
		if add == sub {
			continue
		}
		lo, hi := max(j-pad, 0), min(j+pad+1, w)
		if sub >= 0 {
			decRange(hist[sub*w+lo : sub*w+hi])
		}
		if add >= 0 {
			incRange(hist[add*w+lo : add*w+hi])
		}
	}
}

// incRange and decRange add or take 1 from every count in s, four
// 16-bit counts to a 64-bit word. No lane carries or borrows into the
// next: a count never exceeds the window's pixels (below 2^16), and one
// is decremented only where the same pixel incremented it.
func incRange(s []uint16) {
	const ones = 0x0001_0001_0001_0001
	n, i := len(s), 0
	p := unsafe.Pointer(unsafe.SliceData(s))
	for ; i+8 <= n; i += 8 {
		*(*uint64)(unsafe.Add(p, 2*i)) += ones
		*(*uint64)(unsafe.Add(p, 2*i+8)) += ones
	}
	if i+4 <= n {
		*(*uint64)(unsafe.Add(p, 2*i)) += ones
		i += 4
	}
	for ; i < n; i++ {
		s[i]++
	}
}

func decRange(s []uint16) {
	const ones = 0x0001_0001_0001_0001
	n, i := len(s), 0
	p := unsafe.Pointer(unsafe.SliceData(s))
	for ; i+8 <= n; i += 8 {
		*(*uint64)(unsafe.Add(p, 2*i)) -= ones
		*(*uint64)(unsafe.Add(p, 2*i+8)) -= ones
	}
	if i+4 <= n {
		*(*uint64)(unsafe.Add(p, 2*i)) -= ones
		i += 4
	}
	for ; i < n; i++ {
		s[i]--
	}
}

// cRow is one row's responses. For each step d the pixel can respond
// to, the response is weight·p0·p/(p0+p), with p0 the count of its own
// level and p the larger count of the levels d+1 above and below; c is
// the largest. It is computed as libvmaf does, in float32 from the
// integer product times the float32 reciprocal, so the bits match.
func (x *extractor) cRow(hist []uint16, img []uint16, mask []uint8, c []float32, w int) {
	cfg := &x.cfg
	base, size := cfg.bandBase, uint(cfg.bandSize)
	active, recip := cfg.active, cfg.reciprocal
	for j := 0; j < w; j++ {
		c[j] = 0
		if mask[j] == 0 {
			continue
		}
		v := int(img[j])
		r := v - base
		if uint(r) >= size {
			continue
		}
		steps := active[v]
		if steps == 0 {
			continue
		}
		p0 := int(hist[r*w+j])
		var best float32
		for d := 0; steps != 0; d, steps = d+1, steps>>1 {
			if steps&1 == 0 {
				continue
			}
			p := int(hist[(r+d+1)*w+j])
			if below := r - d - 1; below >= 0 {
				p = max(p, int(hist[below*w+j]))
			}
			val := float32(int32(cfg.weights[d]*p0*p)) * recip[p+p0]
			if val > best {
				best = val
			}
		}
		c[j] = best
	}
}
