package speed

import "github.com/vmafsink/vmafsink/vmaf/internal/feature"

// source is a plane SpEED reads without prescaling, converted row by row
// as the antialiasing blur reads it rather than written out first:
// either a plane's samples as libvmaf's float extractors convert them
// (scaled to the 8-bit range, minus 128), or, with prev, the frame
// differences prev − cur scaled to the 8-bit range. prev holds rows of
// the previous frame's samples w apart (8-bit in prev8, deeper in
// prev16). Every such value is exact in float32.
type source struct {
	prev8  []byte
	prev16 []uint16
	cur    feature.Plane
	scale  float32 // the depth's divisor
}

func (s source) diff() bool { return s.prev8 != nil || s.prev16 != nil }

// blurDecimateSource is blurDecimate of the w×h plane s: the same column
// sums, the same decimated rows.
func blurDecimateSource(dst []float32, s source, w, h, dw, dh int, f, col []float32, avx2 bool) {
	r := len(f) / 2
	var ii [64]int
	var p8, c8 [64]*byte
	var p16, c16 [64]*uint16
	vec := 0
	if avx2 {
		vec = w &^ 7
	}
	deep, diff, inv := s.cur.BitDepth > 8, s.diff(), 1/s.scale
	for a := 0; a < dh; a++ {
		i := a << numScales
		for k := range f {
			ii[k] = reflect(i-r+k, h)
		}
		if vec > 0 {
			for k := range f {
				if deep {
					c16[k] = &s.cur.Row16(ii[k])[0]
					if diff {
						p16[k] = &s.prev16[ii[k]*w]
					}
				} else {
					c8[k] = &s.cur.Row8(ii[k])[0]
					if diff {
						p8[k] = &s.prev8[ii[k]*w]
					}
				}
			}
			switch {
			case deep && diff:
				columnsDiff16AVX2(&col[0], p16[:len(f)], c16[:len(f)], f, inv, vec)
			case diff:
				columnsDiff8AVX2(&col[0], p8[:len(f)], c8[:len(f)], f, vec)
			case deep:
				columnsConv16AVX2(&col[0], c16[:len(f)], f, inv, vec)
			default:
				columnsConv8AVX2(&col[0], c8[:len(f)], f, vec)
			}
		}
		for k, c := range f {
			s.addTap(col[vec:w], ii[k], vec, w, c, k == 0)
		}
		decimateRow(dst[a*dw:(a+1)*dw], col, f)
	}
}

// addTap sets (first) or adds to out the products of c with the values
// of row y from column vec on, converted as diffRow and toFloat do.
func (s source) addTap(out []float32, y, vec, w int, c float32, first bool) {
	for j := range out {
		v := s.value(y, vec+j, w)
		if first {
			out[j] = c * v
		} else {
			out[j] += c * v
		}
	}
}

// value is the converted value at column x of row y.
func (s source) value(y, x, w int) float32 {
	deep := s.cur.BitDepth > 8
	switch {
	case deep && s.diff():
		return float32(int32(s.prev16[y*w+x])-int32(s.cur.Row16(y)[x])) * (1 / s.scale)
	case s.diff():
		return float32(int32(s.prev8[y*w+x]) - int32(s.cur.Row8(y)[x]))
	case deep:
		return float32(s.cur.Row16(y)[x])/s.scale - 128
	}
	return float32(s.cur.Row8(y)[x]) - 128
}
