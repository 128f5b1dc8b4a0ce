package nrmodel

import "github.com/vmafsink/vmafsink/vmaf/internal/feature"

// axis holds, for each output sample along one axis, the source samples
// it covers and their weights: the share of the output sample's footprint
// each source sample overlaps, FFmpeg's "area" scaling.
type axis struct {
	first []int
	w     [][]float32
}

// newAxis maps src samples onto dst: output i's footprint is
// [i·src/dst, (i+1)·src/dst) in source samples, each source sample j
// covering [j, j+1).
func newAxis(src, dst int) axis {
	a := axis{first: make([]int, dst), w: make([][]float32, dst)}
	scale := float64(src) / float64(dst)
	for i := range dst {
		lo, hi := float64(i)*scale, float64(i+1)*scale
		j0 := int(lo)
		j1 := min(int(hi+1-1e-9), src) // last covered sample + 1
		if j1 <= j0 {
			j1 = j0 + 1
		}
		a.first[i] = j0
		ws := make([]float32, j1-j0)
		for j := j0; j < j1; j++ {
			ws[j-j0] = float32((min(hi, float64(j+1)) - max(lo, float64(j))) / scale)
		}
		a.w[i] = ws
	}
	return a
}

// scaler area-scales a luma plane to size x size 8-bit values.
type scaler struct {
	w, h, size int
	ax, ay     axis
	rows       []float32 // src height x size, the horizontal pass
}

func newScaler(w, h, size int) *scaler {
	return &scaler{w: w, h: h, size: size, ax: newAxis(w, size), ay: newAxis(h, size), rows: make([]float32, h*size)}
}

// scale writes the plane's area-scaled samples, reduced to 8 bits with
// rounding and divided by 255, into out (size x size, row-major).
func (s *scaler) scale(p feature.Plane, out []float32) {
	n := s.size
	for y := range s.h {
		r := s.rows[y*n : (y+1)*n]
		if p.BitDepth == 8 {
			row := p.Row8(y)
			for i := range n {
				var acc float32
				for k, wt := range s.ax.w[i] {
					acc += wt * float32(row[s.ax.first[i]+k])
				}
				r[i] = acc
			}
		} else {
			row := p.Row16(y)
			for i := range n {
				var acc float32
				for k, wt := range s.ax.w[i] {
					acc += wt * float32(row[s.ax.first[i]+k])
				}
				r[i] = acc
			}
		}
	}
	div := float32(int(1) << (p.BitDepth - 8))
	for oy := range n {
		ws, y0 := s.ay.w[oy], s.ay.first[oy]
		o := out[oy*n : (oy+1)*n]
		for i := range n {
			var acc float32
			for k, wt := range ws {
				acc += wt * s.rows[(y0+k)*n+i]
			}
			v := float32(int(acc/div + 0.5))
			o[i] = min(v, 255) / 255
		}
	}
}
