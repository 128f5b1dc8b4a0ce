package ssim

import (
	"fmt"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/testpic"
)

func TestSSIMAutoFactor(t *testing.T) {
	tests := []struct{ w, h, factor int }{
		{16, 16, 1},
		{576, 324, 1},
		{640, 383, 1},
		{640, 384, 2}, // 1.5 rounds up
		{1280, 720, 3},
		{1920, 1080, 4},
		{1080, 1920, 4},
		{3840, 2160, 8},
	}
	for _, tc := range tests {
		if got := ssimAutoFactor(tc.w, tc.h); got != tc.factor {
			t.Errorf("%dx%d: factor %d, want %d", tc.w, tc.h, got, tc.factor)
		}
	}
}

func TestDecimatedSize(t *testing.T) {
	tests := []struct{ n, factor, want int }{
		{1920, 4, 480},
		{1280, 3, 426}, // the remainder is dropped for even sizes
		{645, 3, 216},  // odd sizes gain one, centred past the last sample
		{577, 2, 289},
	}
	for _, tc := range tests {
		if got := decimatedSize(tc.n, tc.factor); got != tc.want {
			t.Errorf("decimatedSize(%d, %d) = %d, want %d", tc.n, tc.factor, got, tc.want)
		}
	}
}

// upshift returns an 8-bit luma picture's content at a higher bit depth.
func upshift(t testing.TB, p *testpic.Picture, bpc int) *testpic.Picture {
	t.Helper()
	q, err := testpic.New(p.Width, p.Height, bpc, testpic.Chroma400)
	if err != nil {
		t.Fatal(err)
	}
	for y := 0; y < p.Height; y++ {
		src, dst := p.Plane(0).Row8(y), q.Plane(0).Row16(y)
		for x, v := range src {
			dst[x] = uint16(v) << (bpc - 8)
		}
	}
	return q
}

type lumaScorer func(w, h, bpc int) (func(ref, dist feature.Plane) float64, error)

func ssimScorer(w, h, bpc int) (func(ref, dist feature.Plane) float64, error) {
	return newFloatSSIM(w, h, bpc, 0).compute, nil
}

func msssimScorer(w, h, bpc int) (func(ref, dist feature.Plane) float64, error) {
	s, err := newFloatMSSSIM(w, h, bpc)
	if err != nil {
		return nil, err
	}
	return s.compute, nil
}

// checkSSIMProperties covers what holds for both SSIM variants: deeper
// samples are scaled to 8 bits exactly, so shifted-up 8-bit content scores
// the same; strides do not matter; more distortion scores lower; a picture
// against itself scores 1.
func checkSSIMProperties(t *testing.T, newScorer lumaScorer, sizes [][2]int) {
	for _, sz := range sizes {
		w, h := sz[0], sz[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			ref := testpic.Synthetic(t, w, h, 8, testpic.Chroma400, 0, uint64(w))
			light := testpic.Shifted(t, ref, 4, 2)
			heavy := testpic.Shifted(t, ref, 40, 3)
			score8, err := newScorer(w, h, 8)
			if err != nil {
				t.Fatal(err)
			}
			base := score8(ref.Plane(0), light.Plane(0))
			if worse := score8(ref.Plane(0), heavy.Plane(0)); !(worse < base && base < 1) {
				t.Errorf("light distortion %v, heavy %v", base, worse)
			}
			if same := score8(ref.Plane(0), ref.Plane(0)); same < 1-1e-6 || same > 1+1e-6 {
				t.Errorf("picture against itself scores %v", same)
			}
			padded := testpic.Synthetic(t, w, h, 8, testpic.Chroma400, 13, 5)
			testpic.Copy(padded, light)
			if got := score8(ref.Plane(0), padded.Plane(0)); got != base {
				t.Errorf("padded rows score %v, packed %v", got, base)
			}
			for _, bpc := range []int{10, 12, 16} {
				score, err := newScorer(w, h, bpc)
				if err != nil {
					t.Fatal(err)
				}
				if got := score(upshift(t, ref, bpc).Plane(0), upshift(t, light, bpc).Plane(0)); got != base {
					t.Errorf("%d-bit: %v, 8-bit gives %v", bpc, got, base)
				}
			}
		})
	}
}

func TestFloatSSIMProperties(t *testing.T) {
	// Factors 1, 2 (even) and 3 (odd, with the last block past the edge).
	checkSSIMProperties(t, ssimScorer, [][2]int{{16, 16}, {37, 23}, {401, 390}, {645, 663}})
}

func TestFloatSSIMNoAllocs(t *testing.T) {
	a := testpic.Synthetic(t, 400, 390, 10, testpic.Chroma400, 2, 1)
	b := testpic.Shifted(t, a, 7, 2)
	s := newFloatSSIM(400, 390, 10, 0)
	if n := testing.AllocsPerRun(5, func() { s.compute(a.Plane(0), b.Plane(0)) }); n != 0 {
		t.Fatalf("%v allocations per frame", n)
	}
}

func BenchmarkFloatSSIM1080p(b *testing.B) {
	r := testpic.Synthetic(b, 1920, 1080, 8, testpic.Chroma400, 0, 1)
	d := testpic.Shifted(b, r, 4, 2)
	s := newFloatSSIM(1920, 1080, 8, 0)
	for b.Loop() {
		s.compute(r.Plane(0), d.Plane(0))
	}
}
