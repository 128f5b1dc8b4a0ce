// Package floatmoment is libvmaf's float_moment: the mean and the mean
// square of the reference's and the distorted picture's luma, on samples
// converted to float the way libvmaf's float extractors convert them.
package floatmoment

import (
	"fmt"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// Kind is float_moment. libvmaf declares no options for it.
var Kind = &feature.Kind{
	Name: "float_moment",
	Outputs: func(feature.Format, feature.Settings) []string {
		return []string{"float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd", "float_moment_dis2nd"}
	},
	New: newExtractor,
}

type extractor struct {
	scale float32
	avx2  bool // sum with the vector kernels
}

func newExtractor(f feature.Format, _ feature.Settings) (feature.Extractor, error) {
	switch f.BitDepth {
	case 8, 10, 12, 16:
	default:
		return nil, fmt.Errorf("feature float_moment: bit depth %d is not supported (8, 10, 12 or 16)", f.BitDepth)
	}
	if f.Width < 1 || f.Height < 1 {
		return nil, fmt.Errorf("feature float_moment: empty picture %dx%d", f.Width, f.Height)
	}
	return &extractor{scale: float32(int(1) << (f.BitDepth - 8)), avx2: hasAVX2()}, nil
}

func (x *extractor) Extract(_ int, ref, dist *feature.Frame, out []float64) error {
	n := float64(ref.Planes[0].W * ref.Planes[0].H)
	s1, s2 := moments(ref.Planes[0], x.scale, x.avx2)
	out[0], out[2] = s1/n, s2/n
	s1, s2 = moments(dist.Planes[0], x.scale, x.avx2)
	out[1], out[3] = s1/n, s2/n
	return nil
}

// moments is libvmaf's sums of the samples (as float32) and of their
// squares (taken in float32), both in float64 in raster order. The
// samples and their sums are exact in those types at every depth, and so
// are the squares up to 12 bits (integers below 2²⁴ over a power of two),
// so integer sums scaled at the end are the same numbers; 16-bit squares
// are rounded in float32 and take libvmaf's path. With vec the kernels
// sum the first multiple of 16 samples of each row.
func moments(p feature.Plane, scale float32, vec bool) (sum, sumSq float64) {
	if p.BitDepth == 16 {
		var s int64
		for y := 0; y < p.H; y++ {
			for _, w := range p.Row16(y) {
				v := float32(w) / scale
				s += int64(w)
				sumSq += float64(v * v)
			}
		}
		return float64(s) / float64(scale), sumSq
	}
	var s, sq int64
	for y := 0; y < p.H; y++ {
		var rs, rsq int64
		if p.BitDepth == 8 {
			row, i := p.Row8(y), 0
			for end := len(row) &^ 15; vec && i < end; {
				n := min(maxRun8, end-i)
				s, sq := sums8(&row[i], n)
				rs, rsq, i = rs+s, rsq+sq, i+n
			}
			for _, b := range row[i:] {
				v := int64(b)
				rs += v
				rsq += v * v
			}
		} else {
			row, i := p.Row16(y), 0
			for end := len(row) &^ 15; vec && i < end; {
				n := min(maxRun16, end-i)
				s, sq := sums16(&row[i], n)
				rs, rsq, i = rs+s, rsq+sq, i+n
			}
			for _, w := range row[i:] {
				v := int64(w)
				rs += v
				rsq += v * v
			}
		}
		s += rs
		sq += rsq
	}
	return float64(s) / float64(scale), float64(sq) / float64(scale*scale)
}

// The longest runs the kernels take: a 32-bit lane gathers two squares
// from each 16 samples, at most 2·255² at 8 bits and 2·4095² at 12, and
// must stay below 2³¹.
const (
	maxRun8  = 1 << 16
	maxRun16 = 1 << 9
)

func (x *extractor) Close() {}
