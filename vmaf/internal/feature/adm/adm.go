// Package adm is ADM (Li et al.'s detail loss metric with its additive-impairment
// companion) in libvmaf's integer form: a four-level db2 wavelet transform
// of both pictures, decoupling of the distorted detail bands into a restored
// part and an additive part, CSF weighting, contrast masking and cube-root
// pooling. Every rounding step follows libvmaf's integer_adm so that the
// scores agree with it to the last printed digit. Level 0 works on 16-bit
// bands, levels 1 to 3 on 32-bit bands, as libvmaf does; the two share the
// structure but not the fixed-point details, so they are written out
// separately (level0.go, levelN.go). Each level runs one band row
// at a time (rows.go) through a set of row kernels (kernels.go).
//
// libvmaf's C, AVX2 and AVX-512 kernels agree except in three corners,
// where this follows the AVX-512 kernels (what libvmaf runs on current x86
// servers): the last column of a band whose width is 1 modulo the vector
// block (see adm.simdLast), masking thresholds next to maskers of 15360
// and more (see admCM0), and the rounding of level-0 cubes in bands of 9
// to 16 columns (see adm.cm0Bias). Pictures with a side of 17 to 32
// samples also take libvmaf's unmirrored first tap at level 3, which reads
// neighbouring scratch memory (see adm.fillAbove).
package adm

import (
	"math"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// admOptions holds the ADM parameters a model may set. All other libvmaf ADM
// options stay at their defaults (Watson CSF, viewing distance 3 heights,
// 1080-line display, DLM weight 0.5, noise weight 1/32, minimum 0).
type admOptions struct {
	enhnGainLimit float64 // adm_enhn_gain_limit: 100 by default, 1 for the NEG models
}

// admDefaultGainLimit is libvmaf's adm_enhn_gain_limit when a model sets none.
const admDefaultGainLimit = 100.0

// admScores are one frame's ADM features.
type admScores struct {
	adm2, aim, adm3 float64    // integer_adm2, integer_aim, integer_adm3
	scale           [4]float64 // integer_adm_scale0..3
}

const (
	admLevels      = 4
	admNoiseWeight = 0.03125 // libvmaf's default adm_noise_weight
	admDLMWeight   = 0.5     // libvmaf's default adm_dlm_weight
)

// adm computes ADM for one picture geometry. It owns all scratch memory, so
// one instance must not be used by two goroutines at once.
type adm struct {
	w, h, bpc int
	gain      float64
	kern      *admKernels
	bw, bh    [admLevels]int // band size at each level

	// Level-0 vertical-pass output of the current row, one sample of mirror
	// padding on the left and two on the right (see admDWTPad).
	tmpLo, tmpHi []int16

	// The vertical-pass rows of levels 1 to 3, in libvmaf's layout. It
	// persists across frames because libvmaf's AVX-512 kernels read a little
	// of it past the end of a row (see simdLast).
	tmp []int32

	// simdLast[l] is set when libvmaf's AVX-512 horizontal loop at level l
	// covers the last output column, which it then computes from unmirrored
	// taps: band widths of 1 modulo the vector block (32 samples at level 0,
	// 64 for deep samples, 8 at levels 1 to 3).
	simdLast [admLevels]bool

	// above holds the rows libvmaf reads above row 0 of a level's input
	// (reference, distorted) when the level's band is 2 rows high (see
	// fillAbove), as wide as any level's input.
	above [2][]int32

	// Approximation (LL) bands, the input of the next level. Two per
	// picture so a level never reads the buffer it writes.
	refA, disA [2][]int32

	// The current row of the detail bands h, v, d of level 0 and of
	// levels 1 to 3, and the rings of decoupled rows (see rows.go).
	ref16, dis16 [3][]int16
	ref32, dis32 [3][]int32
	ring16       *admRing[int16]
	ring32       *admRing[int32]

	// Kernel arguments. The kernels are called through function values,
	// which escape analysis cannot see through, so everything passed by
	// pointer lives here rather than on the stack.
	rows8      [4][]byte
	rows16     [4][]uint16
	rows32     [4][]int32
	det32      [3][]int32
	dec16      admDecouple16Row
	dec32      admDecouple32Row
	cm16       admCM16Row
	cm32       admCM32Row
	cm0P, cmNP admCMParams
	// cm0Bias is what libvmaf's AVX-512 masking adds to each level-0
	// cube term, by orientation (see level0 and cm0Row).
	cm0Bias [3]int64

	csf admCSF
}

// newADM allocates an ADM extractor for w x h pictures of bpc bits.
func newADM(w, h, bpc int, opt admOptions) *adm {
	return newADMWith(w, h, bpc, opt, admBestKernels())
}

// newADMWith is newADM with a chosen kernel set, so that tests can hold
// the implementations against each other.
func newADMWith(w, h, bpc int, opt admOptions, k *admKernels) *adm {
	a := &adm{w: w, h: h, bpc: bpc, gain: opt.enhnGainLimit, kern: k, csf: newADMCSF()}
	if !(a.gain >= 1) { // also catches NaN and the zero value
		a.gain = admDefaultGainLimit
	}
	if w < 1 || h < 1 || bpc < 8 || bpc > 16 {
		return a // compute gives NaN for every plane
	}
	cw, ch := w, h
	for l := range admLevels {
		cw, ch = (cw+1)/2, (ch+1)/2
		a.bw[l], a.bh[l] = cw, ch
	}
	w0, w1 := a.bw[0], a.bw[1]
	a.tmpLo = make([]int16, w+3)
	a.tmpHi = make([]int16, w+3)
	// The largest level-1 layout is 4 rows of w0, and the AVX-512 reads
	// run 2 words past it. libvmaf's buffer is fresh memory, taken as zero.
	a.tmp = make([]int32, 4*w0+2)
	block0 := 32
	if bpc > 8 {
		block0 = 64
	}
	for l, bw := range a.bw {
		block := 8
		if l == 0 {
			block = block0
		}
		a.simdLast[l] = bw > block && (bw-1)%block == 0
	}
	for i, n := range [2]int{w0 * a.bh[0], w1 * a.bh[1]} {
		a.refA[i] = make([]int32, n)
		a.disA[i] = make([]int32, n)
	}
	for t := range 3 {
		a.ref16[t], a.dis16[t] = make([]int16, w0), make([]int16, w0)
		a.ref32[t], a.dis32[t] = make([]int32, w1), make([]int32, w1)
	}
	a.above = [2][]int32{make([]int32, w0), make([]int32, w0)}
	a.ring16 = newADMRing[int16](w0)
	a.ring32 = newADMRing[int32](w1)
	a.cm16.thr, a.cm16.colSum = make([]int32, w0), make([]int32, w0+2)
	a.cm32.thr, a.cm32.colSum = make([]int32, w1), make([]int32, w1+2)
	return a
}

// compute scores one reference/distorted pair. Both planes must have the
// geometry and bit depth the extractor was made for; planes that do not
// get NaN scores.
func (a *adm) compute(ref, dist feature.Plane) admScores {
	if !a.fits(ref) || !a.fits(dist) {
		nan := math.NaN()
		return admScores{adm2: nan, aim: nan, adm3: nan, scale: [4]float64{nan, nan, nan, nan}}
	}
	var num, den, aimNum float64
	var nums, dens [admLevels]float32

	var aim float32
	nums[0], dens[0], aim = a.level0(ref, dist)
	num, den, aimNum = float64(nums[0]), float64(dens[0]), float64(aim)
	for l := 1; l < admLevels; l++ {
		nums[l], dens[l], aim = a.levelN(l)
		num += float64(nums[l])
		den += float64(dens[l])
		aimNum += float64(aim)
	}

	var s admScores
	for l := range admLevels {
		s.scale[l] = float64(nums[l]) / float64(dens[l])
	}
	// libvmaf flushes negligible totals to zero, relative to a 1080p frame.
	limit := 1e-10 * float64(a.w*a.h) / (1920.0 * 1080.0)
	if num < limit {
		num = 0
	}
	if den < limit {
		den = 0
	}
	if den == 0 {
		s.adm2 = 1
	} else {
		s.adm2 = num / den
		s.aim = aimNum / den
	}
	// Explicit conversions keep the two products from being fused.
	s.adm3 = math.Max(float64(s.adm2*admDLMWeight)+float64((1-s.aim)*(1-admDLMWeight)), 0)
	return s
}

// fits reports whether p has the extractor's geometry and holds all its
// rows.
func (a *adm) fits(p feature.Plane) bool {
	bps := 1
	if a.bpc > 8 {
		bps = 2
	}
	return p.W == a.w && p.H == a.h && p.BitDepth == a.bpc && a.tmp != nil &&
		p.Stride >= a.w*bps && len(p.Data) >= p.Stride*(a.h-1)+a.w*bps
}
