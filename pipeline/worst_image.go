package pipeline

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/vmafsink/vmafsink/vmaf"
)

// Thumbs are a scored pair's pictures kept small: the reference and the
// distorted picture as 8-bit YCbCr 4:4:4 and the luma difference, all
// Width×Height (at most ThumbMaxWidth wide, the source's aspect kept).
// Every plane is an area (box) average of the source samples it covers,
// so any bit depth and chroma subsampling reduce the same way, and the
// difference is of the full-resolution lumas, averaged: fine noise shows,
// where the difference of two averaged pictures would cancel it.
type Thumbs struct {
	Width, Height int
	// Source is the picture's geometry and format; its planes are nil.
	Source    vmaf.Picture
	Ref, Dist YCbCr
	// Diff is the mean |ref−dist| luma over each pixel's area, in 8-bit
	// code values (deeper sources scaled down), rounded, at most 255.
	Diff []byte
}

// YCbCr is a picture's 8-bit planes, Width samples a row; Cb and Cr are
// nil for a luma-only source.
type YCbCr struct {
	Y, Cb, Cr []byte
}

// Bytes is the memory the planes hold.
func (t *Thumbs) Bytes() int {
	n := len(t.Diff)
	for _, p := range []*YCbCr{&t.Ref, &t.Dist} {
		n += len(p.Y) + len(p.Cb) + len(p.Cr)
	}
	return n
}

// ImageKind names one of a worst frame's images.
type ImageKind int

const (
	ImageReference ImageKind = iota
	ImageDistorted
	ImageDifference
)

func (k ImageKind) String() string {
	switch k {
	case ImageReference:
		return "reference"
	case ImageDistorted:
		return "distorted"
	case ImageDifference:
		return "difference"
	}
	return fmt.Sprintf("ImageKind(%d)", int(k))
}

// thumbSize is the size of a picture w×h reduced to at most maxWidth wide,
// its aspect kept.
func thumbSize(w, h, maxWidth int) (int, int) {
	if maxWidth <= 0 || w <= maxWidth {
		return w, h
	}
	return maxWidth, max(1, int(math.Round(float64(h)*float64(maxWidth)/float64(w))))
}

func newThumbs(ref, dist *vmaf.Picture, maxWidth int) *Thumbs {
	t := &Thumbs{Source: *ref}
	t.Source.Planes = [3][]byte{}
	t.Width, t.Height = thumbSize(ref.Width, ref.Height, maxWidth)
	rs := newResampler(ref.Width, ref.Height, t.Width, t.Height)
	scale := float32(1) / float32(int(1)<<(ref.BitDepth-8))
	deep := ref.BitDepth > 8
	if fx, fy, ok := rs.wholeRatio(); ok {
		// Common sizes (1080p, 720p, 2160p to 640 wide) reduce by a whole
		// factor: plain integer sums, several times faster.
		div := uint32(fx*fy) << (ref.BitDepth - 8)
		t.Ref.Y = rs.planeWhole(fx, fy, sumRows(ref, 0, deep), div)
		t.Dist.Y = rs.planeWhole(fx, fy, sumRows(dist, 0, deep), div)
		t.Diff = rs.planeWhole(fx, fy, sumDiffRows(ref, dist, deep), div)
	} else {
		t.Ref.Y = rs.plane(planeRows(ref, 0, deep), scale)
		t.Dist.Y = rs.plane(planeRows(dist, 0, deep), scale)
		t.Diff = rs.plane(diffRows(ref, dist, deep), scale)
	}
	if ref.Chroma == vmaf.Chroma400 {
		return t
	}
	cw, ch := ref.PlaneSize(1)
	fx, fy, whole := rs.wholeRatio()
	// Subsampled chroma has 1/rx by 1/ry of the luma's detail: with whole
	// factors it is reduced at its own size, then each sample repeated.
	rx, ry := t.Width*fx/cw, t.Height*fy/ch
	if whole && cw%fx == 0 && ch%fy == 0 && rx*cw == t.Width*fx && ry*ch == t.Height*fy {
		cs := &resampler{srcW: cw, srcH: ch, dstW: cw / fx, dstH: ch / fy}
		div := uint32(fx*fy) << (ref.BitDepth - 8)
		for i, p := range []*YCbCr{&t.Ref, &t.Dist} {
			src := [2]*vmaf.Picture{ref, dist}[i]
			p.Cb = repeat(cs.planeWhole(fx, fy, sumRows(src, 1, deep), div), cs.dstW, cs.dstH, rx, ry)
			p.Cr = repeat(cs.planeWhole(fx, fy, sumRows(src, 2, deep), div), cs.dstW, cs.dstH, rx, ry)
		}
		return t
	}
	cs := newResampler(cw, ch, t.Width, t.Height)
	for i, p := range []*YCbCr{&t.Ref, &t.Dist} {
		src := [2]*vmaf.Picture{ref, dist}[i]
		p.Cb = cs.plane(planeRows(src, 1, deep), scale)
		p.Cr = cs.plane(planeRows(src, 2, deep), scale)
	}
	return t
}

// repeat enlarges a w×h plane rx times across and ry times down by
// repeating each sample.
func repeat(p []byte, w, h, rx, ry int) []byte {
	if rx == 1 && ry == 1 {
		return p
	}
	W := w * rx
	out := make([]byte, W*h*ry)
	for y := range h {
		row := out[y*ry*W:][:W]
		for x, v := range p[y*w:][:w] {
			for k := range rx {
				row[x*rx+k] = v
			}
		}
		for k := 1; k < ry; k++ {
			copy(out[(y*ry+k)*W:][:W], row)
		}
	}
	return out
}

// rowFunc adds source row y's samples, times w, to acc: the vertical
// half of the reduction, one multiply-add a source sample.
type rowFunc func(y int, w float32, acc []float32)

func planeRows(p *vmaf.Picture, plane int, deep bool) rowFunc {
	data, stride := p.Planes[plane], p.Strides[plane]
	if deep {
		return func(y int, w float32, acc []float32) {
			row := data[y*stride:][:2*len(acc)]
			for x := range acc {
				acc[x] += float32(uint16(row[2*x])|uint16(row[2*x+1])<<8) * w
			}
		}
	}
	return func(y int, w float32, acc []float32) {
		row := data[y*stride:][:len(acc)]
		for x, v := range row {
			acc[x] += float32(v) * w
		}
	}
}

func diffRows(ref, dist *vmaf.Picture, deep bool) rowFunc {
	a, b := ref.Planes[0], dist.Planes[0]
	sa, sb := ref.Strides[0], dist.Strides[0]
	if deep {
		return func(y int, w float32, acc []float32) {
			ra, rb := a[y*sa:][:2*len(acc)], b[y*sb:][:2*len(acc)]
			for x := range acc {
				va := int(uint16(ra[2*x]) | uint16(ra[2*x+1])<<8)
				vb := int(uint16(rb[2*x]) | uint16(rb[2*x+1])<<8)
				acc[x] += float32(abs(va-vb)) * w
			}
		}
	}
	return func(y int, w float32, acc []float32) {
		ra, rb := a[y*sa:][:len(acc)], b[y*sb:][:len(acc)]
		for x, va := range ra {
			acc[x] += float32(abs(int(va)-int(rb[x]))) * w
		}
	}
}

// sumRowFunc adds source row y's samples to acc, for planeWhole.
type sumRowFunc func(y int, acc []uint32)

func sumRows(p *vmaf.Picture, plane int, deep bool) sumRowFunc {
	data, stride := p.Planes[plane], p.Strides[plane]
	if deep {
		return func(y int, acc []uint32) {
			row := data[y*stride:][:2*len(acc)]
			for x := range acc {
				acc[x] += uint32(row[2*x]) | uint32(row[2*x+1])<<8
			}
		}
	}
	return func(y int, acc []uint32) {
		row := data[y*stride:][:len(acc)]
		for x, v := range row {
			acc[x] += uint32(v)
		}
	}
}

func sumDiffRows(ref, dist *vmaf.Picture, deep bool) sumRowFunc {
	a, b := ref.Planes[0], dist.Planes[0]
	sa, sb := ref.Strides[0], dist.Strides[0]
	if deep {
		return func(y int, acc []uint32) {
			ra, rb := a[y*sa:][:2*len(acc)], b[y*sb:][:2*len(acc)]
			for x := range acc {
				d := int32(uint32(ra[2*x])|uint32(ra[2*x+1])<<8) - int32(uint32(rb[2*x])|uint32(rb[2*x+1])<<8)
				m := d >> 31
				acc[x] += uint32((d ^ m) - m)
			}
		}
	}
	return func(y int, acc []uint32) {
		ra, rb := a[y*sa:][:len(acc)], b[y*sb:][:len(acc)]
		for x, va := range ra {
			d := int32(va) - int32(rb[x])
			m := d >> 31
			acc[x] += uint32((d ^ m) - m)
		}
	}
}

// wholeRatio reports whether the reduction is by whole factors on both
// axes, and which.
func (r *resampler) wholeRatio() (fx, fy int, ok bool) {
	if r.srcW%r.dstW != 0 || r.srcH%r.dstH != 0 {
		return 0, 0, false
	}
	fx, fy = r.srcW/r.dstW, r.srcH/r.dstH
	// Sums of fx*fy 16-bit samples must fit 32 bits.
	return fx, fy, fx*fy <= 1<<15
}

// planeWhole is plane for a reduction by whole factors: each destination
// sample is the rounded mean of its fx×fy source samples, div being
// fx*fy times the scale down to 8 bits.
func (r *resampler) planeWhole(fx, fy int, row sumRowFunc, div uint32) []byte {
	out := make([]byte, r.dstW*r.dstH)
	col := make([]uint32, r.srcW)
	for dy := range r.dstH {
		clear(col)
		for k := range fy {
			row(dy*fy+k, col)
		}
		o := out[dy*r.dstW:][:r.dstW]
		for dx := range o {
			var s uint32
			for _, v := range col[dx*fx : dx*fx+fx] {
				s += v
			}
			o[dx] = uint8(min((s+div/2)/div, 255))
		}
	}
	return out
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// resampler reduces (or, for chroma planes, enlarges) a plane by area
// averaging: each destination sample is the mean of the source area it
// covers, partly covered samples weighted by their share.
type resampler struct {
	srcW, srcH, dstW, dstH int
	x, y                   axis
}

// axis holds, for each destination sample d, the first source sample it
// covers (start[d]) and the weights of the taps samples from there
// (w[d*taps:][:taps]), which sum to 1; a sample covering fewer is padded
// with zero weights, so that the inner loop has a fixed length.
type axis struct {
	start []int
	taps  int
	w     []float32
}

func newAxis(src, dst int) axis {
	scale := float64(src) / float64(dst)
	spans := make([][]float32, dst)
	starts := make([]int, dst)
	taps := 1
	for d := range dst {
		lo, hi := float64(d)*scale, math.Min(float64(d+1)*scale, float64(src))
		i0 := min(int(lo), src-1)
		i1 := max(min(int(math.Ceil(hi)), src), i0+1)
		var sum float64
		for i := i0; i < i1; i++ {
			c := max(math.Min(hi, float64(i+1))-math.Max(lo, float64(i)), 0)
			spans[d] = append(spans[d], float32(c))
			sum += c
		}
		for k := range spans[d] {
			spans[d][k] /= float32(sum)
		}
		starts[d] = i0
		taps = max(taps, len(spans[d]))
	}
	a := axis{start: starts, taps: taps, w: make([]float32, dst*taps)}
	for d, ws := range spans {
		// Near the end, start earlier and lead with zeros instead.
		shift := max(a.start[d]+taps-src, 0)
		a.start[d] -= shift
		copy(a.w[d*taps+shift:], ws)
	}
	return a
}

func newResampler(srcW, srcH, dstW, dstH int) *resampler {
	return &resampler{srcW: srcW, srcH: srcH, dstW: dstW, dstH: dstH, x: newAxis(srcW, dstW), y: newAxis(srcH, dstH)}
}

// plane reduces the rows row gives, scaling each sample by scale, into
// 8-bit samples: each destination row sums its source rows (weighted)
// into col, then each destination sample sums its taps of col.
func (r *resampler) plane(row rowFunc, scale float32) []byte {
	out := make([]byte, r.dstW*r.dstH)
	col := make([]float32, r.srcW)
	taps, yt := r.x.taps, r.y.taps
	for dy := range r.dstH {
		clear(col)
		for k, wy := range r.y.w[dy*yt:][:yt] {
			if wy != 0 {
				row(r.y.start[dy]+k, wy, col)
			}
		}
		o := out[dy*r.dstW:][:r.dstW]
		for dx := range o {
			x0 := r.x.start[dx]
			in, ws := col[x0:x0+taps], r.x.w[dx*taps:dx*taps+taps]
			var s float32
			for j, v := range in {
				s += v * ws[j]
			}
			o[dx] = uint8(min(max(s*scale+0.5, 0), 255))
		}
	}
	return out
}

// Image renders one of the images at most maxWidth wide (0 or more than
// Width: Width), reduced further by the same area averaging. The pictures
// convert from limited-range YCbCr with BT.709 for sources taller than
// 576 lines and BT.601 otherwise, the usual guess for untagged video; the
// difference is colour-mapped by DiffColor.
func (t *Thumbs) Image(kind ImageKind, maxWidth int) (*image.RGBA, error) {
	w, h := thumbSize(t.Width, t.Height, maxWidth)
	shrink := func(p []byte) []byte { return p }
	if w != t.Width {
		rs := newResampler(t.Width, t.Height, w, h)
		shrink = func(p []byte) []byte {
			if p == nil {
				return nil
			}
			return rs.plane(bytesRows(p, t.Width), 1)
		}
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	switch kind {
	case ImageReference, ImageDistorted:
		p := &t.Ref
		if kind == ImageDistorted {
			p = &t.Dist
		}
		toRGB(img, shrink(p.Y), shrink(p.Cb), shrink(p.Cr), t.Source.Height > 576)
	case ImageDifference:
		for i, d := range shrink(t.Diff) {
			c := DiffColor(d)
			copy(img.Pix[4*i:], []byte{c.R, c.G, c.B, 255})
		}
	default:
		return nil, fmt.Errorf("pipeline: unknown image %v", kind)
	}
	return img, nil
}

func bytesRows(p []byte, w int) rowFunc {
	return func(y int, wy float32, acc []float32) {
		for x, v := range p[y*w:][:len(acc)] {
			acc[x] += float32(v) * wy
		}
	}
}

func toRGB(img *image.RGBA, y, cb, cr []byte, bt709 bool) {
	// Limited-range coefficients: Cr→R, Cb→G, Cr→G, Cb→B.
	kr, kgb, kgr, kb := 1.596, 0.392, 0.813, 2.017
	if bt709 {
		kr, kgb, kgr, kb = 1.793, 0.213, 0.533, 2.112
	}
	for i, yv := range y {
		l := 1.164 * (float64(yv) - 16)
		var u, v float64
		if cb != nil {
			u, v = float64(cb[i])-128, float64(cr[i])-128
		}
		px := img.Pix[4*i:][:4]
		px[0], px[1], px[2], px[3] = clamp8(l+kr*v), clamp8(l-kgb*u-kgr*v), clamp8(l+kb*u), 255
	}
}

func clamp8(v float64) uint8 { return uint8(min(max(v+0.5, 0), 255)) }

// diffStops is the difference map's colour scale: mean |ref−dist| luma in
// 8-bit code values → colour, linear between stops: a scale that doubles
// from stop to stop, so the few codes of a good encode's error show as
// well as a gross artefact.
var diffStops = [...]struct {
	at      float64
	r, g, b float64
}{
	{0, 0, 0, 0},        // black: identical
	{4, 0, 0, 255},      // blue
	{8, 0, 255, 255},    // cyan
	{16, 255, 255, 0},   // yellow
	{32, 255, 0, 0},     // red
	{64, 255, 255, 255}, // white: 64 codes or more
}

// DiffColor is the difference map's colour for a mean |ref−dist| of d
// 8-bit code values: black at 0, blue at 4, cyan at 8, yellow at 16, red
// at 32 and white from 64, linear in between.
func DiffColor(d uint8) color.RGBA {
	v := float64(d)
	for i := 1; i < len(diffStops); i++ {
		a, b := diffStops[i-1], diffStops[i]
		if v <= b.at {
			f := (v - a.at) / (b.at - a.at)
			return color.RGBA{clamp8(a.r + f*(b.r-a.r)), clamp8(a.g + f*(b.g-a.g)), clamp8(a.b + f*(b.b-a.b)), 255}
		}
	}
	return color.RGBA{255, 255, 255, 255}
}
