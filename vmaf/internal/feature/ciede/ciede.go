// Package ciede is libvmaf's ciede extractor: the mean CIEDE2000 colour
// difference between the pictures of a pair, each sample taken from
// BT.709 YCbCr (limited range) through linear RGB and XYZ to CIELAB,
// reported as ciede2000 = 45 - 20·log10(mean ΔE00).
//
// Subsampled chroma is brought to the luma grid by libvmaf's own sample
// picking, which is not a plain nearest-neighbour upsampling for 4:2:2
// and for odd sizes; see chroma.go.
package ciede

import (
	"fmt"
	"math"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// Kind is ciede. libvmaf declares no options for it.
var Kind = &feature.Kind{
	Name:    "ciede",
	Outputs: func(feature.Format, feature.Settings) []string { return []string{"ciede2000"} },
	New:     newExtractor,
}

type extractor struct {
	f   feature.Format
	lab labConverter
	// ref and dist pick each picture's chroma onto the luma grid.
	ref, dist chromaPicker
	// Chroma rows on the luma grid, reused every row.
	refU, refV, distU, distV []int32
	// Luma rows, as int32 like the chroma rows.
	refY, distY []int32
	// pairs caches ΔE00 of recent colour pairs: compressed video repeats
	// the same reference and distorted samples over flat areas.
	pairs    []pairEntry
	pairBits uint // pairs has 2^pairBits entries
}

type pairEntry struct {
	ref, dist uint64 // colourKeys, 0 while empty
	de        float32
}

func newExtractor(f feature.Format, _ feature.Settings) (feature.Extractor, error) {
	switch f.BitDepth {
	case 8, 10, 12, 16:
	default:
		return nil, fmt.Errorf("feature ciede: bit depth %d is not supported (8, 10, 12 or 16)", f.BitDepth)
	}
	if f.Chroma == feature.Chroma400 {
		// libvmaf refuses luma-only input: there is no colour to compare.
		return nil, fmt.Errorf("feature ciede: needs colour; 4:0:0 (luma-only) input is not supported")
	}
	if f.Width < 1 || f.Height < 1 {
		return nil, fmt.Errorf("feature ciede: empty picture %dx%d", f.Width, f.Height)
	}
	w := f.Width
	bits := cacheBits(f.Width * f.Height)
	x := &extractor{
		f:        f,
		lab:      newLabConverter(f.BitDepth, bits),
		ref:      newChromaPicker(f),
		dist:     newChromaPicker(f),
		refU:     make([]int32, w),
		refV:     make([]int32, w),
		distU:    make([]int32, w),
		distV:    make([]int32, w),
		refY:     make([]int32, w),
		distY:    make([]int32, w),
		pairs:    make([]pairEntry, 1<<bits),
		pairBits: bits,
	}
	return x, nil
}

func (x *extractor) Extract(_ int, ref, dist *feature.Frame, out []float64) error {
	w, h := x.f.Width, x.f.Height
	x.ref.reset(ref)
	x.dist.reset(dist)
	// libvmaf sums the per-sample differences in double, in raster order.
	var sum float64
	for i := 0; i < h; i++ {
		x.ref.row(i, x.refU, x.refV)
		x.dist.row(i, x.distU, x.distV)
		readLuma(ref.Planes[0], i, x.refY)
		readLuma(dist.Planes[0], i, x.distY)
		sum = x.addRow(sum, w)
	}
	out[0] = 45 - 20*math.Log10(sum/float64(w*h))
	return nil
}

// addRow adds the current row's ΔE00 to sum one sample at a time, the
// order of libvmaf's single running sum (a per-row subtotal would round
// differently).
func (x *extractor) addRow(sum float64, w int) float64 {
	ry, ru, rv := x.refY[:w], x.refU[:w], x.refV[:w]
	dy, du, dv := x.distY[:w], x.distU[:w], x.distV[:w]
	for j := range ry {
		k1 := colourKey(ry[j], ru[j], rv[j])
		k2 := colourKey(dy[j], du[j], dv[j])
		if k1 == k2 {
			// Equal samples differ by exactly 0, which leaves the sum
			// unchanged.
			continue
		}
		e := &x.pairs[slot(k1^k2*0xC2B2AE3D27D4EB4F, x.pairBits)]
		if e.ref != k1 || e.dist != k2 {
			c1 := x.lab.convert(k1, ry[j], ru[j], rv[j])
			c2 := x.lab.convert(k2, dy[j], du[j], dv[j])
			e.ref, e.dist, e.de = k1, k2, deltaE2000(c1, c2)
		}
		sum += float64(e.de)
	}
	return sum
}

// readLuma copies row y of a luma plane into dst.
func readLuma(p feature.Plane, y int, dst []int32) {
	if p.BitDepth == 8 {
		for j, v := range p.Row8(y)[:len(dst)] {
			dst[j] = int32(v)
		}
		return
	}
	for j, v := range p.Row16(y)[:len(dst)] {
		dst[j] = int32(v)
	}
}

func (x *extractor) Close() {}
