package floatvif

import "math"

// scaler is a vif_prescale_method.
type scaler int

const (
	scaleNearest scaler = iota
	scaleBilinear
	scaleBicubic
	scaleLanczos4
)

var scalers = map[string]scaler{
	"nearest":  scaleNearest,
	"bilinear": scaleBilinear,
	"bicubic":  scaleBicubic,
	"lanczos4": scaleLanczos4,
}

// bilinearMaxWidth is the widest output libvmaf's bilinear scaler makes.
const bilinearMaxWidth = 7680

// The scalers follow libvmaf's arithmetic: sample positions are computed
// in float64 from float32 ratios and rounded to float32, weights and sums
// are float32, and a position outside the picture is mirrored in float32.

// ratio is libvmaf's float32 quotient of the source and destination sizes.
func ratio(src, dst int) float32 { return float32(src) / float32(dst) }

// centre is the source position of destination sample x.
func centre(x int, r float32) float32 {
	return float32(float64((float64(x)+0.5)*float64(r)) - 0.5)
}

// mirror reflects a float32 position into [0, right].
func mirror(i, right float32) float32 {
	if i < 0 {
		return -i
	}
	if i > right {
		return 2*right - i
	}
	return i
}

// index is the sample a mirrored position falls on. libvmaf reads outside
// the picture where a tiny picture is mirrored beyond its far edge; the
// clamp only keeps those reads inside.
func index(i float32, n int) int {
	k := int(mirror(i, float32(n-1)))
	return min(max(k, 0), n-1)
}

func (m scaler) scale(src, dst plane) {
	if src.w == dst.w && src.h == dst.h {
		for y := range src.h {
			copy(dst.row(y), src.row(y))
		}
		return
	}
	switch m {
	case scaleNearest:
		nearest(src, dst)
	case scaleBilinear:
		bilinear(src, dst)
	case scaleBicubic:
		bicubic(src, dst)
	case scaleLanczos4:
		lanczos4(src, dst)
	}
}

func nearest(src, dst plane) {
	rx, ry := ratio(src.w, dst.w), ratio(src.h, dst.h)
	for y := range dst.h {
		s, d := src.row(int(float32(y)*ry)), dst.row(y)
		for x := range d {
			d[x] = s[int(float32(x)*rx)]
		}
	}
}

func bilinear(src, dst plane) {
	rx, ry := ratio(src.w, dst.w), ratio(src.h, dst.h)
	for y := range dst.h {
		yy := centre(y, ry)
		y1 := index(float32(math.Floor(float64(yy))), src.h)
		y2 := index(float32(math.Ceil(float64(yy))), src.h)
		dy := yy - float32(y1)
		r1, r2, d := src.row(y1), src.row(y2), dst.row(y)
		for x := range d {
			xx := centre(x, rx)
			x1 := index(float32(math.Floor(float64(xx))), src.w)
			x2 := index(float32(math.Ceil(float64(xx))), src.w)
			dx := xx - float32(x1)
			d[x] = float32(float32((1-dy)*(1-dx))*r1[x1]) +
				float32(float32((1-dy)*dx)*r1[x2]) +
				float32(float32(dy*(1-dx))*r2[x1]) +
				float32(float32(dy*dx)*r2[x2])
		}
	}
}

// cubic is the bicubic convolution kernel with a = -0.75.
func cubic(t float32) float32 {
	const a float32 = -0.75
	if t < 0 {
		t = -t
	}
	if t < 1 {
		p := float32((a + 2) * t)
		return float32((p-(a+3))*t*t) + 1
	}
	if t < 2 {
		p := float32((t - 5) * t)
		p = float32((p + 8) * t)
		return (p - 4) * a
	}
	return 0
}

func bicubic(src, dst plane) {
	rx, ry := ratio(src.w, dst.w), ratio(src.h, dst.h)
	var wx, wy [4]float32
	for y := range dst.h {
		yy := centre(y, ry)
		y0 := int(math.Floor(float64(yy)))
		dy := yy - float32(y0)
		for i := range wy {
			wy[i] = cubic(float32(i-1) - dy)
		}
		d := dst.row(y)
		for x := range d {
			xx := centre(x, rx)
			x0 := int(math.Floor(float64(xx)))
			dx := xx - float32(x0)
			for i := range wx {
				wx[i] = cubic(float32(i-1) - dx)
			}
			var v float32
			for j := range 4 {
				row := src.row(index(float32(y0+j-1), src.h))
				for i := range 4 {
					v += float32(row[index(float32(x0+i-1), src.w)] * float32(wx[i]*wy[j]))
				}
			}
			d[x] = v
		}
	}
}

// lanczos is the Lanczos kernel of radius a, evaluated in float64 from a
// float32 position as libvmaf does, and rounded to float32.
func lanczos(x, a float32) float32 {
	if x == 0 {
		return 1
	}
	if x > -a && x < a {
		pi := float64(math.Pi)
		px := pi * float64(x)
		num := float64(float64(a)*math.Sin(px)) * math.Sin(px/float64(a))
		return float32(num / float64(float64(pi*pi)*float64(x)*float64(x)))
	}
	return 0
}

func lanczos4(src, dst plane) {
	const a = 4
	rx, ry := ratio(src.w, dst.w), ratio(src.h, dst.h)
	var wx, wy [2*a + 1]float32
	for y := range dst.h {
		yy := centre(y, ry)
		y0 := int(math.Floor(float64(yy)))
		dy := yy - float32(y0)
		for i := range wy {
			wy[i] = lanczos(float32(i-a)-dy, a)
		}
		d := dst.row(y)
		for x := range d {
			xx := centre(x, rx)
			x0 := int(math.Floor(float64(xx)))
			dx := xx - float32(x0)
			for i := range wx {
				wx[i] = lanczos(float32(i-a)-dx, a)
			}
			var v, sum float32
			for j := range wy {
				row := src.row(index(float32(y0+j-a), src.h))
				for i := range wx {
					w := float32(wx[i] * wy[j])
					sum += w
					v += float32(row[index(float32(x0+i-a), src.w)] * w)
				}
			}
			d[x] = v / sum
		}
	}
}
