package floatadm

import "math"

// libvmaf's float constants for 1/30 and 1/15 are double literals, so
// the products they enter are computed in double.
const (
	oneBy30 = 0.0333333351
	oneBy15 = 0.0666666701
)

func abs32(v float32) float32 { return math.Float32frombits(math.Float32bits(v) &^ (1 << 31)) }

// csf weights the three detail bands of src by the scale's CSF into
// scaled, and writes mask, 1/30 of each weighted magnitude, which the
// contrast masking threshold sums over a 3×3 neighbourhood.
func csf(src, scaled, mask *[3][]float32, w, h int, weights [2]float32) {
	reg := filterRegion(w, h)
	for b := 0; b < 3; b++ {
		rf := weights[b/2]
		for i := reg.top; i < reg.bottom; i++ {
			lo, hi := i*w+reg.left, i*w+reg.right
			s, d, m := src[b][lo:hi], scaled[b][lo:hi], mask[b][lo:hi]
			for j, v := range s {
				v = rf * v
				d[j] = v
				m[j] = float32(oneBy30 * float64(abs32(v)))
			}
		}
	}
}

// mirror are a band's neighbour indices as libvmaf's masking filter takes
// them: before 0 it reflects to 1, past n-1 it repeats n-1.
func mirrorPrev(i int) int {
	if i == 0 {
		return 1
	}
	return i - 1
}

func mirrorNext(i, n int) int {
	if i == n-1 {
		return i
	}
	return i + 1
}

// maskSum is the masking threshold's part from one band: its 3×3
// neighbourhood of mask with the centre replaced by 1/15 of the
// weighted coefficient, summed row by row in float32 (the centre term in
// double, as in libvmaf).
func maskSum(mask, scaled []float32, r0, r1, r2, c0, c1, c2 int) float32 {
	var s float32
	s += mask[r0+c0]
	s += mask[r0+c1]
	s += mask[r0+c2]
	s += mask[r1+c0]
	s = float32(float64(s) + float64(oneBy15*float64(abs32(scaled[r1+c1]))))
	s += mask[r1+c2]
	s += mask[r2+c0]
	s += mask[r2+c1]
	s += mask[r2+c2]
	return s
}

// cm is the contrast-masked p-norm of the three bands of src weighted by
// the CSF: each weighted coefficient's magnitude less the masking
// threshold of scaled and mask (from csf) at that place, clipped at 0,
// raised to p and summed over the scored region; each band's norm is
// offset by the noise floor of weight noise, and the three added.
func (x *adm) cm(src, scaled, mask *[3][]float32, w, h int, weights [2]float32, noise float64) float32 {
	p := x.p
	reg := scoredRegion(w, h)
	rf := [3]float32{weights[0], weights[0], weights[1]}
	cube, pn := p.cube(), float32(p.pNorm)
	var accum [3]float32
	for i := reg.top; i < reg.bottom; i++ {
		r0, r1, r2 := mirrorPrev(i)*w, i*w, mirrorNext(i, h)*w
		var inner [3]float32
		// Columns 0 and w-1 mirror their neighbours; the others,
		// between jLo and jHi, take them directly.
		jLo, jHi := max(reg.left, 1), min(reg.right, w-1)
		if reg.left == 0 {
			x.cmPixel(&inner, src, scaled, mask, r0, r1, r2, 0, w, rf, cube, pn)
		}
		if p.bypassCM {
			for j := jLo; j < jHi; j++ {
				for b := 0; b < 3; b++ {
					inner[b] += excess(src[b][r1+j]*rf[b], 0, cube, pn)
				}
			}
		} else {
			x.cmRow(&inner, src, scaled, mask, r0, r1, r2, jLo, jHi, rf, cube, pn)
		}
		if reg.right == w {
			x.cmPixel(&inner, src, scaled, mask, r0, r1, r2, w-1, w, rf, cube, pn)
		}
		for b := range accum {
			accum[b] += inner[b]
		}
	}
	return x.norms(accum, reg, noise)
}

// norms adds up the three bands' p-norms, each offset by the noise floor
// of the region.
func (x *adm) norms(accum [3]float32, reg region, noise float64) float32 {
	floor := x.p.noiseFloor(reg.right-reg.left, reg.bottom-reg.top, noise)
	var sum float32
	for _, a := range accum {
		sum += powf(a, x.p.invP) + floor
	}
	return sum
}

// denominator is the p-norm of the reference's CSF-weighted detail bands
// over the scored region, with the noise floor: what cm of the restored
// detail is divided by.
func (x *adm) denominator(ref *bands, w, h int, weights [2]float32) float32 {
	p := x.p
	reg := scoredRegion(w, h)
	src := [3][]float32{ref.h, ref.v, ref.d}
	rf := [3]float32{weights[0], weights[0], weights[1]}
	cube, pn := p.cube(), float32(p.pNorm)
	var accum [3]float32
	for i := reg.top; i < reg.bottom; i++ {
		lo, hi := i*w+reg.left, i*w+reg.right
		h, v, d := src[0][lo:hi], src[1][lo:hi], src[2][lo:hi]
		v, d = v[:len(h)], d[:len(h)]
		// The three bands' sums are independent chains, each in
		// libvmaf's order.
		var ih, iv, id float32
		if cube {
			for j := range h {
				ih += cube32(abs32(rf[0] * h[j]))
				iv += cube32(abs32(rf[1] * v[j]))
				id += cube32(abs32(rf[2] * d[j]))
			}
		} else {
			for j := range h {
				ih += powf(abs32(rf[0]*h[j]), pn)
				iv += powf(abs32(rf[1]*v[j]), pn)
				id += powf(abs32(rf[2]*d[j]), pn)
			}
		}
		accum[0] += ih
		accum[1] += iv
		accum[2] += id
	}
	return x.norms(accum, reg, p.noiseWeight)
}

// excess is a weighted coefficient's magnitude above the threshold,
// raised to p.
func excess(v, thr float32, cube bool, pn float32) float32 {
	v = abs32(v) - thr
	if v < 0 {
		v = 0
	}
	if cube {
		return float32(float32(v*v) * v)
	}
	return powf(v, pn)
}

// cube32 is v·v·v in float32, left to right.
func cube32(v float32) float32 { return float32(float32(v*v) * v) }

// excessCube is excess for p = 3, small enough to inline.
func excessCube(v, thr float32) float32 {
	v = abs32(v) - thr
	if v < 0 {
		v = 0
	}
	return float32(float32(v*v) * v)
}

// cmPixel adds the excesses at column j of a row, with mirrored
// neighbours.
func (x *adm) cmPixel(inner *[3]float32, src, scaled, mask *[3][]float32, r0, r1, r2, j, w int, rf [3]float32, cube bool, pn float32) {
	var thr float32
	if !x.p.bypassCM {
		c0, c2 := mirrorPrev(j), mirrorNext(j, w)
		thr += maskSum(mask[0], scaled[0], r0, r1, r2, c0, j, c2)
		thr += maskSum(mask[1], scaled[1], r0, r1, r2, c0, j, c2)
		thr += maskSum(mask[2], scaled[2], r0, r1, r2, c0, j, c2)
	}
	for b := 0; b < 3; b++ {
		inner[b] += excess(src[b][r1+j]*rf[b], thr, cube, pn)
	}
}

// cmRow adds the excesses of columns [jLo, jHi) of a row, none of which
// is at the band's edge.
func (x *adm) cmRow(inner *[3]float32, src, scaled, mask *[3][]float32, r0, r1, r2, jLo, jHi int, rf [3]float32, cube bool, pn float32) {
	if jLo >= jHi {
		return
	}
	cnt := jHi - jLo
	thr := x.thr[:cnt]
	// Each row starts one column left of jLo: column jLo+k has its
	// neighbours at k, k+1 and k+2 of it, and its centre at k of the
	// centre rows, which start at jLo.
	var rows thresholdRows
	for b := 0; b < 3; b++ {
		rows[b] = [4][]float32{
			mask[b][r0+jLo-1 : r0+jHi+1],
			mask[b][r1+jLo-1 : r1+jHi+1],
			mask[b][r2+jLo-1 : r2+jHi+1],
			scaled[b][r1+jLo : r1+jHi],
		}
	}
	if x.sse2 {
		thresholds(thr, &rows)
	} else {
		thresholdsGo(thr, &rows, 0)
	}
	sh, sv, sd := src[0][r1+jLo:r1+jHi], src[1][r1+jLo:r1+jHi], src[2][r1+jLo:r1+jHi]
	sh, sv, sd = sh[:len(thr)], sv[:len(thr)], sd[:len(thr)]
	ih, iv, id := inner[0], inner[1], inner[2]
	if cube {
		for k, t := range thr {
			ih += excessCube(sh[k]*rf[0], t)
			iv += excessCube(sv[k]*rf[1], t)
			id += excessCube(sd[k]*rf[2], t)
		}
	} else {
		for k, t := range thr {
			ih += powf(max(abs32(sh[k]*rf[0])-t, 0), pn)
			iv += powf(max(abs32(sv[k]*rf[1])-t, 0), pn)
			id += powf(max(abs32(sd[k]*rf[2])-t, 0), pn)
		}
	}
	inner[0], inner[1], inner[2] = ih, iv, id
}

// thresholdRows are, per band, the mask rows above, at and below a run of
// columns (each with one column more on either side) and the weighted
// coefficients of the run.
type thresholdRows [3][4][]float32

// thresholdsGo sets thr[k] to the masking threshold of column k of the
// run: the three bands' maskSums, added in band order.
func thresholdsGo(thr []float32, rows *thresholdRows, from int) {
	for k := from; k < len(thr); k++ {
		var t float32
		for b := 0; b < 3; b++ {
			a, m, z, c := rows[b][0][k:k+3], rows[b][1][k:k+3], rows[b][2][k:k+3], rows[b][3][k]
			var s float32
			s += a[0]
			s += a[1]
			s += a[2]
			s += m[0]
			s = float32(float64(s) + float64(oneBy15*float64(abs32(c))))
			s += m[2]
			s += z[0]
			s += z[1]
			s += z[2]
			t += s
		}
		thr[k] = t
	}
}
