package floatmotion

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestBlurMatchesScalar holds the blur (vector where the CPU has AVX2)
// to a one-sample-at-a-time reference, bit for bit.
func TestBlurMatchesScalar(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, f := range [][]float32{filter5, filter3, filter1} {
		for _, w := range []int{3, 8, 13, 61, 200} {
			h := 11
			src, dst := newPlane(w, h), newPlane(w, h)
			for i := range src.data {
				src.data[i] = float32(rng.NormFloat64() * 50)
			}
			newRows(w, len(f)/2).blur(src, dst, f)
			r := len(f) / 2
			for i := range h {
				for j := range w {
					var want float32
					for k, fk := range f {
						var col float32
						x := reflect(j-r+k, w)
						for kk, fv := range f {
							col += float32(fv * src.row(reflect(i-r+kk, h))[x])
						}
						want += float32(fk * col)
					}
					if got := dst.row(i)[j]; math.Float32bits(got) != math.Float32bits(want) {
						t.Fatalf("%d taps, %d wide: (%d, %d) = %g, want %g", len(f), w, j, i, got, want)
					}
				}
			}
		}
	}
}
