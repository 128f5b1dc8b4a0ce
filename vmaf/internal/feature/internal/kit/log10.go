package kit

import "math"

// Log10 is log10 computed the way the C library libvmaf links against
// (glibc) does: split off the binary exponent, take the natural logarithm of
// the remaining mantissa and add the exponent's share in two parts. Go's
// math.Log10 goes through log2 instead and can differ in the last bit.
func Log10(x float64) float64 {
	const (
		invLn10   = 4.34294481903251816668e-01 // 1/ln(10)
		log10of2H = 3.01029995663611771306e-01 // log10(2), high part
		log10of2L = 3.69423907715893078616e-13 // log10(2), low part
	)
	if !(x > 0) || math.IsInf(x, 1) {
		return math.Log10(x)
	}
	_, e := math.Frexp(x)
	k := e - 1 // x = m * 2^k with m in [1, 2)
	if k < 0 {
		k++ // keep the mantissa in [0.5, 1) below 1, as the C code does
	}
	m := math.Ldexp(x, -k)
	z := float64(float64(k)*log10of2L) + float64(invLn10*math.Log(m))
	return z + float64(float64(k)*log10of2H)
}
