package floatansnr

// The two filters, as float32 like libvmaf's tables: a 3×3 binomial for
// the reference and a 5×5 one (weights over 571) for the distorted.
var refFilter = [9]float32{
	1.0 / 16, 2.0 / 16, 1.0 / 16,
	2.0 / 16, 4.0 / 16, 2.0 / 16,
	1.0 / 16, 2.0 / 16, 1.0 / 16,
}

var distFilter = [25]float32{
	2.0 / 571, 7.0 / 571, 12.0 / 571, 7.0 / 571, 2.0 / 571,
	7.0 / 571, 31.0 / 571, 52.0 / 571, 31.0 / 571, 7.0 / 571,
	12.0 / 571, 52.0 / 571, 127.0 / 571, 52.0 / 571, 12.0 / 571,
	7.0 / 571, 31.0 / 571, 52.0 / 571, 31.0 / 571, 7.0 / 571,
	2.0 / 571, 7.0 / 571, 12.0 / 571, 7.0 / 571, 2.0 / 571,
}

// mirror reflects an index that left 0..n-1, the way libvmaf's ANSNR
// filter does: -k reads k, n-1+k reads n-k.
func mirror(i, n int) int {
	if i < 0 {
		return -i
	}
	if i >= n {
		return 2*n - i - 1
	}
	return i
}

// filterRow writes row i of src (w×h) filtered with the fw×fw kernel f
// into dst. Each output sums every kernel row's products in float32 first
// and then adds the kernel rows' sums, as libvmaf does; that order is
// what makes the results bit-identical.
func filterRow(dst, src []float32, w, h, i int, f []float32, fw int) {
	r := fw / 2
	var rows [5][]float32
	for k := 0; k < fw; k++ {
		ii := mirror(i-r+k, h)
		rows[k] = src[ii*w : (ii+1)*w]
	}
	edge := func(j int) float32 {
		var acc float32
		for k := 0; k < fw; k++ {
			var in float32
			for l := 0; l < fw; l++ {
				in += f[k*fw+l] * rows[k][mirror(j-r+l, w)]
			}
			acc += in
		}
		return acc
	}
	for j := 0; j < r && j < w; j++ {
		dst[j] = edge(j)
	}
	for j := r; j < w-r; j++ {
		var acc float32
		for k := 0; k < fw; k++ {
			row := rows[k][j-r : j+r+1]
			fk := f[k*fw : k*fw+fw]
			var in float32
			for l, c := range fk {
				in += c * row[l]
			}
			acc += in
		}
		dst[j] = acc
	}
	for j := max(w-r, r); j < w; j++ {
		dst[j] = edge(j)
	}
}
