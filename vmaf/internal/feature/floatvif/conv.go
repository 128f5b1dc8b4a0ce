package floatvif

// plane is a float32 picture, rows stride samples apart.
type plane struct {
	data   []float32
	w, h   int
	stride int
}

func newPlane(w, h int) plane {
	return plane{data: make([]float32, w*h), w: w, h: h, stride: w}
}

func (p plane) row(y int) []float32 { return p.data[y*p.stride : y*p.stride+p.w] }

// reflect maps a tap outside 0..n-1 back inside by mirroring about the
// first and last samples (the edge sample is not repeated), libvmaf's
// border rule for its float filters.
func reflect(t, n int) int {
	if t < 0 {
		return -t
	}
	if t >= n {
		return 2*n - 2 - t
	}
	return t
}

// rows is the scratch of the separable filters: for each filtered
// quantity, the vertical pass's row with room for the reflected margins
// the horizontal pass reads, and the horizontal pass's output row.
type rows struct {
	ext    [5][]float32
	out    [5][]float32
	nv, dv []float32 // the statistic's per-sample terms
	// ra and rb point at the rows of ref and dis under each tap, for the
	// vector filters.
	ra, rb []*float32
	avx2   bool // run the vector filters
}

func newRows(w, radius int) *rows {
	r := &rows{ra: make([]*float32, 2*radius+1), rb: make([]*float32, 2*radius+1),
		nv: make([]float32, w), dv: make([]float32, w), avx2: hasAVX2()}
	for c := range r.ext {
		r.ext[c] = make([]float32, w+2*radius)
		r.out[c] = make([]float32, w)
	}
	return r
}

// Both passes of libvmaf's separable filter sum the taps in order from
// zero in float32, one product rounded at a time, vertical pass first;
// its AVX code keeps that order per sample, so these loops give the same
// bits as long as each product is rounded before it is added, which the
// explicit float32 conversions guarantee (they forbid fused multiply-add).

// vertical5 filters column-wise, at row i, the means of ref and dis, their
// squares and their product, into the middle of the ext rows.
func (s *rows) vertical5(ref, dis plane, f []float32, i int) {
	w, r := ref.w, len(f)/2
	from := 0
	if s.avx2 && w >= 8 {
		ra, rb := s.ra[:len(f)], s.rb[:len(f)]
		for k := range f {
			y := reflect(i-r+k, ref.h)
			ra[k], rb[k] = &ref.data[y*ref.stride], &dis.data[y*dis.stride]
		}
		from = w &^ 7
		vconv5(&s.ext[0][r], &s.ext[1][r], &s.ext[2][r], &s.ext[3][r], &s.ext[4][r], ra, rb, f, from)
	}
	m1, m2 := s.ext[0][r+from:r+w], s.ext[1][r+from:r+w]
	xx, yy, xy := s.ext[2][r+from:r+w], s.ext[3][r+from:r+w], s.ext[4][r+from:r+w]
	clear(m1)
	clear(m2)
	clear(xx)
	clear(yy)
	clear(xy)
	n := w - from
	for k, fk := range f {
		y := reflect(i-r+k, ref.h)
		a, b := ref.row(y)[from:w], dis.row(y)[from:w]
		for j := range n {
			x, d := a[j], b[j]
			m1[j] += float32(fk * x)
			m2[j] += float32(fk * d)
			xx[j] += float32(fk * float32(x*x))
			yy[j] += float32(fk * float32(d*d))
			xy[j] += float32(fk * float32(x*d))
		}
	}
}

// vertical2 is vertical5 for the means alone.
func (s *rows) vertical2(ref, dis plane, f []float32, i int) {
	w, r := ref.w, len(f)/2
	from := 0
	if s.avx2 && w >= 8 {
		ra, rb := s.ra[:len(f)], s.rb[:len(f)]
		for k := range f {
			y := reflect(i-r+k, ref.h)
			ra[k], rb[k] = &ref.data[y*ref.stride], &dis.data[y*dis.stride]
		}
		from = w &^ 7
		vconv2(&s.ext[0][r], &s.ext[1][r], ra, rb, f, from)
	}
	m1, m2 := s.ext[0][r+from:r+w], s.ext[1][r+from:r+w]
	clear(m1)
	clear(m2)
	n := w - from
	for k, fk := range f {
		y := reflect(i-r+k, ref.h)
		a, b := ref.row(y)[from:w], dis.row(y)[from:w]
		for j := range n {
			m1[j] += float32(fk * a[j])
			m2[j] += float32(fk * b[j])
		}
	}
}

// margins fills ext row c's reflected borders from its middle w samples.
func (s *rows) margins(c, w, r int) {
	e := s.ext[c]
	for t := range r {
		e[r-1-t] = e[r+1+t]
		e[r+w+t] = e[r+w-2-t]
	}
}

// horizontal filters ext row c along the row into out row c.
func (s *rows) horizontal(c int, f []float32, w int) {
	from := 0
	if s.avx2 && w >= 8 {
		from = w &^ 7
		hconv(&s.out[c][0], &s.ext[c][0], f, from)
	}
	o := s.out[c][from:w]
	clear(o)
	n := w - from
	for k, fk := range f {
		e := s.ext[c][from+k : from+k+n]
		for j := range n {
			o[j] += float32(fk * e[j])
		}
	}
}

// horizontalEven is horizontal at the even columns only, written to dst
// packed: the filter-then-decimate step between scales. The vector path
// filters every column and keeps the even ones, which is faster than
// skipping the odd ones in scalar code.
func (s *rows) horizontalEven(c int, f []float32, w int, dst []float32) {
	from := 0
	if s.avx2 && w >= 8 {
		n := w &^ 7
		hconv(&s.out[c][0], &s.ext[c][0], f, n)
		from = (n + 1) / 2
		for j := range from {
			dst[j] = s.out[c][2*j]
		}
	}
	e := s.ext[c]
	for j := from; j < len(dst); j++ {
		var acc float32
		for k, fk := range f {
			acc += float32(fk * e[2*j+k])
		}
		dst[j] = acc
	}
}

// scaleSums is one scale's VIF numerator and denominator: the sums, row
// by row, of the statistic of the filtered planes.
func (s *rows) scaleSums(ref, dis plane, f []float32, st *statistic) (num, den float32) {
	w, r := ref.w, len(f)/2
	for i := range ref.h {
		s.vertical5(ref, dis, f, i)
		for c := range 5 {
			s.margins(c, w, r)
			s.horizontal(c, f, w)
		}
		rn, rd := st.row(s.out[0][:w], s.out[1][:w], s.out[2][:w], s.out[3][:w], s.out[4][:w], s.nv, s.dv)
		num += rn
		den += rd
	}
	return num, den
}

// decimate filters ref and dis with the next scale's filter and keeps
// every other sample of every other row, into dref and ddis.
func (s *rows) decimate(ref, dis plane, f []float32, dref, ddis plane) {
	w, r := ref.w, len(f)/2
	for i := range dref.h {
		s.vertical2(ref, dis, f, 2*i)
		s.margins(0, w, r)
		s.margins(1, w, r)
		s.horizontalEven(0, f, w, dref.row(i))
		s.horizontalEven(1, f, w, ddis.row(i))
	}
}
