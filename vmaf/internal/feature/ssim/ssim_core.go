package ssim

import "math"

// The SSIM core shared by float_ssim and float_ms_ssim, computing exactly
// what libvmaf's copy of the IQA library computes: local statistics under an
// 11x11 Gaussian window applied separably over the "valid" region only (the
// result is 10 samples narrower and shorter than the input), each tap's
// product rounded to float32 and summed in float64 in tap order, each pass
// rounded to float32; then the per-pixel luminance, contrast and structure
// terms with IQA's mix of float32 and float64 arithmetic, averaged in
// float64 in raster order.
//
// Go may fuse a multiply and an add into one instruction unless an explicit
// conversion separates them; libvmaf's portable C is built without fused
// multiply-add, so every product below that feeds an addition is wrapped in
// a conversion.

const ssimTaps = 11

// ssimWindow is the 1-D Gaussian (sigma 1.5) IQA uses for both passes.
var ssimWindow = [ssimTaps]float32{
	0.001028, 0.007599, 0.036001, 0.109361, 0.213006, 0.266012,
	0.213006, 0.109361, 0.036001, 0.007599, 0.001028,
}

// Statistics filtered by the window, in the order the core keeps them.
const (
	statMuA = iota
	statMuB
	statAA
	statBB
	statAB
	numStats
)

// ssimCore holds the scratch for one SSIM evaluation at any size up to the
// width it was made for. It streams: each input row is filtered
// horizontally into a ring of the last ssimTaps rows per statistic, and each
// output row is filtered vertically from the ring.
type ssimCore struct {
	ring       [numStats][ssimTaps][]float32
	prod       [3][]float32 // a*a, b*b and a*b of the current input row
	vert       [numStats][]float32
	c1, c2, c3 float32
}

// ssimMeans are the frame means of the SSIM map and of its luminance,
// contrast and structure terms, rounded to float32 as IQA returns them.
type ssimMeans struct {
	ssim, l, c, s float32
}

func newSSIMCore(maxW int) *ssimCore {
	k := &ssimCore{}
	n := max(maxW-ssimTaps+1, 0)
	for st := range k.ring {
		for i := range k.ring[st] {
			k.ring[st][i] = make([]float32, n)
		}
		k.vert[st] = make([]float32, n)
	}
	for i := range k.prod {
		k.prod[i] = make([]float32, maxW)
	}
	// IQA's stabilising constants for a dynamic range of 255, computed in
	// float32 as it does.
	k1, k2, dr := float32(0.01), float32(0.03), float32(255)
	k.c1 = float32(k1*dr) * float32(k1*dr)
	k.c2 = float32(k2*dr) * float32(k2*dr)
	k.c3 = k.c2 / 2
	return k
}

// run computes the SSIM means of the w x h images a and b (row stride w).
// w and h must be at least ssimTaps, and w at most the core's width.
func (k *ssimCore) run(a, b []float32, w, h int) ssimMeans {
	ow, oh := w-ssimTaps+1, h-ssimTaps+1
	var acc ssimSums
	for r := 0; r < h; r++ {
		k.filterInputRow(a[r*w:r*w+w], b[r*w:r*w+w], r%ssimTaps, ow)
		y := r - (ssimTaps - 1)
		if y < 0 {
			continue
		}
		for st := range k.vert {
			var rows [ssimTaps][]float32
			for v := range rows {
				rows[v] = k.ring[st][(y+v)%ssimTaps][:ow]
			}
			ssimFilterCol(k.vert[st][:ow], &rows)
		}
		k.mapRow(&acc, ow)
	}
	n := float64(ow * oh)
	return ssimMeans{
		ssim: float32(acc.ssim / n),
		l:    float32(acc.l / n),
		c:    float32(acc.c / n),
		s:    float32(acc.s / n),
	}
}

// ssimSums accumulate the SSIM map and its terms. IQA adds every pixel to
// one running float64 sum in raster order; partial sums per row would round
// differently.
type ssimSums struct {
	ssim, l, c, s float64
}

// filterInputRow filters one row of each statistic horizontally into ring
// slot slot.
func (k *ssimCore) filterInputRow(a, b []float32, slot, ow int) {
	aa, bb, ab := k.prod[0][:len(a)], k.prod[1][:len(a)], k.prod[2][:len(a)]
	b = b[:len(a)]
	for x := range a {
		aa[x] = a[x] * a[x]
		bb[x] = b[x] * b[x]
		ab[x] = a[x] * b[x]
	}
	ssimFilterRow(k.ring[statMuA][slot][:ow], a)
	ssimFilterRow(k.ring[statMuB][slot][:ow], b)
	ssimFilterRow(k.ring[statAA][slot][:ow], aa)
	ssimFilterRow(k.ring[statBB][slot][:ow], bb)
	ssimFilterRow(k.ring[statAB][slot][:ow], ab)
}

// mapRow evaluates the SSIM terms along one output row from the vertically
// filtered statistics and adds them to acc.
func (k *ssimCore) mapRow(acc *ssimSums, ow int) {
	muA, muB := k.vert[statMuA][:ow], k.vert[statMuB][:ow]
	sAA, sBB, sAB := k.vert[statAA][:ow], k.vert[statBB][:ow], k.vert[statAB][:ow]
	c1, c2, c3 := k.c1, k.c2, k.c3
	sum, lsum, csum, ssum := acc.ssim, acc.l, acc.c, acc.s
	for x := range muA {
		ma, mb := muA[x], muB[x]
		va := sAA[x] - float32(ma*ma)
		vb := sBB[x] - float32(mb*mb)
		va = max(va, 0)
		vb = max(vb, 0)
		cov := sAB[x] - float32(ma*mb)
		sd := float32(math.Sqrt(float64(va * vb)))

		ln := float64(2*float64(ma)*float64(mb)) + float64(c1)
		ld := float32(float32(ma*ma)+float32(mb*mb)) + c1
		l := ln / float64(ld)

		cn := 2*float64(sd) + float64(c2)
		cd := (va + vb) + c2
		c := cn / float64(cd)

		// In a flat, identical region the covariance can come out slightly
		// negative while the deviations are exactly zero; IQA clamps it so
		// such regions score 1.
		if cov < 0 && sd <= 0 {
			cov = 0
		}
		s := float64((cov + c3) / (sd + c3))

		sum += float64(float64(l*c) * s)
		lsum += l
		csum += c
		ssum += s
	}
	acc.ssim, acc.l, acc.c, acc.s = sum, lsum, csum, ssum
}

// ssimFilterRow applies the window along a row: dst[x] is the filtered
// value centred on src[x+5].
func ssimFilterRow(dst, src []float32) {
	w := &ssimWindow
	src = src[:len(dst)+ssimTaps-1]
	for x := range dst {
		t := src[x : x+ssimTaps : x+ssimTaps]
		var s float64
		s += float64(t[0] * w[0])
		s += float64(t[1] * w[1])
		s += float64(t[2] * w[2])
		s += float64(t[3] * w[3])
		s += float64(t[4] * w[4])
		s += float64(t[5] * w[5])
		s += float64(t[6] * w[6])
		s += float64(t[7] * w[7])
		s += float64(t[8] * w[8])
		s += float64(t[9] * w[9])
		s += float64(t[10] * w[10])
		dst[x] = float32(s)
	}
}

// ssimFilterCol applies the window down the columns of rows.
func ssimFilterCol(dst []float32, rows *[ssimTaps][]float32) {
	w := &ssimWindow
	n := len(dst)
	r0, r1, r2, r3, r4, r5 := rows[0][:n], rows[1][:n], rows[2][:n], rows[3][:n], rows[4][:n], rows[5][:n]
	r6, r7, r8, r9, r10 := rows[6][:n], rows[7][:n], rows[8][:n], rows[9][:n], rows[10][:n]
	for x := range dst {
		var s float64
		s += float64(r0[x] * w[0])
		s += float64(r1[x] * w[1])
		s += float64(r2[x] * w[2])
		s += float64(r3[x] * w[3])
		s += float64(r4[x] * w[4])
		s += float64(r5[x] * w[5])
		s += float64(r6[x] * w[6])
		s += float64(r7[x] * w[7])
		s += float64(r8[x] * w[8])
		s += float64(r9[x] * w[9])
		s += float64(r10[x] * w[10])
		dst[x] = float32(s)
	}
}
