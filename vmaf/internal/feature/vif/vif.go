// Package vif is integer VIF (Sheikh & Bovik's visual information fidelity) as libvmaf
// 3.2.0's integer_vif computes it: four scales, each a separable Gaussian
// window over fixed-point samples, with sums kept in integers so that the
// result is reproducible to the last bit. Scale s+1 is scale s low-passed
// with scale s+1's window and decimated by two in both directions.
//
// Every output row goes through the same three steps, each a row kernel
// (kernels.go, and vector versions where the CPU has them): a vertical
// pass over the window's input rows, rounded to libvmaf's fixed-point
// scale and mirrored at both ends; a horizontal pass that turns those sums
// into local variances and covariance; and the per-pixel statistics
// (log.go), which stay scalar because they branch and use a table.
package vif

import (
	"math"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// vifDefaultEnhnGainLimit is libvmaf's vif_enhn_gain_limit when a model sets
// none; 1.0 disables enhancement gain entirely (the NEG models).
const vifDefaultEnhnGainLimit = 100.0

// vifFilters are the 16-bit fixed-point Gaussian windows of scales 0..3.
// Each sums to 1<<16.
var vifFilters = [4][]uint16{
	{489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, 7455, 6547, 5274, 3896, 2640, 1640, 935, 489},
	{1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244},
	{3571, 16004, 26386, 16004, 3571},
	{10904, 43728, 10904},
}

const (
	vifMaxTaps = 17
	// vifPad is the room kept on each side of the padded rows for the
	// mirrored samples the widest window reaches.
	vifPad = vifMaxTaps / 2
)

type vifOptions struct {
	enhnGainLimit float64 // libvmaf option vif_enhn_gain_limit (>= 1)
}

// vifLevel is the luma of one decimated scale (1..3), tightly packed.
type vifLevel struct {
	w, h     int
	ref, dis []uint16
}

func (l *vifLevel) rows(y int) (ref, dis []uint16) {
	o := y * l.w
	return l.ref[o : o+l.w], l.dis[o : o+l.w]
}

// vif extracts integer_vif_scale0..3 for one worker. It owns all scratch
// memory, so one instance must not be used by two goroutines at once.
type vif struct {
	w, h, bpc int
	gainLimit float64
	log2      *vifLog2Table
	kern      *vifKernels
	levels    [4]vifLevel // index 0 unused: scale 0 is read from the input planes
	buf       vifRowBuf
	sums      [4]vifSums
	rows8     [2][vifMaxTaps][]byte
	rows16    [2][vifMaxTaps][]uint16
}

// newVIF prepares an extractor for w x h luma planes of bpc bits. A zero
// enhnGainLimit means libvmaf's default. Pictures smaller than 16x16 or
// depths outside 8..16 bits get an extractor that scores NaN.
func newVIF(w, h, bpc int, opt vifOptions) *vif {
	return newVIFWith(w, h, bpc, opt, vifBestKernels())
}

// newVIFWith is newVIF with a chosen kernel set, so that tests can hold
// the implementations against each other.
func newVIFWith(w, h, bpc int, opt vifOptions, k *vifKernels) *vif {
	limit := opt.enhnGainLimit
	if limit == 0 {
		limit = vifDefaultEnhnGainLimit
	}
	v := &vif{w: w, h: h, bpc: bpc, gainLimit: limit, kern: k}
	if w < 16 || h < 16 || bpc < 8 || bpc > 16 {
		return v
	}
	v.log2 = vifLog2()
	lw, lh := w, h
	for s := 1; s < 4; s++ {
		lw, lh = lw/2, lh/2
		v.levels[s] = vifLevel{w: lw, h: lh, ref: make([]uint16, lw*lh), dis: make([]uint16, lw*lh)}
	}
	v.buf = newVIFRowBuf(w, k.wordRows)
	return v
}

// compute returns integer_vif_scale0..3 for one frame. The planes must have
// the geometry and depth given to newVIF, and the extractor a supported
// one; otherwise every score is NaN.
func (v *vif) compute(ref, dist feature.Plane) [4]float64 {
	return v.computeScales(ref, dist, 0, 3)
}

// vifPartScales are the scales of part p of the extractor: scale 0, or
// the decimated scales 1 to 3.
func vifPartScales(p int) (first, last int) {
	if p == 0 {
		return 0, 0
	}
	return 1, 3
}

// computeScales is compute for scales first to last only (first 0 or 1,
// last 0 or 3); the other scores are left 0.
func (v *vif) computeScales(ref, dist feature.Plane, first, last int) [4]float64 {
	var out [4]float64
	if !v.fits(ref) || !v.fits(dist) {
		for s := first; s <= last; s++ {
			out[s] = math.NaN()
		}
		return out
	}
	sums := v.scaleSums(ref, dist, first, last)
	for s := first; s <= last; s++ {
		out[s] = sums[s].score()
	}
	return out
}

// scaleSums accumulates the sums of scales first to last for planes that
// fit. Scale 0 and the decimated scales depend only on the input, so
// either can be computed without the other.
func (v *vif) scaleSums(ref, dist feature.Plane, first, last int) [4]vifSums {
	// The kernels are called through function values, which escape
	// analysis cannot see through: sums live in the extractor so that
	// passing them does not allocate.
	sums := &v.sums
	*sums = [4]vifSums{}
	if first == 0 {
		if v.bpc == 8 {
			v.statsScale0Bytes(ref, dist, &sums[0])
		} else {
			v.statsScale0Words(ref, dist, &sums[0])
		}
	}
	if last == 0 {
		return *sums
	}
	if v.bpc == 8 {
		v.subsampleBytes(ref, dist, &v.levels[1])
	} else {
		v.subsampleWords(ref, dist, &v.levels[1])
	}
	for s := 1; s < 4; s++ {
		v.statsLevel(s, &sums[s])
		if s < 3 {
			v.subsampleLevel(s)
		}
	}
	return *sums
}

func (v *vif) fits(p feature.Plane) bool {
	rowBytes := p.W
	if v.bpc > 8 {
		rowBytes *= 2
	}
	return v.log2 != nil && p.W == v.w && p.H == v.h && p.BitDepth == v.bpc && p.Stride >= rowBytes &&
		len(p.Data) >= p.Stride*(p.H-1)+rowBytes
}

// vifMirror maps row or column y of an n-long axis into range by
// reflecting about the first and last sample without repeating them. The
// windows reach at most n-1 samples past an edge (n >= 16 at scale 0 and
// halves with the window at every further scale).
func vifMirror(y, n int) int {
	if y < 0 {
		return -y
	}
	if y >= n {
		return 2*(n-1) - y
	}
	return y
}

// statsScale0Bytes accumulates scale 0 of 8-bit planes.
func (v *vif) statsScale0Bytes(ref, dist feature.Plane, sums *vifSums) {
	taps := vifFilters[0]
	r, d := v.rows8[0][:len(taps)], v.rows8[1][:len(taps)]
	for i := 0; i < v.h; i++ {
		for k := range taps {
			y := vifMirror(i-len(taps)/2+k, v.h)
			r[k], d[k] = ref.Row8(y), dist.Row8(y)
		}
		v.kern.vertical8(&v.buf, r, d, taps, v.w)
		v.horizontalStats(v.w, taps, sums)
	}
}

// statsScale0Words accumulates scale 0 of planes deeper than 8 bits. The
// shifts bring every depth to the fixed-point scale of 8-bit input.
func (v *vif) statsScale0Words(ref, dist feature.Plane, sums *vifSums) {
	taps := vifFilters[0]
	r, d := v.rows16[0][:len(taps)], v.rows16[1][:len(taps)]
	for i := 0; i < v.h; i++ {
		for k := range taps {
			y := vifMirror(i-len(taps)/2+k, v.h)
			r[k], d[k] = ref.Row16(y), dist.Row16(y)
		}
		v.kern.vertical16(&v.buf, r, d, taps, v.w, uint(v.bpc), uint(2*(v.bpc-8)))
		v.horizontalStats(v.w, taps, sums)
	}
}

// statsLevel accumulates decimated scale s (1..3), whose samples carry 16
// bits of fixed-point precision whatever the input depth.
func (v *vif) statsLevel(s int, sums *vifSums) {
	l := &v.levels[s]
	taps := vifFilters[s]
	r, d := v.rows16[0][:len(taps)], v.rows16[1][:len(taps)]
	for i := 0; i < l.h; i++ {
		for k := range taps {
			r[k], d[k] = l.rows(vifMirror(i-len(taps)/2+k, l.h))
		}
		v.kern.vertical16(&v.buf, r, d, taps, l.w, 16, 16)
		v.horizontalStats(l.w, taps, sums)
	}
}

// horizontalStats mirrors the vertical sums of one row, w wide, filters
// them horizontally into variances and adds the row's pixels to sums.
func (v *vif) horizontalStats(w int, taps []uint16, sums *vifSums) {
	b := &v.buf
	half := len(taps) / 2
	b.mirrorMoments(w, half)
	v.kern.horizontal(b, taps, w)
	v.kern.accumulate(sums, b.sigma1Sq[:w], b.sigma2Sq[:w], b.sigma12[:w], v.gainLimit, v.log2)
}

// subsampleBytes low-passes 8-bit scale 0 into scale 1.
func (v *vif) subsampleBytes(ref, dist feature.Plane, dst *vifLevel) {
	taps := vifFilters[1]
	r, d := v.rows8[0][:len(taps)], v.rows8[1][:len(taps)]
	for i := 0; i < dst.h; i++ {
		for k := range taps {
			y := vifMirror(2*i-len(taps)/2+k, v.h)
			r[k], d[k] = ref.Row8(y), dist.Row8(y)
		}
		v.kern.means8(&v.buf, r, d, taps, v.w, 8)
		v.decimate(v.w, taps, dst, i)
	}
}

// subsampleWords low-passes deeper scale 0 into scale 1; the vertical
// shift by the depth gives scale 1 sixteen bits whatever the input.
func (v *vif) subsampleWords(ref, dist feature.Plane, dst *vifLevel) {
	taps := vifFilters[1]
	r, d := v.rows16[0][:len(taps)], v.rows16[1][:len(taps)]
	for i := 0; i < dst.h; i++ {
		for k := range taps {
			y := vifMirror(2*i-len(taps)/2+k, v.h)
			r[k], d[k] = ref.Row16(y), dist.Row16(y)
		}
		v.kern.means16(&v.buf, r, d, taps, v.w, uint(v.bpc))
		v.decimate(v.w, taps, dst, i)
	}
}

// subsampleLevel low-passes scale s (1 or 2) into scale s+1 with scale
// s+1's window.
func (v *vif) subsampleLevel(s int) {
	src, dst := &v.levels[s], &v.levels[s+1]
	taps := vifFilters[s+1]
	r, d := v.rows16[0][:len(taps)], v.rows16[1][:len(taps)]
	for i := 0; i < dst.h; i++ {
		for k := range taps {
			r[k], d[k] = src.rows(vifMirror(2*i-len(taps)/2+k, src.h))
		}
		v.kern.means16(&v.buf, r, d, taps, src.w, 16)
		v.decimate(src.w, taps, dst, i)
	}
}

// decimate mirrors the w rounded vertical means and filters every other
// column of them into row i of dst.
func (v *vif) decimate(w int, taps []uint16, dst *vifLevel, i int) {
	b := &v.buf
	vifMirrorEnds(b.mu1, w, len(taps)/2)
	vifMirrorEnds(b.mu2, w, len(taps)/2)
	r, d := dst.rows(i)
	v.kern.decimate(r, d, b.mu1, b.mu2, taps)
}
