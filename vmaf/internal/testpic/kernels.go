package testpic

import (
	"math/rand/v2"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// The vector kernel tests hold every kernel set against the portable one
// on inputs over the full range of their types; these make the inputs.

// KernelWidths covers widths below, at and around the vector blocks.
var KernelWidths = []int{1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65, 100, 257}

// RandSamples returns n samples of bpc bits, a quarter each the largest
// and zero, the rest uniform.
func RandSamples[T uint8 | uint16](rng *rand.Rand, n, bpc int) []T {
	s := make([]T, n)
	maxV := 1<<bpc - 1
	for i := range s {
		switch rng.IntN(4) {
		case 0:
			s[i] = T(maxV)
		case 1:
			s[i] = 0
		default:
			s[i] = T(rng.IntN(maxV + 1))
		}
	}
	return s
}

// Equal fails the test at the first element of got that differs from the
// portable kernel's want.
func Equal[T comparable](t *testing.T, what string, got, want []T) {
	t.Helper()
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s: element %d = %v, portable %v", what, i, got[i], want[i])
		}
	}
}

// RandPlane makes a w x h plane of bpc bits: uniform noise (kind 0), a
// full-contrast checkerboard of thin lines (1), a noisy gradient (2) or
// noise with runs of the extremes (3).
func RandPlane(rng *rand.Rand, w, h, bpc, kind int) feature.Plane {
	bps := 1
	if bpc > 8 {
		bps = 2
	}
	stride := w + 3
	data := make([]byte, stride*h*bps)
	maxV := 1<<bpc - 1
	for i := range h {
		for j := range w {
			var v int
			switch kind {
			case 0:
				v = rng.IntN(maxV + 1)
			case 1:
				if (i/3+j/2)%2 == 0 {
					v = maxV
				}
			case 2:
				v = (i*7 + j*3) * maxV / (7*h + 3*w)
				v = min(max(v+rng.IntN(maxV/8+1)-maxV/16, 0), maxV)
			default:
				v = []int{0, maxV, rng.IntN(maxV + 1)}[rng.IntN(3)]
			}
			o := (i*stride + j) * bps
			data[o] = byte(v)
			if bps == 2 {
				data[o+1] = byte(v >> 8)
			}
		}
	}
	return feature.Plane{Data: data, Stride: stride * bps, W: w, H: h, BitDepth: bpc}
}
