//go:build amd64 && !purego

package cambi

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// TestCValuesVector checks the vector kernel's responses against the
// portable code bit for bit: the positive responses in order, their
// sum and the heatmap values, over pictures of gently stepped levels
// across the bands of several option sets and odd widths.
func TestCValuesVector(t *testing.T) {
	if !hasVector() {
		t.Skip("no AVX-512")
	}
	rng := rand.New(rand.NewPCG(13, 14))
	for _, opts := range []string{
		"", "max_log_contrast=0", "max_log_contrast=5", "max_log_contrast=3:cambi_vis_lum_threshold=40",
		"tvi_threshold=0.1", "window_size=31",
	} {
		total := 0
		for _, size := range [][2]int{{333, 217}, {240, 250}, {47, 300}} {
			w, h := size[0], size[1]
			s, err := Kind.Parse(opts)
			if err != nil {
				t.Fatal(err)
			}
			f := feature.Format{Width: w, Height: h, BitDepth: 10, Chroma: feature.Chroma420}
			xs := [2]*extractor{}
			for i := range xs {
				e, err := Kind.New(f, s)
				if err != nil {
					t.Fatal(err)
				}
				xs[i] = e.(*extractor)
				xs[i].vec = i == 1
			}
			cfg := &xs[0].cfg
			img, mask := make([]uint16, w*h), make([]uint8, w*h)
			for i := range img {
				switch {
				case i >= w && rng.IntN(4) > 0:
					img[i], mask[i] = img[i-w], mask[i-w]
				case i > 0 && rng.IntN(8) > 0:
					img[i], mask[i] = img[i-1], mask[i-1]
				default:
					img[i] = uint16(cfg.bandBase + rng.IntN(cfg.bandSize+8))
					mask[i] = uint8(rng.IntN(5)/4 ^ 1)
				}
			}
			var pos [2][]float32
			var sums [2]float64
			var heat [2][]float32
			for i, x := range xs {
				heat[i] = make([]float32, w*h)
				p, sum := x.cValues(img, mask, w, h, x.enc.pad, heat[i])
				pos[i], sums[i] = append([]float32(nil), p...), sum
				// Without heatmaps, the same responses.
				p, sum = x.cValues(img, mask, w, h, x.enc.pad, nil)
				if len(p) != len(pos[i]) || math.Float64bits(sum) != math.Float64bits(sums[i]) {
					t.Fatalf("%q %dx%d vector %v: %d responses sum %v with heatmap, %d sum %v without",
						opts, w, h, x.vec, len(pos[i]), sums[i], len(p), sum)
				}
			}
			total += len(pos[0])
			if len(pos[0]) != len(pos[1]) || math.Float64bits(sums[0]) != math.Float64bits(sums[1]) {
				t.Fatalf("%q %dx%d: portable %d responses sum %v, vector %d sum %v", opts, w, h, len(pos[0]), sums[0], len(pos[1]), sums[1])
			}
			for i := range pos[0] {
				if math.Float32bits(pos[0][i]) != math.Float32bits(pos[1][i]) {
					t.Fatalf("%q %dx%d: response %d: portable %v, vector %v", opts, w, h, i, pos[0][i], pos[1][i])
				}
			}
			for i := range heat[0] {
				if math.Float32bits(heat[0][i]) != math.Float32bits(heat[1][i]) {
					t.Fatalf("%q %dx%d: pixel %d: portable %v, vector %v", opts, w, h, i, heat[0][i], heat[1][i])
				}
			}
		}
		if total == 0 {
			t.Fatalf("%q: no responses to compare", opts)
		}
	}
}
