package adm

import (
	"math"
	"math/bits"
)

// Contrast sensitivity of each wavelet level, from Watson et al.'s model of
// the visibility of wavelet quantisation noise (IEEE TIP 6(8), 1997,
// formula 9 with the luma parameters of table IV and the basis amplitudes
// of table V), evaluated the way libvmaf does: in a mix of float and double
// whose roundings decide the last bits of the factors.

const (
	admWatsonA    float32 = 0.495
	admWatsonK    float32 = 0.466
	admWatsonF0   float32 = 0.401
	admViewDist           = 3.0  // normalised viewing distance, in display heights
	admDispHeight         = 1080 // reference display height, in lines
)

// Read-only tables: Watson's per-orientation gains and the basis function
// amplitudes per level and orientation (ll, lh, hh, hl).
var (
	admWatsonG   = [4]float32{1.501, 1.0, 0.534, 1.0}
	admBasisAmpl = [admLevels][4]float32{
		{0.62171, 0.67234, 0.72709, 0.67234},
		{0.34537, 0.41317, 0.49428, 0.41317},
		{0.18004, 0.22727, 0.28688, 0.22727},
		{0.091401, 0.11792, 0.15214, 0.11792},
	}
)

// admQuantStep is the visibility threshold of level lambda, orientation
// theta (1 = horizontal/vertical, 2 = diagonal).
func admQuantStep(lambda, theta int) float32 {
	// Variables, so the product is rounded step by step as in C rather than
	// folded exactly as a constant expression.
	vd, dh, pi := float64(admViewDist), float64(admDispHeight), math.Pi
	r := float32(vd * dh * pi / 180.0)
	temp := float32(math.Log10(math.Pow(2, float64(lambda+1)) * float64(admWatsonF0) * float64(admWatsonG[theta]) / float64(r)))
	kt2 := float32(float32(admWatsonK*temp) * temp)
	return float32(2.0 * float64(admWatsonA) * math.Pow(10, float64(kt2)) / float64(admBasisAmpl[lambda][theta]))
}

// admCSF holds the per-level CSF factors in the forms the fixed-point
// stages need. Index 0 of the [3] arrays is the horizontal band, 1 the
// vertical, 2 the diagonal.
type admCSF struct {
	rf    [admLevels][3]float32 // 1/quant step
	rfCub [admLevels][3]float64 // rf^3, correctly rounded like C's pow(rf, 3)
	rf32  [admLevels][3]uint32  // rf in Q32, used by levels 1 to 3
}

// admRF0 is libvmaf's level-0 factor in Q21 (h, v) and Q23 (d). libvmaf
// fixes these for the default viewing conditions instead of deriving them
// (the derivation would truncate to 36452 and 49414).
var admRF0 = [3]int32{36453, 36453, 49417}

func newADMCSF() admCSF {
	var c admCSF
	for l := range admLevels {
		hv := float32(1) / admQuantStep(l, 1)
		d := float32(1) / admQuantStep(l, 2)
		c.rf[l] = [3]float32{hv, hv, d}
		for t, f := range c.rf[l] {
			// f is a float32, so f*f is exact in float64 and the cube is
			// rounded once.
			c.rfCub[l][t] = float64(f) * float64(f) * float64(f)
			c.rf32[l][t] = uint32(float64(f) * (1 << 32))
		}
	}
	return c
}

// admBorder is the window libvmaf pools over on an n-sample band axis: 10%
// discarded on each side.
func admBorder(n int) (lo, hi int) {
	lo = int(float64(n)*0.1 - 0.5)
	return lo, n - lo
}

// admBorderPadded widens admBorder by the masking filter's reach (one
// sample before, two after), clipped to the band; decoupling and CSF are
// computed over this window.
func admBorderPadded(n int) (lo, hi int) {
	lo = int(float64(n)*0.1 - 0.5 - 1)
	hi = n - lo + 2
	return max(lo, 0), min(hi, n)
}

// admCeilLog2 is ceil(log2(n)) for n >= 1.
func admCeilLog2(n int) int {
	return bits.Len(uint(n - 1))
}

// admRoundHalf is libvmaf's rounding offset for a right shift by s: half of
// 1<<s, and zero when there is no shift.
func admRoundHalf(s int) int64 {
	if s <= 0 {
		return 0
	}
	return 1 << (s - 1)
}

// admCbrtf is libvmaf's powf(x, 1.0f/3.0f): the exponent is the float nearest
// 1/3, not 1/3 itself. The result is the correctly rounded float; glibc's
// powf is off by one unit in the last place for a few inputs in ten
// thousand, which moves a score by up to 5e-8.
func admCbrtf(x float32) float32 {
	const third = float64(float32(1.0) / 3)
	return float32(math.Pow(float64(x), third))
}

// admPoolScale is the cube-root pooling of one level's three orientation
// sums, plus the noise floor term of a window of area samples.
func admPoolScale(h, v, d float32, area int, noiseWeight float64) float32 {
	floor := admCbrtf(float32(float64(area) * noiseWeight))
	return (admCbrtf(h) + floor) + (admCbrtf(v) + floor) + (admCbrtf(d) + floor)
}
