package speed

import "math"

// numScales is the decimation SpEED works at: 2⁴ = 16 in each direction.
const numScales = 4

// filterSize is the width of libvmaf's Gaussian filter for a scale (0-4)
// and kernel scale: the scale's base width times the kernel scale, up to
// the next odd integer, at least 3.
func filterSize(scale int, kernelScale float32) int {
	n := float32(int(1)<<(4-scale) + 1)
	c := int(math.Ceil(float64(n * kernelScale)))
	if c%2 == 0 {
		c++
	}
	return max(c, 3)
}

// gaussian fills out with a normalised Gaussian kernel of stdev sigma,
// evaluated as libvmaf does (the density in double, stored in float32,
// summed and divided in float32).
func gaussian(out []float32, sigma float32) {
	k := (len(out) - 1) / 2
	var sum float32
	for i := range out {
		x := float64(float32(i - k))
		num := float32(math.Exp(-0.5 * x / float64(sigma) * x / float64(sigma)))
		den := float32(1 / (float64(sigma) * math.Sqrt(2*math.Pi)))
		out[i] = num / den
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
}

// antialiasFilter is the blur applied before decimating by 16: the width
// of libvmaf's scale-1 filter with the spread of a scale-4 one.
func antialiasFilter(kernelScale float32) []float32 {
	n := filterSize(1, kernelScale)
	f := make([]float32, n)
	gaussian(f, float32(math.Sqrt(numScales)*float64(n)/5.0))
	return f
}

// scaleFilter is libvmaf's Gaussian filter for a scale.
func scaleFilter(scale int, kernelScale float32) []float32 {
	n := filterSize(scale, kernelScale)
	f := make([]float32, n)
	gaussian(f, float32(n)/5.0)
	return f
}

// reflect mirrors an index that left 0..n-1 about the edge samples:
// -k reads k, n-1+k reads n-1-k.
func reflect(i, n int) int {
	if i < 0 {
		return -i
	}
	if i >= n {
		return 2*n - i - 2
	}
	return i
}

// dot sums f[k]·x[k] in order from zero, in float32, as each of
// libvmaf's filter outputs is summed.
func dot(f, x []float32) float32 {
	var s float32
	for k, c := range f {
		s += c * x[k]
	}
	return s
}

// blurDecimate writes to dst (dw×dh) the samples at every 16th row and
// column of src (w×h) blurred with the separable filter f. libvmaf blurs
// the whole plane and then keeps those samples; each kept sample is the
// same sum either way, so only they are computed. col is scratch of w.
func blurDecimate(dst, src []float32, w, h, dw, dh int, f, col []float32, avx2 bool) {
	r := len(f) / 2
	var rows [64][]float32
	var taps [64]*float32
	vec := 0
	if avx2 {
		vec = len(col) &^ 7
	}
	for a := 0; a < dh; a++ {
		i := a << numScales
		for k := range f {
			ii := reflect(i-r+k, h)
			rows[k] = src[ii*w : (ii+1)*w]
		}
		// Tap by tap over the whole row: each column still sums its taps
		// in order from zero. The vector kernel does the same eight
		// columns at a time, the loops the rest.
		if vec > 0 {
			for k := range f {
				taps[k] = &rows[k][0]
			}
			columnsAVX2(&col[0], taps[:len(f)], f, vec)
		}
		first := rows[0][vec:len(col)]
		for j, v := range first {
			col[vec+j] = f[0] * v
		}
		for k := 1; k < len(f); k++ {
			c, row := f[k], rows[k][vec:len(col)]
			for j, v := range row {
				col[vec+j] += c * v
			}
		}
		decimateRow(dst[a*dw:(a+1)*dw], col, f)
	}
}

// decimateRow writes to out every 16th sample of the row col blurred
// with f.
func decimateRow(out, col, f []float32) {
	r, w := len(f)/2, len(col)
	for b := range out {
		j := b << numScales
		if j-r >= 0 && j+r < w {
			out[b] = dot(f, col[j-r:j+r+1])
			continue
		}
		var s float32
		for k, c := range f {
			s += c * col[reflect(j-r+k, w)]
		}
		out[b] = s
	}
}

// blur writes src (w×h) filtered with the separable filter f to dst,
// vertically first into tmp, then horizontally, as libvmaf does.
func blur(dst, src, tmp []float32, w, h int, f []float32) {
	r := len(f) / 2
	for i := 0; i < h; i++ {
		row := tmp[i*w : (i+1)*w]
		for j := range row {
			var s float32
			for k, c := range f {
				s += c * src[reflect(i-r+k, h)*w+j]
			}
			row[j] = s
		}
	}
	for i := 0; i < h; i++ {
		row := tmp[i*w : (i+1)*w]
		out := dst[i*w : (i+1)*w]
		for j := range out {
			var s float32
			for k, c := range f {
				s += c * row[reflect(j-r+k, w)]
			}
			out[j] = s
		}
	}
}
