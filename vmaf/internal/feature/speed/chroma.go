package speed

import (
	"fmt"
	"math"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/internal/kit"
)

// chroma is speed_chroma for one stream: SpEED on each chroma plane.
type chroma struct {
	eng      *engine
	w, h     int // the part of each chroma plane libvmaf uses
	scale    float32
	maxVal   float64
	ref, dis []float32
	rows     []bool // the rows SpEED reads
	// Without prescaling (fuse), the blur converts the samples as it
	// reads them and ref and dis are not made.
	fuse bool
}

func newChroma(f feature.Format, s feature.Settings) (feature.Extractor, error) {
	const name = "speed_chroma"
	scale, err := depthScale(name, f.BitDepth)
	if err != nil {
		return nil, err
	}
	// libvmaf sizes the chroma planes by halving the luma size, rounding
	// down, and so leaves out the last column or row of odd-sized ones.
	w, h := f.Width, f.Height
	switch f.Chroma {
	case feature.Chroma420:
		w, h = w/2, h/2
	case feature.Chroma422:
		w /= 2
	case feature.Chroma444:
	default:
		return nil, fmt.Errorf("feature %s: the stream has no chroma planes", name)
	}
	p, err := readParams(name, s)
	if err != nil {
		return nil, err
	}
	p.weightMode = s.Int(optWeightMode)
	eng, err := newEngine(name, w, h, p)
	if err != nil {
		return nil, err
	}
	c := &chroma{eng: eng, w: w, h: h, scale: scale, maxVal: s.Float(optMaxVal), rows: eng.rowsRead(),
		fuse: eng.scaler == nil}
	if !c.fuse {
		c.ref, c.dis = make([]float32, w*h), make([]float32, w*h)
	}
	return c, nil
}

func (c *chroma) Extract(_ int, ref, dist *feature.Frame, out []float64) error {
	var score [2]float32
	var singular [2]bool
	for i := range score {
		if c.fuse {
			score[i], singular[i] = c.eng.scoreSource(source{cur: ref.Planes[1+i], scale: c.scale},
				source{cur: dist.Planes[1+i], scale: c.scale})
			continue
		}
		toFloat(c.ref, ref.Planes[1+i], c.w, c.rows, c.scale, c.eng.avx2)
		toFloat(c.dis, dist.Planes[1+i], c.w, c.rows, c.scale, c.eng.avx2)
		score[i], singular[i] = c.eng.score(c.ref, c.dis)
	}
	// A plane whose covariance is singular (a flat one, say) takes the
	// other's score for the mean, as libvmaf does, rather than dragging it
	// to zero.
	var uv float32
	switch {
	case singular[0] && !singular[1]:
		uv = score[1]
	case singular[1] && !singular[0]:
		uv = score[0]
	default:
		uv = float32(float64(score[0]+score[1]) / 2.0)
	}
	out[0] = math.Min(float64(score[0]), c.maxVal)
	out[1] = math.Min(float64(score[1]), c.maxVal)
	out[2] = math.Min(float64(uv), c.maxVal)
	return nil
}

func (c *chroma) Close() {}

// depthScale is the divisor taking samples of a depth to the 8-bit range.
func depthScale(name string, depth int) (float32, error) {
	switch depth {
	case 8, 10, 12, 16:
		return float32(int(1) << (depth - 8)), nil
	}
	return 0, fmt.Errorf("feature %s: bit depth %d is not supported (8, 10, 12 or 16)", name, depth)
}

// toFloat converts the rows marked in rows of the top-left w×len(rows)
// of a plane as libvmaf's float extractors do, centred on zero: deeper
// samples scaled to the 8-bit range, then 128 subtracted. With avx2 the
// vector kernels convert the first multiple of 8 samples of each row:
// multiplying by the reciprocal of a power of two is the same as
// dividing by it.
func toFloat(dst []float32, p feature.Plane, w int, rows []bool, scale float32, avx2 bool) {
	for y, used := range rows {
		if !used {
			continue
		}
		out := dst[y*w : (y+1)*w]
		if p.BitDepth == 8 {
			kit.Centre8(out, p.Row8(y), avx2)
		} else {
			kit.Centre16(out, p.Row16(y), scale, avx2)
		}
	}
}
