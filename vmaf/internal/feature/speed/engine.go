package speed

import (
	"fmt"
	"math"
)

// blockSize is the side of the blocks the Gaussian scale mixture models;
// block is their sample count.
const (
	blockSize = 5
	block     = blockSize * blockSize
)

// log2TwoPiE is log2(2πe), the constant term of a Gaussian's entropy,
// with 2πe rounded step by step in double as C computes it.
var log2TwoPiE = func() float64 {
	two, pi, e := 2.0, math.Pi, math.E
	return math.Log2(two * pi * e)
}()

// dims are the sizes SpEED works with for one plane size and prescale.
type dims struct {
	w, h       int // the plane
	sw, sh     int // after prescaling
	dw, dh     int // after decimation by 16
	nbh, nbv   int // whole blocks across and down
	nb         int
	subW, subH int // the span of each of a block's 25 sample positions
}

func newDims(name string, w, h int, p params) (dims, error) {
	d := dims{w: w, h: h}
	d.sw = int(float64(w)*p.prescale + 0.5)
	d.sh = int(float64(h)*p.prescale + 0.5)
	if !p.rescales() && (d.sw != w || d.sh != h) {
		// libvmaf skips rescaling for factors this close to 1 yet works on
		// the rescaled size, reading samples it never wrote.
		return dims{}, fmt.Errorf("feature %s: option %s=%g is within 1e-3 of 1 but changes the %dx%d plane's size; use 1", name, optPrescale, p.prescale, w, h)
	}
	d.dw, d.dh = d.sw>>numScales, d.sh>>numScales
	d.nbh, d.nbv = d.dw/blockSize, d.dh/blockSize
	d.nb = d.nbh * d.nbv
	if d.nb == 0 {
		return dims{}, fmt.Errorf("feature %s: plane %dx%d (%dx%d after prescaling) is too small: SpEED needs at least %dx%d",
			name, w, h, d.sw, d.sh, blockSize<<numScales, blockSize<<numScales)
	}
	d.subW = d.nbh*blockSize - blockSize + 1
	d.subH = d.nbv*blockSize - blockSize + 1
	return d, nil
}

// result is one picture's per-block entropies and variances.
type result struct{ entropy, variance []float32 }

// engine computes SpEED for pairs of planes of one size; it holds all the
// scratch memory, so it allocates nothing per frame.
type engine struct {
	dims
	params
	scaler    *scaler
	scaled    []float32 // the prescaled plane, sw×sh
	antialias []float32
	smooth    []float32 // the scale-4 filter for local means
	col       []float32 // one antialiased row, sw
	down      []float32 // the decimated plane, dw×dh
	mean, tmp []float32 // dw×dh
	centred   [block][]float64
	cov       []float32 // block×block
	eig       []float32
	eigen     *eigenWork
	solver    *solveWork
	y, x      []float32 // block×nb
	ref, dis  result
	avx2      bool // run the vector kernels
}

func newEngine(name string, w, h int, p params) (*engine, error) {
	d, err := newDims(name, w, h, p)
	if err != nil {
		return nil, err
	}
	e := &engine{dims: d, params: p,
		antialias: antialiasFilter(p.kernelScale),
		smooth:    scaleFilter(numScales, p.kernelScale),
		col:       make([]float32, d.sw),
		down:      make([]float32, d.dw*d.dh),
		mean:      make([]float32, d.dw*d.dh),
		tmp:       make([]float32, d.dw*d.dh),
		cov:       make([]float32, block*block),
		eig:       make([]float32, block),
		eigen:     newEigenWork(block),
		solver:    newSolveWork(block, d.nb, hasAVX2()),
		y:         make([]float32, block*d.nb),
		x:         make([]float32, block*d.nb),
		avx2:      hasAVX2(),
	}
	for i := range e.centred {
		e.centred[i] = make([]float64, d.subW*d.subH)
	}
	for _, r := range []*result{&e.ref, &e.dis} {
		r.entropy, r.variance = make([]float32, d.nb), make([]float32, d.nb)
	}
	if p.rescales() {
		e.scaled = make([]float32, d.sw*d.sh)
		e.scaler = newScaler(p.method, w, h, d.sw, d.sh)
	}
	return e, nil
}

// score is SpEED between two planes of w×h floats (which it leaves
// as they are), and whether either's covariance could not be inverted.
func (e *engine) score(ref, dis []float32) (float32, bool) {
	e.reduce(ref)
	okRef := e.estimate(&e.ref)
	e.reduce(dis)
	okDis := e.estimate(&e.dis)
	return e.conclude(okRef, okDis)
}

// scoreSource is score between two planes converted as they are read;
// only for an engine that does not prescale.
func (e *engine) scoreSource(ref, dis source) (float32, bool) {
	e.reduceSource(ref)
	okRef := e.estimate(&e.ref)
	e.reduceSource(dis)
	okDis := e.estimate(&e.dis)
	return e.conclude(okRef, okDis)
}

// conclude is the score once both pictures are estimated.
func (e *engine) conclude(okRef, okDis bool) (float32, bool) {
	singular := !okRef || !okDis
	if okRef != okDis {
		// One side unstable alone: libvmaf reports 0 rather than a score
		// inflated by the zeroed side.
		return 0, singular
	}
	return e.compare(), singular
}

// reduce leaves in e.down the plane prescaled, blurred, decimated by 16
// and with its local (scale-4 Gaussian) mean subtracted.
func (e *engine) reduce(src []float32) {
	if e.scaler != nil {
		e.scaler.scale(e.scaled, src)
		src = e.scaled
	}
	blurDecimate(e.down, src, e.sw, e.sh, e.dw, e.dh, e.antialias, e.col, e.avx2)
	e.centre()
}

// reduceSource is reduce for a plane converted as it is read.
func (e *engine) reduceSource(s source) {
	blurDecimateSource(e.down, s, e.w, e.h, e.dw, e.dh, e.antialias, e.col, e.avx2)
	e.centre()
}

// centre subtracts from e.down its local mean.
func (e *engine) centre() {
	blur(e.mean, e.down, e.tmp, e.dw, e.dh, e.smooth)
	for i, m := range e.mean {
		e.down[i] -= m
	}
}

// compare is the mean over blocks of the difference of the two pictures'
// variance-weighted entropies, blocks below the noise's entropy in both
// counting zero.
func (e *engine) compare() float32 {
	base := float32(float64(block) * (math.Log2(float64((1+e.nnFloor)*e.sigmaNN)) + log2TwoPiE))
	var sum float32
	for i := 0; i < e.nb; i++ {
		er, ed := e.ref.entropy[i], e.dis.entropy[i]
		if er < base && ed < base {
			continue
		}
		vr, vd := e.ref.variance[i], e.dis.variance[i]
		var wr, wd float64
		switch e.weightMode {
		case 0:
			wr, wd = math.Log2(float64(1+vr)), math.Log2(float64(1+vd))
		case 1:
			wr = math.Log2(float64(1 + vr))
			wd = wr
		case 2:
			wd = math.Log2(float64(1 + vd))
			wr = wd
		case 3:
			wr = math.Log2(1 + float64(vr+vd)/2.0)
			wd = wr
		case 4:
			wr, wd = math.Log2(float64(1+vr)), math.Log2(1+float64(vr+vd)/2.0)
		case 5:
			wr, wd = math.Log2(float64(1+vr)), math.Log2(1+(0.75*float64(vr)+0.25*float64(vd)))
		case 6:
			wr, wd = math.Log2(float64(1+vr)), math.Log2(1+(0.25*float64(vr)+0.75*float64(vd)))
		}
		sr := float32(float64(er) * wr)
		sd := float32(float64(ed) * wd)
		sum += abs32(sr - sd)
	}
	return sum / float32(e.nb)
}

// rowsRead marks the rows of a w×h plane that score reads: all when it
// prescales, else only those the antialiasing filter reaches from the
// rows decimation keeps.
func (e *engine) rowsRead() []bool {
	rows := make([]bool, e.h)
	if e.scaler != nil {
		for i := range rows {
			rows[i] = true
		}
		return rows
	}
	r := len(e.antialias) / 2
	for a := 0; a < e.dh; a++ {
		for k := range e.antialias {
			rows[reflect(a<<numScales-r+k, e.h)] = true
		}
	}
	return rows
}
