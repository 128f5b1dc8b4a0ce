package adm

// ADM runs each level one band row at a time: transform row i of both
// pictures, decouple and CSF-weight it, then mask row i-1, whose
// neighbours are now all known. Only the LL bands, which the next level
// reads, are kept whole; the detail bands live in rings of three rows, so
// that a level's working set stays in cache.

// admRingKinds counts the bands a ring holds: restored and additive
// detail, and their maskers and threshold contributions.
const admRingKinds = 6

const (
	admRst = iota
	admAdd
	admMR // masker made from the restored detail
	admFR // its threshold contributions
	admMA // masker made from the additive detail
	admFA
)

// admRing holds rows of the decoupled bands of one level, indexed by kind,
// orientation and row modulo 3. Each row has one column of padding on
// either side (column j is at index j+1) for the masking filter's reach.
type admRing[T int16 | int32] [admRingKinds][3][3][]T

func newADMRing[T int16 | int32](w int) *admRing[T] {
	var r admRing[T]
	for k := range r {
		for t := range r[k] {
			for s := range r[k][t] {
				r[k][t][s] = make([]T, w+2)
			}
		}
	}
	return &r
}

// rows returns kind k's rows of band row i, columns [c0, c1) plus pad
// columns on either side.
func (r *admRing[T]) rows(k, i, c0, c1, pad int) [3][]T {
	s := i % 3
	return [3][]T{r[k][0][s][c0+1-pad : c1+1+pad], r[k][1][s][c0+1-pad : c1+1+pad], r[k][2][s][c0+1-pad : c1+1+pad]}
}

// padColumns mirrors the threshold contributions of band row i into the
// padding when the decoupled window reaches an edge of the w-column band:
// column -1 reads column 1 and column w column w-1.
func (r *admRing[T]) padColumns(i, c0, c1, w int) {
	s := i % 3
	for _, k := range [2]int{admFR, admFA} {
		for t := range 3 {
			row := r[k][t][s]
			if c0 == 0 {
				row[0] = row[1+min(1, w-1)]
			}
			if c1 == w {
				row[w+1] = row[w]
			}
		}
	}
}

// decouple0Row decouples level-0 band row i (in a.ref16, a.dis16) over
// the padded pooling window into the rings.
func (a *adm) decouple0Row(i int) {
	w := a.bw[0]
	c0, c1 := admBorderPadded(w)
	g := a.ring16
	d := &a.dec16
	for t := range 3 {
		d.o[t], d.t[t] = a.ref16[t][c0:c1], a.dis16[t][c0:c1]
	}
	d.rst, d.add = g.rows(admRst, i, c0, c1, 0), g.rows(admAdd, i, c0, c1, 0)
	d.mR, d.fR = g.rows(admMR, i, c0, c1, 0), g.rows(admFR, i, c0, c1, 0)
	d.mA, d.fA = g.rows(admMA, i, c0, c1, 0), g.rows(admFA, i, c0, c1, 0)
	a.kern.decouple0(d, a.gain)
	g.padColumns(i, c0, c1, w)
}

// decoupleNRow is decouple0Row for level l (1..3).
func (a *adm) decoupleNRow(l, i int) {
	w := a.bw[l]
	c0, c1 := admBorderPadded(w)
	g := a.ring32
	d := &a.dec32
	for t := range 3 {
		d.o[t], d.t[t] = a.ref32[t][c0:c1], a.dis32[t][c0:c1]
		d.rf[t] = int64(a.csf.rf32[l][t])
	}
	d.rst, d.add = g.rows(admRst, i, c0, c1, 0), g.rows(admAdd, i, c0, c1, 0)
	d.mR, d.fR = g.rows(admMR, i, c0, c1, 0), g.rows(admFR, i, c0, c1, 0)
	d.mA, d.fA = g.rows(admMA, i, c0, c1, 0), g.rows(admFA, i, c0, c1, 0)
	a.kern.decoupleN(d, a.gain)
	g.padColumns(i, c0, c1, w)
}

// cm0Row masks level-0 band row r both ways and returns the row's sums:
// restored detail against the additive masker (DLM numerator) and
// additive detail against the restored masker (AIM).
func (a *adm) cm0Row(r int) (num, aim [3]int64) {
	w, h := a.bw[0], a.bh[0]
	x0, x1 := admBorder(w)
	// libvmaf's AVX-512 loop covers the rows away from the band edge and
	// whole blocks of 14 columns, when the window is inside the band.
	v1 := x0
	if x0 > 0 && r != 0 && r != h-1 {
		v1 = x1 - (x1-x0)%14
	}
	num = a.cm0Part(admRst, admMA, admFA, r, x0, v1, x1)
	aim = a.cm0Part(admAdd, admMR, admFR, r, x0, v1, x1)
	// The bias goes to every column, and to the two lanes past the 14
	// columns of each vector block as well.
	terms := int64(x1 - x0 + 2*((v1-x0)/14))
	for t, b := range a.cm0Bias {
		num[t] += b * terms
		aim[t] += b * terms
	}
	return num, aim
}

// cm0Part masks ring kind src against masker kind msk with contributions
// flt over columns [x0, x1), the centre term truncated from v1 on.
func (a *adm) cm0Part(src, msk, flt, r, x0, v1, x1 int) (acc [3]int64) {
	up, dn := admRowNeighbours(r, a.bh[0])
	g, c := a.ring16, &a.cm16
	for _, part := range [2][2]int{{x0, v1}, {v1, x1}} {
		c0, c1 := part[0], part[1]
		if c0 == c1 {
			continue
		}
		c.src, c.msk = g.rows(src, r, c0, c1, 0), g.rows(msk, r, c0, c1, 0)
		c.fUp, c.fMid, c.fDn = g.rows(flt, up, c0, c1, 1), g.rows(flt, r, c0, c1, 1), g.rows(flt, dn, c0, c1, 1)
		s := a.kern.cm0(c, &a.cm0P, c0 == v1)
		for t := range acc {
			acc[t] += s[t]
		}
	}
	return acc
}

// cmNRow is cm0Row for level l (1..3), which has no truncation.
func (a *adm) cmNRow(l, r int) (num, aim [3]int64) {
	x0, x1 := admBorder(a.bw[l])
	up, dn := admRowNeighbours(r, a.bh[l])
	g, c := a.ring32, &a.cm32
	for n, kinds := range [2][3]int{{admRst, admMA, admFA}, {admAdd, admMR, admFR}} {
		c.src, c.msk = g.rows(kinds[0], r, x0, x1, 0), g.rows(kinds[1], r, x0, x1, 0)
		f := kinds[2]
		c.fUp, c.fMid, c.fDn = g.rows(f, up, x0, x1, 1), g.rows(f, r, x0, x1, 1), g.rows(f, dn, x0, x1, 1)
		s := a.kern.cmN(c, &a.cmNP)
		if n == 0 {
			num = s
		} else {
			aim = s
		}
	}
	return num, aim
}
