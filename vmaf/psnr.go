package vmaf

import "math"

// psnr is libvmaf's integer "psnr" extractor with its default options:
// chroma included, the full peak of the bit depth (255 for 8-bit, 1023 for
// 10-bit, ...), and scores capped at 6*bpc+12 dB (60 dB for 8-bit, 72 for
// 10-bit, 84 for 12-bit, 108 for 16-bit), which is what a frame with no
// error at all scores.
type psnr struct {
	bpc    int
	planes int     // 1 for Chroma400, else 3
	w, h   [3]int  // samples compared per plane
	peak2  float64 // peak squared
	// maxPlane caps each plane's score in dB: 6*bpc+12 unless min_sse
	// sets a floor on the error.
	maxPlane [3]float64
}

func newPSNR(w, h, bpc int, chroma Chroma) *psnr {
	p := &psnr{bpc: bpc, planes: 3}
	for i := range p.maxPlane {
		p.maxPlane[i] = float64(6*bpc + 12)
	}
	p.w[0], p.h[0] = w, h
	// libvmaf sizes subsampled chroma planes by rounding down, so for odd
	// luma sizes the last chroma column or row is not compared.
	switch chroma {
	case Chroma420:
		p.w[1], p.h[1] = w>>1, h>>1
	case Chroma422:
		p.w[1], p.h[1] = w>>1, h
	case Chroma444:
		p.w[1], p.h[1] = w, h
	case Chroma400:
		p.planes = 1
	}
	p.w[2], p.h[2] = p.w[1], p.h[1]
	peak := uint32(1)<<bpc - 1
	// The square of a 16-bit peak still fits the 32 bits libvmaf uses.
	p.peak2 = float64(peak * peak)
	return p
}

// plane returns the PSNR and MSE of plane i of one frame pair of the
// geometry and format the extractor was made for.
func (p *psnr) plane(r, d plane, i int) (psnr, mse float64, sse uint64) {
	r.w, r.h, d.w, d.h = p.w[i], p.h[i], p.w[i], p.h[i]
	if p.bpc == 8 {
		sse = sse8(r, d)
	} else {
		sse = sse16(r, d)
	}
	mse = float64(sse) / float64(p.w[i]*p.h[i])
	return min(10*psnrLog10(p.peak2/max(mse, 1e-16)), p.maxPlane[i]), mse, sse
}

func sse8(r, d plane) uint64 {
	var sse uint64
	for y := 0; y < r.h; y++ {
		a, b := r.row8(y), d.row8(y)
		b = b[:len(a)]
		// libvmaf sums each row in 32 bits before adding it to the total.
		var row uint32
		for x := range a {
			e := int32(a[x]) - int32(b[x])
			row += uint32(e * e)
		}
		sse += uint64(row)
	}
	return sse
}

func sse16(r, d plane) uint64 {
	var sse uint64
	for y := 0; y < r.h; y++ {
		a, b := r.row16(y), d.row16(y)
		b = b[:len(a)]
		for x := range a {
			e := int64(a[x]) - int64(b[x])
			sse += uint64(e * e)
		}
	}
	return sse
}

// psnrLog10 is log10 computed the way the C library libvmaf links against
// (glibc) does: split off the binary exponent, take the natural logarithm of
// the remaining mantissa and add the exponent's share in two parts. Go's
// math.Log10 goes through log2 instead and can differ in the last bit.
func psnrLog10(x float64) float64 {
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
