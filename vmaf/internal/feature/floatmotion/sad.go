package floatmotion

import "math"

// meanAbsDiff is the mean absolute difference of two planes: float32
// sums per row, added row by row, divided in float32, as libvmaf does.
func meanAbsDiff(a, b plane, vec bool) float32 {
	s := absDiffSum{vec: vec}
	y := 0
	for ; y+8 <= a.h; y += 8 {
		s.add8(a, b, y)
	}
	for ; y < a.h; y++ {
		s.add(a, b, y)
	}
	return s.mean(a)
}

// absDiffSum gathers meanAbsDiff's sum, rows in order. With vec, absDiff8
// sums eight rows at once and the scalar loop finishes each row's last
// columns.
type absDiffSum struct {
	sum float32
	vec bool
}

// add8 adds rows y to y+7.
func (s *absDiffSum) add8(a, b plane, y int) {
	cols := 0
	if s.vec && a.stride == b.stride {
		cols = a.w &^ 7
	}
	if cols == 0 {
		for k := range 8 {
			s.add(a, b, y+k)
		}
		return
	}
	var lines [8]float32
	absDiff8(&a.row(y)[0], &b.row(y)[0], a.stride, cols, &lines)
	for k, line := range lines {
		s.sum += lineAbsDiff(a.row(y + k)[cols:], b.row(y + k)[cols:], line)
	}
}

// add adds row y.
func (s *absDiffSum) add(a, b plane, y int) { s.sum += lineAbsDiff(a.row(y), b.row(y), 0) }

func (s *absDiffSum) mean(a plane) float32 { return s.sum / float32(a.w*a.h) }

// lineAbsDiff adds |a[x] − b[x]| to line in order.
func lineAbsDiff(a, b []float32, line float32) float32 {
	b = b[:len(a)]
	for x, v := range a {
		d := v - b[x]
		if d < 0 {
			d = -d
		}
		line += d
	}
	return line
}

// scaleBilinear resamples src to dst's size as libvmaf's bilinear scaler
// does: positions computed in float64 from float32 ratios and rounded to
// float32, mirrored in float32, weights and sums in float32.
func scaleBilinear(src, dst plane) {
	if src.w == dst.w && src.h == dst.h {
		for y := range src.h {
			copy(dst.row(y), src.row(y))
		}
		return
	}
	rx := float32(src.w) / float32(dst.w)
	ry := float32(src.h) / float32(dst.h)
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

// centre is the source position of destination sample x.
func centre(x int, r float32) float32 {
	return float32(float64((float64(x)+0.5)*float64(r)) - 0.5)
}

// index is the sample a position falls on once mirrored into [0, n-1] in
// float32. The clamp only matters for pictures a sample or two wide,
// where libvmaf reads outside the picture.
func index(i float32, n int) int {
	right := float32(n - 1)
	switch {
	case i < 0:
		i = -i
	case i > right:
		i = 2*right - i
	}
	return min(max(int(i), 0), n-1)
}
