package cambi

import "unsafe"

// cValues computes each flat pixel's contrast response (0 elsewhere)
// from the counts of levels in the window of 2·pad+1 pixels around it,
// cut off at the picture's edges. The counts live in one histogram per
// column, over the levels of the band only: hist[(v-bandBase)·w + x]
// counts the flat pixels of level v in the window around column x of
// the current row. Sliding down a row removes the row leaving the
// window and adds the one entering it, each pixel touching the 2·pad+1
// columns whose windows hold it.
//
// Pooling needs only the positive responses, which are returned in
// raster order with their float64 sum; every response is also written
// to all (w x h) when it is not nil, for the heatmaps.
func (x *extractor) cValues(img []uint16, mask []uint8, w, h, pad int, all []float32) (pos []float32, sum float64) {
	cfg := &x.cfg
	pos = x.buf.sel[:0]
	if cfg.bandSize == 0 {
		if all != nil {
			clear(all[:w*h])
		}
		return pos, 0
	}
	hist := x.buf.hist[:cfg.bandSize*w]
	clear(hist)
	// Each pixel's histogram row, or -1 when it is not counted (not
	// flat, or outside the band), for the rows in and next to the
	// window: a ring of 2·pad+2 rows, row r at slot r mod 2·pad+2.
	ring := 2*pad + 2
	rowsOf := func(r int) []int16 {
		o := (r % ring) * w
		return x.buf.rows[o : o+w]
	}
	levelRow := cfg.levelRow
	fill := func(r int) []int16 {
		row := rowsOf(r)
		out, lv, m := row, img[r*w:(r+1)*w], mask[r*w:(r+1)*w]
		if x.vec {
			n := levelRowsPrefix(lv, m, out, cfg)
			out, lv, m = out[n:], lv[n:], m[n:]
		}
		lv, m = lv[:len(out)], m[:len(out)]
		for i, v := range lv {
			// m is 0 or 1: m-1 is all ones (-1) for pixels not flat.
			out[i] = levelRow[v&maxLevelMask] | int16(int8(m[i])-1)
		}
		return row
	}
	for y := 0; y < min(pad, h); y++ {
		addRows(hist, fill(y), w, pad, 1)
	}
	for y := 0; y < h; y++ {
		add, sub := y+pad, y-pad-1
		switch {
		case add < h && sub >= 0:
			slideRows(hist, fill(add), rowsOf(sub), w, pad, x.vec)
		case add < h:
			addRows(hist, fill(add), w, pad, 1)
		case sub >= 0:
			addRows(hist, rowsOf(sub), w, pad, -1)
		}
		var out []float32
		if all != nil {
			out = all[y*w : (y+1)*w]
		}
		pos, sum = x.cRow(hist, rowsOf(y), img[y*w:(y+1)*w], out, pos, sum)
	}
	return pos, sum
}

// slideRows removes one row's counted pixels from the histograms and
// adds another's. A pixel leaving and one entering the same column at
// the same level cancel out. Neighbouring pixels of one level (the
// flat runs banding is made of) are applied together, as one
// trapezoid of counts. With vec, the stretches where nothing changes
// are skipped 32 pixels at a time.
func slideRows(hist []uint16, add, sub []int16, w, pad int, vec bool) {
	sub = sub[:len(add)]
	addLevel, addFrom := int16(-1), 0
	subLevel, subFrom := int16(-1), 0
	// Four columns at a time where nothing changes: the rows agree there
	// and no run is open (flat areas, and textured ones, counted by
	// neither row).
	ap := unsafe.Pointer(unsafe.SliceData(add))
	sp := unsafe.Pointer(unsafe.SliceData(sub))
	for j := 0; j < len(add); j++ {
		if vec {
			if j = skipUnchanged(add, sub, j, addLevel, subLevel); j == len(add) {
				break
			}
		}
		if addLevel < 0 && subLevel < 0 && j&3 == 0 && j+4 <= len(add) &&
			*(*uint64)(unsafe.Add(ap, 2*j)) == *(*uint64)(unsafe.Add(sp, 2*j)) {
			j += 3
			continue
		}
		a, s := add[j], sub[j]
		if a == s {
			a, s = -1, -1
		}
		if a != addLevel {
			if addLevel >= 0 {
				run(hist[int(addLevel)*w:int(addLevel+1)*w], addFrom, j-1, pad, 1)
			}
			addLevel, addFrom = a, j
		}
		if s != subLevel {
			if subLevel >= 0 {
				run(hist[int(subLevel)*w:int(subLevel+1)*w], subFrom, j-1, pad, -1)
			}
			subLevel, subFrom = s, j
		}
	}
	if addLevel >= 0 {
		run(hist[int(addLevel)*w:int(addLevel+1)*w], addFrom, w-1, pad, 1)
	}
	if subLevel >= 0 {
		run(hist[int(subLevel)*w:int(subLevel+1)*w], subFrom, w-1, pad, -1)
	}
}

// addRows adds (sign 1) or removes (-1) one row's counted pixels.
func addRows(hist []uint16, row []int16, w, pad int, sign int) {
	level, from := int16(-1), 0
	for j, r := range row {
		if r != level {
			if level >= 0 {
				run(hist[int(level)*w:int(level+1)*w], from, j-1, pad, sign)
			}
			level, from = r, j
		}
	}
	if level >= 0 {
		run(hist[int(level)*w:int(level+1)*w], from, w-1, pad, sign)
	}
}

// run adds sign to the count of every column within pad of each pixel
// j0..j1 of one level, in hist (that level's counts). Column x gains
// the number of run pixels within pad of it: a ramp up to m = min(run
// length, 2·pad+1), a plateau at m and a ramp down, cut off at the
// picture's edges.
func run(hist []uint16, j0, j1, pad, sign int) {
	w := len(hist)
	m := min(j1-j0+1, 2*pad+1)
	upFrom, plateauFrom := j0-pad, j0-pad+m-1
	downFrom, end := j1+pad-m+2, j1+pad+1 // ramp down is [downFrom, end)
	for x := max(upFrom, 0); x < min(plateauFrom, w); x++ {
		hist[x] += uint16(sign * (x - upFrom + 1))
	}
	if lo, hi := max(plateauFrom, 0), min(downFrom, w); lo < hi {
		if sign > 0 {
			incRange(hist[lo:hi], m)
		} else {
			decRange(hist[lo:hi], m)
		}
	}
	for x := max(downFrom, 0); x < min(end, w); x++ {
		hist[x] += uint16(sign * (end - x))
	}
}

// incRange and decRange add k to or take k from every count in s, four
// 16-bit counts to a 64-bit word. No lane carries or borrows into the
// next: a count never exceeds the window's pixels (below 2^16), and k
// is taken only where the same k pixels added it.
func incRange(s []uint16, k int) {
	step := uint64(k) * 0x0001_0001_0001_0001
	n, i := len(s), 0
	p := unsafe.Pointer(unsafe.SliceData(s))
	for ; i+8 <= n; i += 8 {
		*(*uint64)(unsafe.Add(p, 2*i)) += step
		*(*uint64)(unsafe.Add(p, 2*i+8)) += step
	}
	if i+4 <= n {
		*(*uint64)(unsafe.Add(p, 2*i)) += step
		i += 4
	}
	for ; i < n; i++ {
		s[i] += uint16(k)
	}
}

func decRange(s []uint16, k int) {
	step := uint64(k) * 0x0001_0001_0001_0001
	n, i := len(s), 0
	p := unsafe.Pointer(unsafe.SliceData(s))
	for ; i+8 <= n; i += 8 {
		*(*uint64)(unsafe.Add(p, 2*i)) -= step
		*(*uint64)(unsafe.Add(p, 2*i+8)) -= step
	}
	if i+4 <= n {
		*(*uint64)(unsafe.Add(p, 2*i)) -= step
		i += 4
	}
	for ; i < n; i++ {
		s[i] -= uint16(k)
	}
}

// cRow is one row's responses, appended to pos when positive and
// added to sum (and written to out when it is not nil). For each step d
// the pixel can respond to, the response is weight·p0·p/(p0+p), with p0
// the count of its own level and p the larger count of the levels d+1
// above and below; a pixel's response is the largest. It is computed as
// libvmaf does, in float32 from the integer product times the float32
// reciprocal, so the bits match.
func (x *extractor) cRow(hist []uint16, rows []int16, img []uint16, out, pos []float32, sum float64) ([]float32, float64) {
	cfg := &x.cfg
	active, recip, weights := cfg.active, cfg.reciprocal, &cfg.weights
	if out != nil {
		clear(out)
	}
	// The counts are read through a pointer: the levels read are in the
	// band by construction (setBand keeps a step only when its upper
	// level is; the lower one is checked), so indexing hist is safe.
	// So is the reciprocal's index: two levels' counts in one window
	// add up to at most window² < reciprocalLimit.
	nd := cfg.numDiffs
	all := uint32(1)<<nd - 1
	rcp := unsafe.Pointer(unsafe.SliceData(recip))
	stride := 2 * len(rows)
	col := unsafe.Pointer(unsafe.SliceData(hist))
	img = img[:len(rows)]
	j0 := 0
	if x.vec {
		// The vector kernel's responses, in the same order.
		best := x.buf.best[:len(rows)]
		var k int
		j0, k = cRowPrefix(hist, rows, img, best, pos[len(pos):cap(pos)], cfg)
		for _, b := range pos[len(pos) : len(pos)+k] {
			sum += float64(b)
		}
		pos = pos[:len(pos)+k]
		if out != nil {
			// The responses are positive or 0, as out was cleared to.
			copy(out, best[:j0])
		}
	}
	rp := unsafe.Pointer(unsafe.SliceData(rows))
	for j := j0; j < len(rows); j++ {
		// Four pixels at a time where none is counted (textured areas).
		if j&3 == 0 && j+4 <= len(rows) && *(*uint64)(unsafe.Add(rp, 2*j)) == ^uint64(0) {
			j += 3
			continue
		}
		r := rows[j]
		if r < 0 {
			continue
		}
		steps := active[img[j]&maxLevelMask]
		if steps == 0 {
			continue
		}
		at := unsafe.Add(col, 2*j+int(r)*stride)
		p0 := int(*(*uint16)(at))
		var best float32
		if steps == all && int(r) >= nd {
			// Every step counts and every lower level is in the band:
			// the common case, without the per-step tests.
			for d := 1; d <= nd; d++ {
				p := max(int(*(*uint16)(unsafe.Add(at, d*stride))), int(*(*uint16)(unsafe.Add(at, -d*stride))))
				val := float32(int32(weights[(d-1)&31]*p0*p)) * *(*float32)(unsafe.Add(rcp, 4*(p+p0)))
				best = max(best, val)
			}
		} else {
			for d := 0; steps != 0; d, steps = d+1, steps>>1 {
				if steps&1 == 0 {
					continue
				}
				p := int(*(*uint16)(unsafe.Add(at, (d+1)*stride)))
				if int(r)-d-1 >= 0 {
					p = max(p, int(*(*uint16)(unsafe.Add(at, -(d+1)*stride))))
				}
				val := float32(int32(weights[d&31]*p0*p)) * *(*float32)(unsafe.Add(rcp, 4*(p+p0)))
				best = max(best, val)
			}
		}
		if best > 0 {
			pos = append(pos, best)
			sum += float64(best)
			if out != nil {
				out[j] = best
			}
		}
	}
	return pos, sum
}
