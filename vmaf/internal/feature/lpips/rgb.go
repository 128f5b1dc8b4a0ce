package lpips

import (
	"math"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// ImageNet's channel means and deviations, which the network expects.
var (
	mean = [3]float32{0.485, 0.456, 0.406}
	std  = [3]float32{0.229, 0.224, 0.225}
)

// toRGB writes the frame as the model's card prescribes, into planes R,
// G, B of out (NCHW): samples reduced to 8 bits with rounding; chroma
// taken from the nearest sample; BT.709 limited range to RGB in float32,
// clamped to [0, 1] and rounded to 8 bits; then ImageNet's normalisation.
func toRGB(f *feature.Frame, out []float32) {
	w, h := f.Width, f.Height
	n := w * h
	cw, ch := f.PlaneSize(1)
	sx, sy := 0, 0
	if cw < w {
		sx = 1
	}
	if ch < h {
		sy = 1
	}
	var lut [3][256]float32 // per channel: an 8-bit value, normalised
	for c := range 3 {
		for v := range 256 {
			lut[c][v] = (float32(v)/255 - mean[c]) / std[c]
		}
	}
	for y := range h {
		for x := range w {
			Y := sample8(f.Planes[0], x, y)
			U := sample8(f.Planes[1], x>>sx, y>>sy)
			V := sample8(f.Planes[2], x>>sx, y>>sy)
			yf := (float32(Y) - 16) / 219
			uf := (float32(U) - 128) / 224
			vf := (float32(V) - 128) / 224
			r := yf + 1.28033*vf
			g := yf - 0.21482*uf - 0.38059*vf
			b := yf + 2.12798*uf
			i := y*w + x
			out[i] = lut[0][to8(r)]
			out[n+i] = lut[1][to8(g)]
			out[2*n+i] = lut[2][to8(b)]
		}
	}
}

// sample8 is sample (x, y) reduced to 8 bits with rounding.
func sample8(p feature.Plane, x, y int) int {
	v := p.At(x, y)
	if p.BitDepth > 8 {
		sh := p.BitDepth - 8
		v = min((v+(1<<(sh-1)))>>sh, 255)
	}
	return v
}

// to8 clamps a [0, 1] channel and rounds it to 8 bits.
func to8(c float32) int {
	c = min(max(c, 0), 1)
	return int(math.RoundToEven(float64(c * 255)))
}
