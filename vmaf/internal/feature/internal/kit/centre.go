package kit

// Centre8 sets dst[j] to src[j] − 128 for every j of dst, with the
// vector kernel where vector is set (the caller's CPU check, which a
// cpumask may have narrowed). The float32 arithmetic is exact, so both
// paths give the same values.
func Centre8(dst []float32, src []byte, vector bool) {
	src = src[:len(dst)]
	n := 0
	if vector {
		if n = len(dst) &^ 7; n > 0 {
			centre8(&dst[0], &src[0], n)
		}
	}
	for j, v := range src[n:] {
		dst[n+j] = float32(v) - 128
	}
}

// Centre16 sets dst[j] to src[j]/div − 128 for every j of dst. div is a
// power of two (the scaling of deep samples to 8 bits), so the vector
// kernel's multiplication by 1/div gives the division's values.
func Centre16(dst []float32, src []uint16, div float32, vector bool) {
	src = src[:len(dst)]
	n := 0
	if vector {
		if n = len(dst) &^ 7; n > 0 {
			centre16(&dst[0], &src[0], 1/div, n)
		}
	}
	for j, v := range src[n:] {
		dst[n+j] = float32(v)/div - 128
	}
}
