// Package psnrhvs is libvmaf's psnr_hvs extractor: PSNR-HVS-M (Xiph's
// implementation from the Daala tools), a PSNR over 8x8 DCT coefficients
// weighted by contrast sensitivity and relieved by contrast masking, per
// plane (psnr_hvs_y, psnr_hvs_cb, psnr_hvs_cr) and combined 0.8/0.1/0.1
// (psnr_hvs).
package psnrhvs

import (
	"fmt"
	"math"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// Kind is psnr_hvs. libvmaf declares no options for it.
var Kind = &feature.Kind{
	Name: "psnr_hvs",
	Outputs: func(feature.Format, feature.Settings) []string {
		return []string{"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"}
	},
	New: newExtractor,
}

type extractor struct {
	depth int
	// w and h are the sizes of the planes as libvmaf has them: subsampled
	// chroma is rounded down, so that the last column or row of an odd
	// size is not compared.
	w, h [3]int
	// vec is the vector kernel's scratch, nil where it cannot run.
	vec *vecScratch
}

func newExtractor(f feature.Format, _ feature.Settings) (feature.Extractor, error) {
	switch f.BitDepth {
	case 8, 10, 12:
	default:
		return nil, fmt.Errorf("feature psnr_hvs: bit depth %d is not supported (8, 10 or 12)", f.BitDepth)
	}
	if f.Chroma == feature.Chroma400 {
		// libvmaf refuses luma-only input: its score weighs all three planes.
		return nil, fmt.Errorf("feature psnr_hvs: needs colour; 4:0:0 (luma-only) input is not supported")
	}
	x := &extractor{depth: f.BitDepth, vec: newVecScratch()}
	x.w[0], x.h[0] = f.Width, f.Height
	switch f.Chroma {
	case feature.Chroma420:
		x.w[1], x.h[1] = f.Width>>1, f.Height>>1
	case feature.Chroma422:
		x.w[1], x.h[1] = f.Width>>1, f.Height
	default:
		x.w[1], x.h[1] = f.Width, f.Height
	}
	x.w[2], x.h[2] = x.w[1], x.h[1]
	for p := range 3 {
		// Blocks are whole 8x8 squares; without one the score is 0/0.
		if x.w[p] < blockSize || x.h[p] < blockSize {
			return nil, fmt.Errorf("feature psnr_hvs: plane %d of a %dx%d picture is %dx%d samples; needs at least %dx%d",
				p, f.Width, f.Height, x.w[p], x.h[p], blockSize, blockSize)
		}
	}
	return x, nil
}

func (x *extractor) Extract(_ int, ref, dist *feature.Frame, out []float64) error {
	var mse [3]float64
	for p := range 3 {
		if x.vec != nil {
			mse[p] = x.vec.planeError(ref.Planes[p], dist.Planes[p], x.w[p], x.h[p], x.depth, &planeWeights[p])
		} else {
			mse[p] = planeError(ref.Planes[p], dist.Planes[p], x.w[p], x.h[p], x.depth, &planeWeights[p])
		}
		out[p] = decibels(mse[p])
	}
	out[3] = decibels(mse[0]*.8 + .1*(mse[1]+mse[2]))
	return nil
}

// decibels is the score of a normalised error, +Inf for none.
func decibels(mse float64) float64 { return 10 * (-1 * math.Log10(mse)) }

func (x *extractor) Close() {}
