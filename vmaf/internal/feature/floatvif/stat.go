package floatvif

import "math"

// eps is libvmaf's floor for variances and the noise term.
const eps float32 = 1e-10

// statistic holds what the per-sample VIF terms depend on besides the
// filtered planes.
type statistic struct {
	gainLimit   float32 // the enhancement gain limit, as float32
	sigmaNsq    float64 // the neural noise variance stays double in libvmaf's expressions
	sigmaMaxInv float32
	// below is the least float32 not below sigmaNsq: a float32 variance
	// widened to float64 is below sigmaNsq exactly when it is below this,
	// which lets the vector code compare in float32.
	below float32
	avx2  bool // run the vector statistic
}

func newStatistic(gainLimit, sigmaNsq float64) statistic {
	sq := float32(sigmaNsq) * float32(sigmaNsq)
	below := float32(sigmaNsq)
	if float64(below) < sigmaNsq {
		below = math.Nextafter32(below, float32(math.Inf(1)))
	}
	return statistic{
		gainLimit:   float32(gainLimit),
		sigmaNsq:    sigmaNsq,
		sigmaMaxInv: float32(float64(sq) / (255.0 * 255.0)),
		below:       below,
		avx2:        hasAVX2(),
	}
}

// row sums one row's numerator and denominator terms in float32, left to
// right, as libvmaf does (the caller adds the row sums in row order).
// mu1 and mu2 are the local means, xx, yy and xy the filtered squares and
// product; nv and dv are scratch as long as the row.
func (s *statistic) row(mu1, mu2, xx, yy, xy, nv, dv []float32) (num, den float32) {
	n := len(mu1)
	mu2, xx, yy, xy = mu2[:n], xx[:n], yy[:n], xy[:n]
	from := 0
	if s.avx2 && n >= 8 {
		from = n &^ 7
		statVec(&mu1[0], &mu2[0], &xx[0], &yy[0], &xy[0], &nv[0], &dv[0], from, s.gainLimit, s.sigmaMaxInv, s.below, s.sigmaNsq)
		for j, v := range nv[:from] {
			num += v
			den += dv[j]
		}
	}
	for j := from; j < n; j++ {
		nv, dv := s.terms(mu1[j], mu2[j], xx[j], yy[j], xy[j])
		num += nv
		den += dv
	}
	return num, den
}

// terms is one sample's numerator and denominator terms. The float64
// steps are where libvmaf's expressions mix in the double noise variance.
func (s *statistic) terms(m1, m2, xx, yy, xy float32) (nv, dv float32) {
	s1 := xx - float32(m1*m1)
	s2 := yy - float32(m2*m2)
	s12 := xy - float32(m1*m2)
	if !(s1 > 0) {
		s1 = 0
	}
	if !(s2 > 0) {
		s2 = 0
	}
	g := s12 / (s1 + eps)
	sv := s2 - float32(g*s12)
	if s1 < eps {
		g, sv, s1 = 0, s2, 0
	}
	if s2 < eps {
		g, sv = 0, 0
	}
	if g < 0 {
		sv, g = s2, 0
	}
	if !(sv > eps) {
		sv = eps
	}
	if !(g < s.gainLimit) {
		g = s.gainLimit
	}
	if float64(s1) < s.sigmaNsq {
		return 1 - float32(s2*s.sigmaMaxInv), 1
	}
	gg := float32(float32(g*g) * s1)
	nv = log2Approx(float32(1 + float64(gg)/(float64(sv)+s.sigmaNsq)))
	dv = log2Approx(float32(1 + float64(s1)/s.sigmaNsq))
	if s12 < 0 {
		nv = 0
	}
	return nv, dv
}

// The coefficients of libvmaf's polynomial for log2(1+t), t in [0, 1),
// highest power first; the constant term is 0.
const (
	log2C0 float32 = -0.012671635276421
	log2C1 float32 = 0.064841182402670
	log2C2 float32 = -0.157048836463065
	log2C3 float32 = 0.257167726303123
	log2C4 float32 = -0.353800560300520
	log2C5 float32 = 0.480131410397451
	log2C6 float32 = -0.721314327952201
	log2C7 float32 = 1.442694803896991
)

// log2Approx is libvmaf's fast float32 log2: the exponent plus the
// polynomial, by Horner's rule, in the mantissa. VIF's values depend on
// its exact errors, so it is reproduced bit for bit, NaN and infinity
// included. Positive arguments take the short path, which inlines.
func log2Approx(x float32) float32 {
	if !(x > 0) {
		return log2Other(x)
	}
	return log2Bits(x)
}

func log2Other(x float32) float32 {
	if x == 0 {
		return float32(math.Inf(-1))
	}
	if x < 0 {
		return float32(math.NaN())
	}
	return log2Bits(x) // NaN: libvmaf reads its bits like a number's
}

func log2Bits(x float32) float32 {
	u := math.Float32bits(x)
	t := math.Float32frombits(u&0x007fffff|0x3f800000) - 1
	// Horner's rule from a zero accumulator, whose first step is exact.
	v := float32(log2C0*t) + log2C1
	v = float32(v*t) + log2C2
	v = float32(v*t) + log2C3
	v = float32(v*t) + log2C4
	v = float32(v*t) + log2C5
	v = float32(v*t) + log2C6
	v = float32(v*t) + log2C7
	v = float32(v*t) + 0
	return float32(int32(u>>23&0xff)-127) + v
}
