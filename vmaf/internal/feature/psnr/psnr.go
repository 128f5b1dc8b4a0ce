package psnr

import (
	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/internal/kit"
)

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

func newPSNR(w, h, bpc int, chroma feature.Chroma) *psnr {
	p := &psnr{bpc: bpc, planes: 3}
	for i := range p.maxPlane {
		p.maxPlane[i] = float64(6*bpc + 12)
	}
	p.w[0], p.h[0] = w, h
	// libvmaf sizes subsampled chroma planes by rounding down, so for odd
	// luma sizes the last chroma column or row is not compared.
	switch chroma {
	case feature.Chroma420:
		p.w[1], p.h[1] = w>>1, h>>1
	case feature.Chroma422:
		p.w[1], p.h[1] = w>>1, h
	case feature.Chroma444:
		p.w[1], p.h[1] = w, h
	case feature.Chroma400:
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
func (p *psnr) plane(r, d feature.Plane, i int) (psnr, mse float64, sse uint64) {
	r.W, r.H, d.W, d.H = p.w[i], p.h[i], p.w[i], p.h[i]
	if p.bpc == 8 {
		sse = sse8(r, d)
	} else {
		sse = sse16(r, d)
	}
	mse = float64(sse) / float64(p.w[i]*p.h[i])
	return min(10*kit.Log10(p.peak2/max(mse, 1e-16)), p.maxPlane[i]), mse, sse
}

func sse8(r, d feature.Plane) uint64 {
	var sse uint64
	for y := 0; y < r.H; y++ {
		a, b := r.Row8(y), d.Row8(y)
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

func sse16(r, d feature.Plane) uint64 {
	var sse uint64
	for y := 0; y < r.H; y++ {
		a, b := r.Row16(y), d.Row16(y)
		b = b[:len(a)]
		for x := range a {
			e := int64(a[x]) - int64(b[x])
			sse += uint64(e * e)
		}
	}
	return sse
}
