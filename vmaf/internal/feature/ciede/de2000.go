package ciede

import "math"

// The formula is evaluated with libvmaf's mix of precisions: its
// intermediate values are float32 variables, while the C library calls
// and the double literals in between make each step's arithmetic
// float64. Every float32(...) below is one of those roundings, and
// float32 operands combined without a conversion are float32 operations
// there too.

// Angles derived from π, computed at run time from the float64 π as C
// folds them (a Go constant expression would be exact, then rounded).
var (
	pi            = math.Pi
	twoPi         = 2 * pi
	piOver6       = pi / 6.0
	piOver30      = pi / 30.0
	sevenPiOver20 = 7.0 * pi / 20.0
	degPerRad     = 180.0 / pi
	radPerDeg     = pi / 180.0
)

// The weighting factors k_L, k_C, k_H (libvmaf's defaults), float32
// from float64 literals.
var (
	kLightness = float32(kL64)
	kChroma    = float32(1.0)
	kHue       = float32(4.0)
	kL64       = 0.65
)

// pow25To7 is 25^7 in float64 and rounded to float32: both appear.
var (
	pow25To7  = math.Pow(25, 7)
	pow25To7f = float32(pow25To7)
)

// sq is the exact square of a float32, as C's pow(x, 2) gives it.
func sq(x float32) float64 { return float64(x) * float64(x) }

// deltaE2000 is the CIEDE2000 difference between two colours.
func deltaE2000(c1, c2 lab) float32 {
	dL := c2.l - c1.l
	lBar := (c1.l + c2.l) / 2
	ch1 := float32(math.Sqrt(sq(c1.a) + sq(c1.b)))
	ch2 := float32(math.Sqrt(sq(c2.a) + sq(c2.b)))
	cBar := (ch1 + ch2) / 2

	// Stretch a* for near-neutral colours.
	cBar7 := pow7(cBar)
	g := 1 - math.Sqrt(cBar7/(cBar7+pow25To7))
	a1 := float32(float64(c1.a) + float64(c1.a/2)*g)
	a2 := float32(float64(c2.a) + float64(c2.a/2)*g)
	cp1 := float32(math.Sqrt(sq(a1) + sq(c1.b)))
	cp2 := float32(math.Sqrt(sq(a2) + sq(c2.b)))
	cpBar := (cp1 + cp2) / 2
	dC := cp2 - cp1

	lm := lBar - 50
	sL := float32(1. + (0.015*sq(lm))/math.Sqrt(20+sq(lm)))
	sC := float32(1. + 0.045*float64(cpBar))

	h1 := hueAngle(c1.b, a1)
	h2 := hueAngle(c2.b, a2)
	// libvmaf tests the chromas before the a* stretch here.
	dh := hueDifference(ch1, ch2, h1, h2)
	dH := float32(2.0 * math.Sqrt(float64(cp1*cp2)) * math.Sin(float64(dh)/2.0))
	hBar := meanHue(h1, h2)
	sH := float32(1.0 + 0.015*float64(cpBar)*float64(hueWeight(hBar)))
	rT := rotation(cpBar, hBar)

	l := dL / (kLightness * sL)
	c := dC / (kChroma * sC)
	h := dH / (kHue * sH)
	return float32(math.Sqrt(sq(l) + sq(c) + sq(h) + float64(rT*c*h)))
}

// hueAngle is h' in [0, 2π), 0 for a neutral colour.
func hueAngle(b, a float32) float32 {
	if b == 0 && a == 0 {
		return 0
	}
	h := float32(math.Atan2(float64(b), float64(a)))
	if h < 0 {
		h = float32(float64(h) + twoPi)
	}
	return h
}

// hueDifference is Δh', the signed hue step from h1 to h2 in (-π, π].
func hueDifference(c1, c2, h1, h2 float32) float32 {
	if c1 == 0 || c2 == 0 {
		return 0
	}
	d := h2 - h1
	switch {
	case float64(abs32(h1-h2)) <= pi:
		return d
	case h2 <= h1:
		return float32(float64(d) + twoPi)
	default:
		return float32(float64(d) - twoPi)
	}
}

// meanHue is H̄', the mean of two hues on the circle.
func meanHue(h1, h2 float32) float32 {
	s := h1 + h2
	if math.Abs(float64(h1-h2)) > pi {
		return float32((float64(s) + twoPi) / 2.0)
	}
	return float32(float64(s) / 2.0)
}

// hueWeight is T, the hue dependence of S_H.
func hueWeight(h float32) float32 {
	x := float64(h)
	return float32(1.0 -
		0.17*math.Cos(x-piOver6) +
		0.24*math.Cos(2.0*x) +
		0.32*math.Cos(3.0*x+piOver30) -
		0.20*math.Cos(4.0*x-sevenPiOver20))
}

// rotation is R_T, the blue-region interaction of chroma and hue. libvmaf
// uses float32 powers here (powf), and passes the angle through float32
// degree and radian conversions.
func rotation(cpBar, hBar float32) float32 {
	deg := float32(float64(hBar) * degPerRad)
	t := float32((float64(deg) - 275.0) * (1.0 / 25.0))
	c7 := float32(pow7(cpBar))
	ratio := c7 / (c7 + pow25To7f)
	theta := float32(60.0 * math.Exp(float64(-(t * t))))
	rad := float32(float64(theta) * radPerDeg)
	return float32(-2.0 * math.Sqrt(float64(ratio)) * math.Sin(float64(rad)))
}

// pow7 is x⁷ rounded once to float64, as a correctly rounded pow gives
// it (C's pow and powf are, but for rare near-ties; Go's math.Pow
// multiplies by repeated squaring and can be a unit or two off, besides
// being slower). x² of a float32 is exact in float64; x³ and x⁴ are kept
// as exact sums of two float64s by fused multiply-adds, and their product
// carries 100 bits or so before its single rounding.
func pow7(x float32) float64 {
	x1 := float64(x)
	x2 := x1 * x1
	h3 := x2 * x1
	l3 := math.FMA(x2, x1, -h3)
	h4 := x2 * x2
	l4 := math.FMA(x2, x2, -h4)
	h7 := h4 * h3
	l7 := math.FMA(h4, h3, -h7)
	return h7 + (l7 + (h4*l3 + l4*h3))
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}
