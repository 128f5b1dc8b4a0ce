package speed

import "math"

// scaleMethod is how a plane is prescaled.
type scaleMethod int

const (
	nearest scaleMethod = iota
	bilinear
	bicubic
	lanczos4
)

var scaleMethods = map[string]scaleMethod{
	"nearest": nearest, "bilinear": bilinear, "bicubic": bicubic, "lanczos4": lanczos4,
}

// scaler resizes sw×sh planes to dw×dh as libvmaf's VIF scaler does, in
// float32 with its sampling positions and mirrored borders.
type scaler struct {
	method         scaleMethod
	sw, sh, dw, dh int
	rx, ry         float32
	// bilinear column table
	x1, x2 []int
	dx     []float32
}

func newScaler(m scaleMethod, sw, sh, dw, dh int) *scaler {
	s := &scaler{method: m, sw: sw, sh: sh, dw: dw, dh: dh,
		rx: float32(sw) / float32(dw), ry: float32(sh) / float32(dh)}
	if m == bilinear {
		s.x1, s.x2, s.dx = make([]int, dw), make([]int, dw), make([]float32, dw)
		for x := 0; x < dw; x++ {
			xx := s.centre(x, s.rx)
			s.x1[x] = mirrorF(float32(math.Floor(float64(xx))), sw-1)
			s.x2[x] = mirrorF(float32(math.Ceil(float64(xx))), sw-1)
			s.dx[x] = xx - float32(s.x1[x])
		}
	}
	return s
}

// centre is the source position of destination sample i: (i + ½)·ratio − ½,
// in double, stored in float32.
func (s *scaler) centre(i int, ratio float32) float32 {
	return float32((float64(i)+0.5)*float64(ratio) - 0.5)
}

// mirrorF reflects a position outside 0..right about the edge samples,
// as a float like libvmaf's, then truncates it to an index.
func mirrorF(i float32, right int) int {
	r := float32(right)
	switch {
	case i < 0:
		i = -i
	case i > r:
		i = 2*r - i
	}
	return int(i)
}

func (s *scaler) scale(dst, src []float32) {
	if s.sw == s.dw && s.sh == s.dh {
		copy(dst, src)
		return
	}
	switch s.method {
	case nearest:
		for y := 0; y < s.dh; y++ {
			sy := int(float32(y) * s.ry)
			for x := 0; x < s.dw; x++ {
				dst[y*s.dw+x] = src[sy*s.sw+int(float32(x)*s.rx)]
			}
		}
	case bilinear:
		for y := 0; y < s.dh; y++ {
			yy := s.centre(y, s.ry)
			y1 := mirrorF(float32(math.Floor(float64(yy))), s.sh-1)
			y2 := mirrorF(float32(math.Ceil(float64(yy))), s.sh-1)
			dy := yy - float32(y1)
			r1, r2 := src[y1*s.sw:(y1+1)*s.sw], src[y2*s.sw:(y2+1)*s.sw]
			out := dst[y*s.dw : (y+1)*s.dw]
			for x := range out {
				x1, x2, dx := s.x1[x], s.x2[x], s.dx[x]
				out[x] = (1-dy)*(1-dx)*r1[x1] + (1-dy)*dx*r1[x2] + dy*(1-dx)*r2[x1] + dy*dx*r2[x2]
			}
		}
	case bicubic:
		for y := 0; y < s.dh; y++ {
			yy := s.centre(y, s.ry)
			for x := 0; x < s.dw; x++ {
				dst[y*s.dw+x] = s.bicubicAt(src, s.centre(x, s.rx), yy)
			}
		}
	case lanczos4:
		for y := 0; y < s.dh; y++ {
			yy := s.centre(y, s.ry)
			for x := 0; x < s.dw; x++ {
				dst[y*s.dw+x] = s.lanczosAt(src, s.centre(x, s.rx), yy)
			}
		}
	}
}

func cubic(t float32) float32 {
	const a = float32(-0.75)
	if t < 0 {
		t = -t
	}
	if t < 1 {
		return ((a+2)*t-(a+3))*t*t + 1
	}
	if t < 2 {
		return (((t-5)*t+8)*t - 4) * a
	}
	return 0
}

func (s *scaler) bicubicAt(src []float32, x, y float32) float32 {
	x0, y0 := int(math.Floor(float64(x))), int(math.Floor(float64(y)))
	dx, dy := x-float32(x0), y-float32(y0)
	var wx, wy [4]float32
	for i := -1; i <= 2; i++ {
		wx[i+1] = cubic(float32(i) - dx)
		wy[i+1] = cubic(float32(i) - dy)
	}
	var v float32
	for j := -1; j <= 2; j++ {
		yi := mirrorF(float32(y0+j), s.sh-1)
		for i := -1; i <= 2; i++ {
			xi := mirrorF(float32(x0+i), s.sw-1)
			v += src[yi*s.sw+xi] * (wx[i+1] * wy[j+1])
		}
	}
	return v
}

const lanczosA = 4

func lanczos(x float32) float32 {
	if x == 0 {
		return 1
	}
	if x > -lanczosA && x < lanczosA {
		// π as a float64 variable, so that π·π is rounded as C rounds it
		// rather than folded exactly.
		xd, a, pi := float64(x), float64(lanczosA), math.Pi
		return float32(a * math.Sin(pi*xd) * math.Sin(pi*xd/a) / (pi * pi * xd * xd))
	}
	return 0
}

func (s *scaler) lanczosAt(src []float32, x, y float32) float32 {
	x0, y0 := int(math.Floor(float64(x))), int(math.Floor(float64(y)))
	dx, dy := x-float32(x0), y-float32(y0)
	var wx, wy [2*lanczosA + 1]float32
	for i := -lanczosA; i <= lanczosA; i++ {
		wx[i+lanczosA] = lanczos(float32(i) - dx)
		wy[i+lanczosA] = lanczos(float32(i) - dy)
	}
	var v, sum float32
	for j := -lanczosA; j <= lanczosA; j++ {
		yi := mirrorF(float32(y0+j), s.sh-1)
		for i := -lanczosA; i <= lanczosA; i++ {
			w := wx[i+lanczosA] * wy[j+lanczosA]
			sum += w
			xi := mirrorF(float32(x0+i), s.sw-1)
			v += src[yi*s.sw+xi] * w
		}
	}
	return v / sum
}
