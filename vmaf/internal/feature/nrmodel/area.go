package nrmodel

import "github.com/vmafsink/vmafsink/vmaf/internal/feature"

// axis holds, for each output sample along one axis, the source samples
// it covers and their fixed-point weights: the share of the output
// sample's footprint each source sample overlaps (FFmpeg's "area"
// scaling), summing to exactly one.
type axis struct {
	first []int
	w     [][]int32
}

// newAxis maps src samples onto dst with weights in bits of precision:
// output i's footprint is [i·src/dst, (i+1)·src/dst) in source samples,
// each source sample j covering [j, j+1). Rounding error is carried from
// weight to weight so that each output's weights sum to 1<<bits.
func newAxis(src, dst, bits int) axis {
	a := axis{first: make([]int, dst), w: make([][]int32, dst)}
	scale := float64(src) / float64(dst)
	one := float64(int(1) << bits)
	for i := range dst {
		lo, hi := float64(i)*scale, float64(i+1)*scale
		j0 := int(lo)
		j1 := min(int(hi+1-1e-9), src) // last covered sample + 1
		if j1 <= j0 {
			j1 = j0 + 1
		}
		a.first[i] = j0
		ws := make([]int32, j1-j0)
		carry := 0.0
		for j := j0; j < j1; j++ {
			v := (min(hi, float64(j+1))-max(lo, float64(j)))/scale*one + carry
			q := float64(int64(v + 0.5))
			ws[j-j0] = int32(q)
			carry = v - q
		}
		a.w[i] = ws
	}
	return a
}

// scaler area-scales a luma plane to size x size 8-bit values.
type scaler struct {
	w, h, size int
	ax, ay     axis
	rows       []int32 // src height x size, the horizontal pass
}

func newScaler(w, h, size int) *scaler {
	return &scaler{w: w, h: h, size: size, ax: newAxis(w, size, 14), ay: newAxis(h, size, 12), rows: make([]int32, h*size)}
}

// dither8 is swscale's ordered dither for reducing deeper samples to 8
// bits, by output row; 8-bit input is rounded (64 throughout).
var dither8 = [8][8]int32{
	{36, 68, 60, 92, 34, 66, 58, 90},
	{100, 4, 124, 28, 98, 2, 122, 26},
	{52, 84, 44, 76, 50, 82, 42, 74},
	{116, 20, 108, 12, 114, 18, 106, 10},
	{32, 64, 56, 88, 38, 70, 62, 94},
	{96, 0, 120, 24, 102, 6, 126, 30},
	{48, 80, 40, 72, 54, 86, 46, 78},
	{112, 16, 104, 8, 118, 22, 110, 14},
}

// scale writes the plane's area-scaled samples into out (size x size,
// row-major) as the model was trained on them: FFmpeg's
// scale=S:S:flags=area to 8-bit gray, which also maps the video's
// limited range (16..235) to gray's full range, then divided by 255.
// The arithmetic follows swscale's: a horizontal pass to 15-bit
// intermediates with 14-bit weights, the range expanded on them with
// swscale's fixed-point constants, and a vertical pass with 12-bit
// weights to 8 bits, rounded (8-bit input) or dithered (deeper input),
// with the x86 vertical pass's own rounding.
func (s *scaler) scale(p feature.Plane, out []float32) {
	n := s.size
	sh := uint(p.BitDepth - 1)
	for y := range s.h {
		r := s.rows[y*n : (y+1)*n]
		if p.BitDepth == 8 {
			row := p.Row8(y)
			for i := range n {
				var acc int64
				for k, wt := range s.ax.w[i] {
					acc += int64(wt) * int64(row[s.ax.first[i]+k])
				}
				r[i] = toFullRange(min(acc>>sh, 1<<15-1))
			}
		} else {
			row := p.Row16(y)
			for i := range n {
				var acc int64
				for k, wt := range s.ax.w[i] {
					acc += int64(wt) * int64(row[s.ax.first[i]+k])
				}
				r[i] = toFullRange(min(acc>>sh, 1<<15-1))
			}
		}
	}
	taps := 0
	for _, ws := range s.ay.w {
		taps = max(taps, len(ws))
	}
	for oy := range n {
		ws, y0 := s.ay.w[oy], s.ay.first[oy]
		o := out[oy*n : (oy+1)*n]
		for i := range n {
			d := int32(64)
			if p.BitDepth > 8 {
				d = dither8[oy&7][i&7]
			}
			// swscale's vertical pass on x86 (FFmpeg's default, without
			// accurate_rnd): each tap's product keeps its high 16 bits, the
			// dither and a per-tap allowance for that truncation start the
			// sum, and three bits are dropped at the end.
			acc := (d + 8*int32(taps)) >> 4
			for k, wt := range ws {
				acc += (wt * s.rows[(y0+k)*n+i]) >> 16
			}
			v := max(min(acc>>3, 255), 0)
			o[i] = float32(v) / 255
		}
	}
}

// toFullRange maps a 15-bit limited-range luma intermediate to full
// range with swscale's constants: (min(v, 30189)·19077 − 39057361) >> 14.
func toFullRange(v int64) int32 {
	return int32((min(v, 30189)*19077 - 39057361) >> 14)
}
