package speed

import "github.com/vmafsink/vmafsink/vmaf/internal/feature"

// difference is a plane of frame differences, prev − cur, each scaled by
// inv to the 8-bit range, that speed_temporal computes row by row as the
// antialiasing blur reads it rather than writing it out first. prev
// holds rows of the previous frame's samples w apart (8-bit in prev8,
// deeper in prev16).
type difference struct {
	prev8  []byte
	prev16 []uint16
	cur    feature.Plane
	inv    float32
}

// blurDecimateDiff is blurDecimate of the w×h plane d: the same column
// sums (each difference is exact in float32, as diffRow makes it, and
// then multiplied by its tap), the same decimated rows.
func blurDecimateDiff(dst []float32, d difference, w, h, dw, dh int, f, col []float32, avx2 bool) {
	r := len(f) / 2
	var ii [64]int
	var p8, c8 [64]*byte
	var p16, c16 [64]*uint16
	vec := 0
	if avx2 {
		vec = w &^ 7
	}
	deep := d.cur.BitDepth > 8
	for a := 0; a < dh; a++ {
		i := a << numScales
		for k := range f {
			ii[k] = reflect(i-r+k, h)
		}
		if vec > 0 {
			for k := range f {
				if deep {
					p16[k], c16[k] = &d.prev16[ii[k]*w], &d.cur.Row16(ii[k])[0]
				} else {
					p8[k], c8[k] = &d.prev8[ii[k]*w], &d.cur.Row8(ii[k])[0]
				}
			}
			if deep {
				columnsDiff16AVX2(&col[0], p16[:len(f)], c16[:len(f)], f, d.inv, vec)
			} else {
				columnsDiff8AVX2(&col[0], p8[:len(f)], c8[:len(f)], f, vec)
			}
		}
		for k, c := range f {
			out := col[vec:w]
			if deep {
				prev, cur := d.prev16[ii[k]*w+vec:ii[k]*w+w], d.cur.Row16(ii[k])[vec:w]
				for j := range out {
					v := float32(int32(prev[j])-int32(cur[j])) * d.inv
					if k == 0 {
						out[j] = c * v
					} else {
						out[j] += c * v
					}
				}
				continue
			}
			prev, cur := d.prev8[ii[k]*w+vec:ii[k]*w+w], d.cur.Row8(ii[k])[vec:w]
			for j := range out {
				v := float32(int32(prev[j]) - int32(cur[j]))
				if k == 0 {
					out[j] = c * v
				} else {
					out[j] += c * v
				}
			}
		}
		decimateRow(dst[a*dw:(a+1)*dw], col, f)
	}
}
