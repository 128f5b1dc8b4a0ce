package featuretest

import (
	"math/rand/v2"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// SynthPair makes a reference and a distorted frame of format f: smooth
// gradients with noise, and a distortion that shifts each plane a little
// and adds more noise. Samples outside the planes as libvmaf sizes them
// (the last chroma column or row of odd sizes) hold an arbitrary value,
// 0xA7 in every byte, which must not change the result.
func SynthPair(f feature.Format, seed uint64) (ref, dist *feature.Frame) {
	r := rand.New(rand.NewPCG(seed, 7))
	bps := 1
	if f.BitDepth > 8 {
		bps = 2
	}
	peak := 1<<f.BitDepth - 1
	scale := 1 << (f.BitDepth - 8)
	var rp, dp [3][]byte
	var strides [3]int
	for p := 0; p < f.Planes(); p++ {
		w, h := f.PlaneSize(p)
		lw, lh := w, h
		if p > 0 && f.Chroma != feature.Chroma444 {
			lw = f.Width >> 1
			if f.Chroma == feature.Chroma420 {
				lh = f.Height >> 1
			}
		}
		strides[p] = (w + 3) * bps
		rp[p] = make([]byte, strides[p]*h)
		dp[p] = make([]byte, strides[p]*h)
		for i := range rp[p] {
			rp[p][i], dp[p][i] = 0xA7, 0xA7
		}
		for y := 0; y < lh; y++ {
			for x := 0; x < lw; x++ {
				base := 60 + (x*3+y*2+p*50)%140
				v := clamp((base+r.IntN(31)-15)*scale, peak)
				d := clamp(v+(r.IntN(13)-6+p*2-2)*scale+r.IntN(scale), peak)
				put(rp[p], y*strides[p]+x*bps, v, bps)
				put(dp[p], y*strides[p]+x*bps, d, bps)
			}
		}
	}
	return NewFrame(f, rp, strides), NewFrame(f, dp, strides)
}

func clamp(v, peak int) int { return max(0, min(v, peak)) }

func put(b []byte, o, v, bps int) {
	b[o] = byte(v)
	if bps == 2 {
		b[o+1] = byte(v >> 8)
	}
}
