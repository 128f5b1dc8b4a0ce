package floatvif

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestVectorMatchesScalar checks that the AVX2 filters and statistic
// give the scalar code's bits on random rows that include the statistic's
// edge cases (negative, zero and tiny variances, negative covariance).
func TestVectorMatchesScalar(t *testing.T) {
	if !hasAVX2() {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const w = 203
	val := func() float32 {
		switch rng.IntN(8) {
		case 0:
			return 0
		case 1:
			return float32(rng.NormFloat64() * 1e-6)
		}
		return float32(rng.NormFloat64() * 60)
	}
	for _, nsq := range []float64{2, 1.1, 0.3, 5, 0} {
		for _, limit := range []float64{100, 1, 1.7} {
			st := newStatistic(limit, nsq)
			var in [5][]float32
			for c := range in {
				in[c] = make([]float32, w)
				for j := range in[c] {
					in[c][j] = val()
				}
			}
			// Make some variances near zero or negative, and some
			// covariances negative.
			for j := range w {
				switch rng.IntN(4) {
				case 0:
					in[2][j] = in[0][j]*in[0][j] + float32(rng.NormFloat64()*1e-9)
				case 1:
					in[3][j] = in[1][j] * in[1][j]
				case 2:
					in[4][j] = in[0][j]*in[1][j] - float32(rng.Float64()*100)
				}
			}
			nv, dv := make([]float32, w), make([]float32, w)
			statVec(&in[0][0], &in[1][0], &in[2][0], &in[3][0], &in[4][0], &nv[0], &dv[0], w&^7, st.gainLimit, st.sigmaMaxInv, st.below, st.sigmaNsq)
			for j := range w &^ 7 {
				n, d := st.terms(in[0][j], in[1][j], in[2][j], in[3][j], in[4][j])
				if math.Float32bits(n) != math.Float32bits(nv[j]) || math.Float32bits(d) != math.Float32bits(dv[j]) {
					t.Fatalf("nsq %g limit %g sample %d: vector %g %g, scalar %g %g", nsq, limit, j, nv[j], dv[j], n, d)
				}
			}
		}
	}

	// The filters: a vector pass against the scalar loop on the same rows.
	for _, taps := range []int{3, 5, 9, 17, 27, 65} {
		f := make([]float32, taps)
		for k := range f {
			f[k] = float32(rng.Float64())
		}
		p := newPlane(w, 40)
		q := newPlane(w, 40)
		for i := range p.data {
			p.data[i], q.data[i] = val(), val()
		}
		vec := newRows(w, taps/2)
		vec.vertical5(p, q, f, 7)
		for c := range 5 {
			vec.margins(c, w, taps/2)
			vec.horizontal(c, f, w)
		}
		// Decimation keeps the even samples of the even rows of the
		// filtered means.
		d1, d2 := newPlane(w/2, 20), newPlane(w/2, 20)
		dec := newRows(w, taps/2)
		dec.decimate(p, q, f, d1, d2)
		for i := range 20 {
			full := newRows(w, taps/2)
			full.vertical5(p, q, f, 2*i)
			for c := range 2 {
				full.margins(c, w, taps/2)
				full.horizontal(c, f, w)
			}
			for j := range w / 2 {
				if d1.row(i)[j] != full.out[0][2*j] || d2.row(i)[j] != full.out[1][2*j] {
					t.Fatalf("%d taps: decimated (%d, %d) differs from the filtered picture", taps, j, i)
				}
			}
		}

		// The scalar reference: the same sums, one sample at a time.
		for c := range 5 {
			for j := range w {
				var want float32
				for k, fk := range f {
					var col float32
					x := j - taps/2 + k
					x = reflect(x, w)
					for kk, fv := range f {
						y := reflect(7-taps/2+kk, 40)
						a, b := p.row(y)[x], q.row(y)[x]
						v := [5]float32{a, b, float32(a * a), float32(b * b), float32(a * b)}[c]
						col += float32(fv * v)
					}
					want += float32(fk * col)
				}
				if got := vec.out[c][j]; math.Float32bits(got) != math.Float32bits(want) {
					t.Fatalf("%d taps, quantity %d, column %d: %g, want %g", taps, c, j, got, want)
				}
			}
		}
	}
}
