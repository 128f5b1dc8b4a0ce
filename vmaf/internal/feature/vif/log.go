package vif

import (
	"math"
	"math/bits"
	"sync"
)

// vifLog2Table holds round(2048·log2(i)) for 16-bit mantissas i in
// [1<<15, 1<<16), indexed by i-(1<<15): libvmaf's fixed-point logarithm.
// One unused entry at the end lets vector gathers read whole 32-bit words
// at every index.
type vifLog2Table [1<<15 + 1]uint16

// vifLog2 returns the shared, read-only table, built on first use.
var vifLog2 = sync.OnceValue(func() *vifLog2Table {
	var t vifLog2Table
	for i := range 1 << 15 {
		// libvmaf rounds a single-precision log2; rounding the double
		// result to float32 first gives the same table.
		l := float32(math.Log2(float64(i + 1<<15)))
		t[i] = uint16(math.Round(float64(l) * 2048))
	}
	return &t
})

// log2 returns 2048·log2(x) for x >= 1<<15, taking the 16 leading bits of
// x as the table's mantissa.
func (t *vifLog2Table) log2(x uint64) int64 {
	k := 48 - bits.LeadingZeros64(x)
	return int64(t[(x>>k)-1<<15]) + 2048*int64(k)
}

// vifSigmaNsq is the noise variance of the VIF model (2.0) in the
// fixed-point scale of the second moments (16 fractional bits).
const vifSigmaNsq = 2 << 16

// vifSums holds one scale's sums exactly as libvmaf's integer kernels keep
// them: pixels with enough reference variance contribute logarithms
// (2048ths of a bit), the others plain counts and variances.
type vifSums struct {
	numLog, denLog int64
	numLin, denLin int64
}

// addRow folds in a row of pixels' variances and covariances.
func (s *vifSums) addRow(sigma1Sq, sigma2Sq, sigma12 []int32, gainLimit float64, lg *vifLog2Table) {
	sigma2Sq, sigma12 = sigma2Sq[:len(sigma1Sq)], sigma12[:len(sigma1Sq)]
	for j, s1 := range sigma1Sq {
		s.add(s1, sigma2Sq[j], sigma12[j], gainLimit, lg)
	}
}

// add folds in one pixel's local variances and covariance.
func (s *vifSums) add(sigma1Sq, sigma2Sq, sigma12 int32, gainLimit float64, lg *vifLog2Table) {
	sigma2Sq = max(sigma2Sq, 0)
	if sigma1Sq < vifSigmaNsq {
		s.numLin += int64(sigma2Sq)
		s.denLin++
		return
	}
	// log2(1 + sigma1²/nsq) as log2(nsq + sigma1²) - log2(nsq), nsq = 2^17.
	s.denLog += lg.log2(uint64(uint32(vifSigmaNsq+sigma1Sq))) - 17*2048
	if sigma12 <= 0 || sigma2Sq <= 0 {
		return
	}
	const eps = 65536 * 1.0e-10
	g := float64(sigma12) / (float64(sigma1Sq) + eps)
	// The explicit float64 keeps the product rounded on its own, as in
	// libvmaf, instead of fused into the subtraction.
	svSq := int32(float64(sigma2Sq) - float64(g*float64(sigma12)))
	svSq = max(svSq, 0)
	if g > gainLimit {
		g = gainLimit
	}
	numer1 := uint32(svSq + vifSigmaNsq)
	gain := int64(g * g * float64(sigma1Sq))
	s.numLog += lg.log2(uint64(gain+int64(numer1))) - lg.log2(uint64(numer1))
}

// score turns the sums into the scale's VIF the way libvmaf does: the
// numerator and denominator are rounded to float32 and divided in float32.
func (s *vifSums) score() float64 {
	num := float32(float64(s.numLog)/2048.0 + (float64(s.denLin) - (float64(s.numLin)/16384.0)/65025.0))
	den := float32(float64(s.denLog)/2048.0 + float64(s.denLin))
	return float64(num / den)
}
