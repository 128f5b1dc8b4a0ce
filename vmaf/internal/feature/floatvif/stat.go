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
}

func newStatistic(gainLimit, sigmaNsq float64) statistic {
	sq := float32(sigmaNsq) * float32(sigmaNsq)
	return statistic{
		gainLimit:   float32(gainLimit),
		sigmaNsq:    sigmaNsq,
		sigmaMaxInv: float32(float64(sq) / (255.0 * 255.0)),
	}
}

// row sums one row's numerator and denominator terms in float32, left to
// right, as libvmaf does (the caller adds the row sums in row order).
// mu1 and mu2 are the local means, xx, yy and xy the filtered squares and
// product. The float64 steps are where libvmaf's expressions mix in the
// double noise variance.
func (s *statistic) row(mu1, mu2, xx, yy, xy []float32) (num, den float32) {
	n := len(mu1)
	mu2, xx, yy, xy = mu2[:n], xx[:n], yy[:n], xy[:n]
	nsq := s.sigmaNsq
	for j := range n {
		m1, m2 := mu1[j], mu2[j]
		s1 := xx[j] - float32(m1*m1)
		s2 := yy[j] - float32(m2*m2)
		s12 := xy[j] - float32(m1*m2)
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
		var nv, dv float32
		if float64(s1) < nsq {
			nv = 1 - float32(s2*s.sigmaMaxInv)
			dv = 1
		} else {
			gg := float32(float32(g*g) * s1)
			nv = log2Approx(float32(1 + float64(gg)/(float64(sv)+nsq)))
			dv = log2Approx(float32(1 + float64(s1)/nsq))
			if s12 < 0 {
				nv = 0
			}
		}
		num += nv
		den += dv
	}
	return num, den
}

// log2Poly approximates log2(1+t) for t in [0, 1), highest power first.
var log2Poly = [...]float32{
	-0.012671635276421, 0.064841182402670, -0.157048836463065,
	0.257167726303123, -0.353800560300520, 0.480131410397451,
	-0.721314327952201, 1.442694803896991, 0,
}

// log2Approx is libvmaf's fast float32 log2: the exponent plus a
// polynomial in the mantissa. VIF's values depend on its exact errors, so
// it is reproduced bit for bit, NaN and infinity included.
func log2Approx(x float32) float32 {
	if x == 0 {
		return float32(math.Inf(-1))
	}
	if x < 0 {
		return float32(math.NaN())
	}
	u := math.Float32bits(x)
	exp := int32(u>>23) & 0xff
	t := math.Float32frombits(u&0x007fffff|0x3f800000) - 1
	var v float32
	for _, c := range log2Poly {
		v = float32(v*t) + c
	}
	return float32(exp-127) + v
}
