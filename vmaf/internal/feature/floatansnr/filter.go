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
// what makes the results bit-identical. The products are converted to
// float32 explicitly so that no platform fuses them into the sums.
func filterRow(dst, src []float32, w, h, i int, f []float32, fw int) {
	r := fw / 2
	var rows [5][]float32
	for k := 0; k < fw; k++ {
		ii := mirror(i-r+k, h)
		rows[k] = src[ii*w : (ii+1)*w]
	}
	for j := 0; j < r && j < w; j++ {
		dst[j] = filterEdge(&rows, f, fw, w, j)
	}
	if fw == 3 {
		filter3(dst, &rows, f, w)
	} else {
		filter5(dst, &rows, f, w)
	}
	for j := max(w-r, r); j < w; j++ {
		dst[j] = filterEdge(&rows, f, fw, w, j)
	}
}

// filterEdge is one output near the left or right edge, where the
// columns mirror.
func filterEdge(rows *[5][]float32, f []float32, fw, w, j int) float32 {
	r := fw / 2
	var acc float32
	for k := 0; k < fw; k++ {
		var in float32
		for l := 0; l < fw; l++ {
			in += float32(f[k*fw+l] * rows[k][mirror(j-r+l, w)])
		}
		acc += in
	}
	return acc
}

// filter3 is the interior of a row under the 3×3 kernel.
func filter3(dst []float32, rows *[5][]float32, f []float32, w int) {
	c := (*[9]float32)(f)
	r0, r1, r2 := rows[0][:w], rows[1][:w], rows[2][:w]
	for j := 1; j < w-1; j++ {
		a, b, d := r0[j-1:j+2:j+2], r1[j-1:j+2:j+2], r2[j-1:j+2:j+2]
		s0 := float32(c[0]*a[0]) + float32(c[1]*a[1]) + float32(c[2]*a[2])
		s1 := float32(c[3]*b[0]) + float32(c[4]*b[1]) + float32(c[5]*b[2])
		s2 := float32(c[6]*d[0]) + float32(c[7]*d[1]) + float32(c[8]*d[2])
		dst[j] = s0 + s1 + s2
	}
}

// filter5 is the interior of a row under the 5×5 kernel.
func filter5(dst []float32, rows *[5][]float32, f []float32, w int) {
	c := (*[25]float32)(f)
	r0, r1, r2, r3, r4 := rows[0][:w], rows[1][:w], rows[2][:w], rows[3][:w], rows[4][:w]
	for j := 2; j < w-2; j++ {
		s0 := dot5(c[0:5:5], r0[j-2:j+3:j+3])
		s1 := dot5(c[5:10:10], r1[j-2:j+3:j+3])
		s2 := dot5(c[10:15:15], r2[j-2:j+3:j+3])
		s3 := dot5(c[15:20:20], r3[j-2:j+3:j+3])
		s4 := dot5(c[20:25:25], r4[j-2:j+3:j+3])
		dst[j] = s0 + s1 + s2 + s3 + s4
	}
}

// dot5 sums five products in order.
func dot5(c, x []float32) float32 {
	c, x = c[:5:5], x[:5:5]
	return float32(c[0]*x[0]) + float32(c[1]*x[1]) + float32(c[2]*x[2]) + float32(c[3]*x[3]) + float32(c[4]*x[4])
}
