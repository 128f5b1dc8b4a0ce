package cambi

import (
	"fmt"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// geometry is how one of the pair's pictures is scored: scaled from the
// frame's size to w x h, with a window of window (= 2·pad+1) pixels.
type geometry struct {
	inW, inH    int
	w, h        int
	window, pad int
	speedup     bool
	xmap, ymap  []int32 // source column and row of each output sample; nil when not scaled
}

// newGeometry precomputes libvmaf's nearest-neighbour resampling: the
// positions step in float32 from half a step in, and round half up.
// They are accumulated in float32, as libvmaf does, so that rounding
// lands on the same source samples.
func newGeometry(inW, inH, w, h, window int, speedup bool) geometry {
	g := geometry{inW: inW, inH: inH, w: w, h: h, window: window, pad: window >> 1, speedup: speedup}
	if inW == w && inH == h {
		return g
	}
	g.xmap = nearest(inW, w)
	g.ymap = nearest(inH, h)
	return g
}

func nearest(in, out int) []int32 {
	ratio := float32(in) / float32(out)
	pos := float32(float64(ratio/2) - 0.5)
	m := make([]int32, out)
	for i := range m {
		// Clamped only against float drift past the edge, where libvmaf
		// would read outside the picture.
		m[i] = int32(min(int(float64(pos)+0.5), in-1))
		pos += ratio
	}
	return m
}

// toTenBit writes plane p as 10-bit levels into img (g.w x g.h,
// packed): 8-bit samples shifted up, deeper ones rounded down to 10
// bits (which can give 1024). Like libvmaf it refuses samples above the
// plane's depth, but only for the depths it checks (10 and 12 bits).
// With vec, the vector kernel widens unscaled 8-bit rows.
func toTenBit(p feature.Plane, g *geometry, img []uint16, vec bool) error {
	w, h := g.w, g.h
	if p.BitDepth == 8 {
		for y := 0; y < h; y++ {
			sy := y
			if g.ymap != nil {
				sy = int(g.ymap[y])
			}
			src, dst := p.Row8(sy), img[y*w:(y+1)*w]
			if g.xmap == nil {
				if vec {
					n := widenPrefix(dst, src)
					src, dst = src[n:], dst[n:]
				}
				for x, v := range src[:len(dst)] {
					dst[x] = uint16(v) << 2
				}
				continue
			}
			for x, sx := range g.xmap {
				dst[x] = uint16(src[sx]) << 2
			}
		}
		return nil
	}
	shift := uint(p.BitDepth - 10)
	round := 0
	if shift > 0 {
		round = 1 << (shift - 1)
	}
	limit := uint16(0xffff)
	if p.BitDepth < 16 {
		limit = uint16(1)<<p.BitDepth - 1
	}
	// libvmaf checks the whole plane, not only the samples it keeps.
	if limit != 0xffff {
		for y := 0; y < p.H; y++ {
			for _, v := range p.Row16(y) {
				if v > limit {
					return fmt.Errorf("sample %d exceeds the %d-bit maximum %d", v, p.BitDepth, limit)
				}
			}
		}
	}
	for y := 0; y < h; y++ {
		sy := y
		if g.ymap != nil {
			sy = int(g.ymap[y])
		}
		src, dst := p.Row16(sy), img[y*w:(y+1)*w]
		if g.xmap == nil {
			for x, v := range src[:w] {
				dst[x] = uint16((int(v) + round) >> shift)
			}
			continue
		}
		for x, sx := range g.xmap {
			dst[x] = uint16((int(src[sx]) + round) >> shift)
		}
	}
	return nil
}

// antiDither averages each level with its right and lower neighbours
// (2x2, or 2x1 on the last column and row), for encodes below 10 bits.
// Each sample reads only samples after it, so working in place in
// raster order is the same as reading the original picture. With vec,
// the vector kernel takes the start of each row.
func antiDither(img []uint16, w, h int, vec bool) {
	for y := 0; y < h-1; y++ {
		r0, r1 := img[y*w:(y+1)*w], img[(y+1)*w:(y+2)*w]
		x0 := 0
		if vec {
			x0 = antiDitherPrefix(r0, r1)
		}
		right, below, belowRight := r0[x0+1:], r1[x0:w-1], r1[x0+1:]
		start := r0[x0:]
		for x, v := range right {
			start[x] = uint16((uint32(start[x]) + uint32(v) + uint32(below[x]) + uint32(belowRight[x])) >> 2)
		}
		r0[w-1] = uint16((uint32(r0[w-1]) + uint32(r1[w-1])) >> 1)
	}
	last := img[(h-1)*w : h*w]
	for x := 0; x < w-1; x++ {
		last[x] = uint16((uint32(last[x]) + uint32(last[x+1])) >> 1)
	}
}
