package psnrhvs

import (
	"math"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

const (
	blockSize = 8
	// blockStep is the distance between blocks: they overlap by one
	// sample. Blocks that would pass the plane's edge are left out.
	blockStep = 7
)

// Variance normalisations (n/(n-1) for the 64 and 16 samples of a block
// and of its quadrants), as libvmaf computes them in float32.
var (
	one32       float32 = 1
	blockVarFix         = one32 / 63 * 64
	quadVarFix          = one32 / 15 * 16
)

// block is one 8x8 block of a reference or distorted plane.
type block struct {
	c [64]int32 // samples, then DCT coefficients
}

// load reads the block at (x, y) of p.
func (b *block) load(p feature.Plane, x, y int) {
	for i := range blockSize {
		row := b.c[8*i : 8*i+8]
		if p.BitDepth == 8 {
			for j, v := range p.Row8(y + i)[x : x+8] {
				row[j] = int32(v)
			}
		} else {
			for j, v := range p.Row16(y + i)[x : x+8] {
				row[j] = int32(v)
			}
		}
	}
}

// varianceRatios are, for each of two blocks, the sum of its four
// quadrant variances over its whole variance (0 for a flat block): flat
// quadrants in a busy block mean an edge, which masks less than texture.
// The squared deviations are summed in float32 in raster order, as in
// libvmaf; the two blocks go through the same loop so that their
// float32 chains overlap.
func varianceRatios(s, d *block) (float32, float32) {
	sm, sq := s.means()
	dm, dq := d.means()
	var sv, dv float32
	var svq, dvq [4]float32
	for i := range blockSize {
		sr, dr := s.c[8*i:8*i+8], d.c[8*i:8*i+8]
		for j := range blockSize {
			q := quadrant(i, j)
			a, b := float32(sr[j]), float32(dr[j])
			ea, eb := a-sm, b-dm
			sv += float32(ea * ea)
			dv += float32(eb * eb)
			qa, qb := a-sq[q], b-dq[q]
			svq[q] += float32(qa * qa)
			dvq[q] += float32(qb * qb)
		}
	}
	return ratio(sv, &svq), ratio(dv, &dvq)
}

// means are the block's mean and its quadrants' means. libvmaf sums the
// samples in float32, but the sums are integers below 2^24, which float32
// holds exactly, so integer sums give the same values.
func (b *block) means() (float32, [4]float32) {
	var q [4]int32
	for i := range blockSize {
		r := b.c[8*i : 8*i+8]
		left := r[0] + r[1] + r[2] + r[3]
		right := r[4] + r[5] + r[6] + r[7]
		q[quadrant(i, 0)] += left
		q[quadrant(i, 4)] += right
	}
	all := q[0] + q[1] + q[2] + q[3]
	return float32(all) / 64, [4]float32{float32(q[0]) / 16, float32(q[1]) / 16, float32(q[2]) / 16, float32(q[3]) / 16}
}

// ratio turns the sums of squared deviations into the variance ratio.
func ratio(v float32, vq *[4]float32) float32 {
	v *= blockVarFix
	for q := range vq {
		vq[q] *= quadVarFix
	}
	if v > 0 {
		v = (vq[0] + vq[1] + vq[2] + vq[3]) / v
	}
	return v
}

// quadrant is 0 to 3 for the top-left, bottom-left, top-right and
// bottom-right 4x4 of a block.
func quadrant(i, j int) int { return i>>2 + (j>>2)<<1 }

// masking is the block's contrast masking strength from its transformed
// coefficients: the masked AC energy scaled by the variance ratio.
func (b *block) masking(w *weights, ratio float32) float32 {
	var e float32
	for k := 1; k < 64; k++ {
		e += float32(float32(b.c[k]*b.c[k]) * w.mask[k])
	}
	return float32(math.Sqrt(float64(e*ratio)) / 32)
}

// terms sets t to the block pair's error terms, coefficient by
// coefficient in raster order: the squared CSF-weighted difference left
// after masking. s and d hold the blocks' samples and end with their
// coefficients.
func terms(s, d *block, wt *weights, t *[64]float32) {
	sr, dr := varianceRatios(s, d)
	fdct8x8(&s.c)
	fdct8x8(&d.c)
	m := max(s.masking(wt, sr), d.masking(wt, dr))
	for k := range 64 {
		diff := s.c[k] - d.c[k]
		if diff < 0 {
			diff = -diff
		}
		e := float32(diff)
		if k > 0 {
			// Differences below the masking threshold are not seen.
			t := m / wt.mask[k]
			if e < t {
				e = 0
			} else {
				e -= t
			}
		}
		we := e * wt.csf[k]
		t[k] = we * we
	}
}

// planeError is libvmaf's PSNR-HVS error of one plane (w×h samples as
// libvmaf sizes it): the mean over every coefficient of every block of
// the error terms, normalised by the squared peak. It accumulates in a
// single float32, block by block in raster order, as libvmaf does,
// which makes the order part of the result.
func planeError(ref, dist feature.Plane, w, h, depth int, wt *weights) float64 {
	var s, d block
	var t [64]float32
	var sum float32
	n := 0
	for y := 0; y < h-7; y += blockStep {
		for x := 0; x < w-7; x += blockStep {
			s.load(ref, x, y)
			d.load(dist, x, y)
			terms(&s, &d, wt, &t)
			for _, v := range t {
				sum += v
			}
			n += 64
		}
	}
	return normalise(sum, n, depth)
}

// normalise turns the sum of n error terms into the plane's error.
func normalise(sum float32, n, depth int) float64 {
	sum /= float32(n)
	peak := int32(1)<<depth - 1
	sum /= float32(peak * peak)
	return float64(sum)
}
