package floatmotion

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// TestBlurMatchesScalar holds the blur (vector where the CPU has AVX2)
// to a one-sample-at-a-time reference, bit for bit.
func TestBlurMatchesScalar(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, f := range [][]float32{filter5, filter3, filter1} {
		for _, w := range []int{3, 8, 13, 61, 200} {
			for _, h := range []int{3, 4, 5, 11, 16, 21} {
				src, dst, prev := newPlane(w, h), newPlane(w, h), newPlane(w, h)
				for i := range src.data {
					src.data[i] = float32(rng.NormFloat64() * 50)
					prev.data[i] = float32(rng.NormFloat64() * 50)
				}
				diff := newRows(w+3, len(f)/2).blur(func(y int, row []float32) { copy(row, src.row(y)) }, dst, f, &prev)
				if want := meanAbsDiff(dst, prev, false); math.Float32bits(diff) != math.Float32bits(want) {
					t.Fatalf("%d taps, %dx%d: difference %g, want %g", len(f), w, h, diff, want)
				}
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
							t.Fatalf("%d taps, %dx%d: (%d, %d) = %g, want %g", len(f), w, h, j, i, got, want)
						}
					}
				}
			}
		}
	}
}

// TestConvertMatchesScalar holds the vector conversion of every depth to
// the scalar one, bit for bit, on every sample value.
func TestConvertMatchesScalar(t *testing.T) {
	if !hasAVX2() {
		t.Skip("no vector conversion here")
	}
	for _, depth := range []int{8, 10, 12, 16} {
		w, n := 37, 1<<depth
		f := feature.Format{Width: w, Height: (n + w - 1) / w, BitDepth: depth, Chroma: feature.Chroma400}
		fr := synthAt(f, 1, 0, 0)
		p := fr.Planes[0]
		for y := range f.Height {
			for x := range w {
				v := (y*w + x) % n
				if depth == 8 {
					p.Data[y*p.Stride+x] = byte(v)
				} else {
					p.Data[y*p.Stride+2*x], p.Data[y*p.Stride+2*x+1] = byte(v), byte(v>>8)
				}
			}
		}
		vec, ref := newPlaneSource(p, true), newPlaneSource(p, false)
		got, want := make([]float32, w), make([]float32, w)
		for y := range f.Height {
			vec.row(y, got)
			ref.row(y, want)
			for x := range w {
				if math.Float32bits(got[x]) != math.Float32bits(want[x]) {
					t.Fatalf("%d-bit sample %d: %g, want %g", depth, p.At(x, y), got[x], want[x])
				}
			}
		}
	}
}

// TestMeanAbsDiffMatchesScalar holds the eight-row vector sums to the
// scalar loop, bit for bit, at sizes around the vector widths.
func TestMeanAbsDiffMatchesScalar(t *testing.T) {
	if !hasAVX2() {
		t.Skip("no vector difference here")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, w := range []int{1, 7, 8, 9, 16, 61, 1920} {
		for _, h := range []int{1, 7, 8, 9, 17, 33} {
			a, b := newPlane(w, h), newPlane(w, h)
			for i := range a.data {
				a.data[i] = float32(rng.NormFloat64() * 30)
				b.data[i] = a.data[i] + float32(rng.NormFloat64()*3)
				if i%11 == 0 {
					b.data[i] = a.data[i] // zero differences
				}
			}
			got, want := meanAbsDiff(a, b, true), meanAbsDiff(a, b, false)
			if math.Float32bits(got) != math.Float32bits(want) {
				t.Errorf("%dx%d: %g, want %g", w, h, got, want)
			}
		}
	}
}
