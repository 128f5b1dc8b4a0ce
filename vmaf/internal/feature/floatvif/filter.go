package floatvif

import "math"

// kernelScales are the kernel scales libvmaf accepts, as float32 values;
// a setting within 1e-3 of one of them is valid.
var kernelScales = [...]float32{
	1, 1.0 / 2, 3.0 / 2, 2, 2.0 / 3, 24.0 / 10, 360.0 / 97, 4.0 / 3,
	3.5 / 3, 3.75 / 3, 4.25 / 3, 5.0 / 3, 3, 1 / 2.25, 1.4746, 1.54,
	1.6, 1.06667, 0.711111, 0.740740, 1.111111,
}

func validKernelScale(k float32) bool {
	for _, v := range kernelScales {
		// The difference is taken in float32 and compared in float64,
		// as libvmaf does.
		if math.Abs(float64(k-v)) < 1e-3 {
			return true
		}
	}
	return false
}

// filterSize is the Gaussian's width at a scale: 17, 9, 5, 3 taps for a
// kernel scale of 1, stretched by the kernel scale to the next odd
// width, and never below 3.
func filterSize(scale int, kernel float32) int {
	n := 1<<(4-scale) + 1
	c := int(math.Ceil(float64(float32(n) * kernel)))
	if c%2 == 0 {
		c++
	}
	return max(c, 3)
}

// gaussian is the normalised Gaussian kernel of a scale, with σ a fifth
// of its width. The samples are rounded to float32 the way libvmaf
// computes them (exponent in float64, quotient in float32), so that the
// taps carry the same bits.
func gaussian(scale int, kernel float32) []float32 {
	size := filterSize(scale, kernel)
	stdev := float32(size) / 5
	sd := float64(stdev)
	norm := float32(1 / (sd * math.Sqrt(2*math.Pi)))
	out := make([]float32, size)
	var sum float32
	for i := range out {
		x := float64(float32(i - (size-1)/2))
		out[i] = float32(math.Exp(-0.5*x/sd*x/sd)) / norm
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}
