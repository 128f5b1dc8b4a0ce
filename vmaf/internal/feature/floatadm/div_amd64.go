package floatadm

// divRow sets q[j] = n[j]/d[j] the way libvmaf's x86 builds divide in the
// decoupling step: n times the processor's reciprocal estimate of d
// (RCPSS) refined by one Newton-Raphson step. The estimate is the
// processor's own, as in libvmaf, whose results on a given machine it
// reproduces; its last bit shows in the scores' sixth decimal.
func divRow(q, n, d []float32) {
	d = d[:len(q)]
	n = n[:len(q)]
	rcpEstimates(q, d)
	for j, e := range q {
		e += float32(e * (1 - float32(d[j]*e)))
		q[j] = n[j] * e
	}
}

// rcpEstimates sets dst[j] to RCPSS(src[j]).
//
//go:noescape
func rcpEstimates(dst, src []float32)
