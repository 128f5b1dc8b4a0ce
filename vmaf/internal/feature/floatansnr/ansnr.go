// Package floatansnr is libvmaf's float_ansnr: the SNR of a lightly
// blurred reference against a more strongly blurred distorted picture
// (luma only), and the PSNR of the same noise.
package floatansnr

import (
	"fmt"
	"math"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// Kind is float_ansnr. libvmaf declares no options for it; it reports
// float_anpsnr beside float_ansnr.
var Kind = &feature.Kind{
	Name:    "float_ansnr",
	Outputs: func(feature.Format, feature.Settings) []string { return []string{"float_ansnr", "float_anpsnr"} },
	New:     newExtractor,
}

// minSize is the smallest width and height the 5×5 filter's mirrored
// border stays inside of.
const minSize = 3

type extractor struct {
	w, h      int
	peak, max float64
	scale     float32
	ref, dist []float32 // the luma planes as floats, w×h
	rf, df    []float32 // one filtered row of each
}

func newExtractor(f feature.Format, _ feature.Settings) (feature.Extractor, error) {
	var peak, max float64
	switch f.BitDepth {
	case 8:
		peak, max = 255, 60
	case 10:
		peak, max = 255.75, 72
	case 12:
		peak, max = 255.9375, 84
	case 16:
		peak, max = 255.99609375, 108
	default:
		return nil, fmt.Errorf("feature float_ansnr: bit depth %d is not supported (8, 10, 12 or 16)", f.BitDepth)
	}
	if f.Width < minSize || f.Height < minSize {
		return nil, fmt.Errorf("feature float_ansnr: picture %dx%d is smaller than %dx%d", f.Width, f.Height, minSize, minSize)
	}
	n := f.Width * f.Height
	return &extractor{
		w: f.Width, h: f.Height, peak: peak, max: max,
		scale: float32(int(1) << (f.BitDepth - 8)),
		ref:   make([]float32, n), dist: make([]float32, n),
		rf: make([]float32, f.Width), df: make([]float32, f.Width),
	}, nil
}

func (x *extractor) Extract(_ int, ref, dist *feature.Frame, out []float64) error {
	toFloat(x.ref, ref.Planes[0], x.scale)
	toFloat(x.dist, dist.Planes[0], x.scale)
	// libvmaf sums each row's squares in float32, then the rows' sums in
	// float32, in raster order; the same order gives the same bits.
	var sig, noise float32
	for i := 0; i < x.h; i++ {
		filterRow(x.rf, x.ref, x.w, x.h, i, refFilter[:], 3)
		filterRow(x.df, x.dist, x.w, x.h, i, distFilter[:], 5)
		var s, n float32
		for j, r := range x.rf {
			e := r - x.df[j]
			s += r * r
			n += e * e
		}
		sig += s
		noise += n
	}
	if noise == 0 {
		out[0] = x.max
	} else {
		out[0] = 10 * math.Log10(float64(sig/noise))
	}
	out[1] = math.Min(10*math.Log10(x.peak*x.peak*float64(x.w)*float64(x.h)/math.Max(float64(noise), 1e-10)), x.max)
	return nil
}

// toFloat converts a plane as libvmaf's float extractors do, centred on
// zero: 8-bit samples as they are, deeper ones scaled to the 8-bit range,
// then 128 subtracted.
func toFloat(dst []float32, p feature.Plane, scale float32) {
	for y := 0; y < p.H; y++ {
		row := dst[y*p.W : (y+1)*p.W]
		if p.BitDepth == 8 {
			for i, v := range p.Row8(y) {
				row[i] = float32(v) - 128
			}
			continue
		}
		for i, v := range p.Row16(y) {
			row[i] = float32(v)/scale - 128
		}
	}
}

func (x *extractor) Close() {}
