// Package floatpsnr is libvmaf's float_psnr: the luma PSNR computed on
// samples converted to float the way libvmaf's float extractors convert
// them (deeper samples scaled down to the 8-bit range).
package floatpsnr

import (
	"fmt"
	"math"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// Kind is float_psnr. libvmaf declares no options for it.
var Kind = &feature.Kind{
	Name:    "float_psnr",
	Outputs: func(feature.Format, feature.Settings) []string { return []string{"float_psnr"} },
	New:     newExtractor,
}

// limits are the peak (in the 8-bit range the samples are scaled to) and
// the ceiling of the score, per bit depth, as libvmaf sets them.
type limits struct{ peak, max float64 }

func limitsFor(depth int) (limits, error) {
	switch depth {
	case 8:
		return limits{255, 60}, nil
	case 10:
		return limits{255.75, 72}, nil
	case 12:
		return limits{255.9375, 84}, nil
	case 16:
		return limits{255.99609375, 108}, nil
	}
	return limits{}, fmt.Errorf("feature float_psnr: bit depth %d is not supported (8, 10, 12 or 16)", depth)
}

type extractor struct {
	limits
	scale float32 // divisor taking deeper samples to the 8-bit range
	avx2  bool    // sum the squares with the vector kernels
}

func newExtractor(f feature.Format, _ feature.Settings) (feature.Extractor, error) {
	l, err := limitsFor(f.BitDepth)
	if err != nil {
		return nil, err
	}
	if f.Width < 1 || f.Height < 1 {
		return nil, fmt.Errorf("feature float_psnr: empty picture %dx%d", f.Width, f.Height)
	}
	return &extractor{limits: l, scale: float32(int(1) << (f.BitDepth - 8)), avx2: hasAVX2()}, nil
}

func (x *extractor) Extract(_ int, ref, dist *feature.Frame, out []float64) error {
	noise := sumSquaredError(ref.Planes[0], dist.Planes[0], x.scale, x.avx2)
	noise /= float64(ref.Planes[0].W * ref.Planes[0].H)
	out[0] = math.Min(10*math.Log10(x.peak*x.peak/math.Max(noise, 1e-10)), x.max)
	return nil
}

// sumSquaredError is libvmaf's sum of squared differences: each
// difference squared in float32, the squares summed in float64 in raster
// order. Up to 12 bits every difference, square and partial sum is exact
// in those types (the squares are integers below 2²⁴ over a power of two),
// so an integer sum scaled at the end is the same number; 16-bit squares
// are rounded in float32 and take libvmaf's path. With vec the kernels
// sum the first multiple of 16 samples of each row.
func sumSquaredError(r, d feature.Plane, scale float32, vec bool) float64 {
	if r.BitDepth == 16 {
		var sum float64
		for y := 0; y < r.H; y++ {
			rr, dr := r.Row16(y), d.Row16(y)
			dr = dr[:len(rr)]
			for i, v := range rr {
				e := float32(v)/scale - float32(dr[i])/scale
				sum += float64(e * e)
			}
		}
		return sum
	}
	var sum int64
	for y := 0; y < r.H; y++ {
		var row int64
		if r.BitDepth == 8 {
			rr, dr := r.Row8(y), d.Row8(y)
			dr = dr[:len(rr)]
			i := 0
			for end := len(rr) &^ 15; vec && i < end; {
				n := min(maxRun8, end-i)
				row += sse8(&rr[i], &dr[i], n)
				i += n
			}
			for ; i < len(rr); i++ {
				e := int64(rr[i]) - int64(dr[i])
				row += e * e
			}
		} else {
			rr, dr := r.Row16(y), d.Row16(y)
			dr = dr[:len(rr)]
			i := 0
			for end := len(rr) &^ 15; vec && i < end; {
				n := min(maxRun16, end-i)
				row += sse16(&rr[i], &dr[i], n)
				i += n
			}
			for ; i < len(rr); i++ {
				e := int64(rr[i]) - int64(dr[i])
				row += e * e
			}
		}
		sum += row
	}
	return float64(sum) / float64(scale*scale)
}

// The longest runs the kernels take: a 32-bit lane gathers two squares
// from each 16 samples, at most 2·255² at 8 bits and 2·4095² at 12, and
// must stay below 2³¹.
const (
	maxRun8  = 1 << 16
	maxRun16 = 1 << 9
)

func (x *extractor) Close() {}
