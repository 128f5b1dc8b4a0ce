package floatmotion

import (
	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/internal/kit"
)

// plane is a float32 picture, rows stride samples apart.
type plane struct {
	data   []float32
	w, h   int
	stride int
}

func newPlane(w, h int) plane {
	return plane{data: make([]float32, w*h), w: w, h: h, stride: w}
}

func (p plane) row(y int) []float32 { return p.data[y*p.stride : y*p.stride+p.w] }

// reflect maps a tap outside 0..n-1 back inside by mirroring about the
// first and last samples (the edge sample is not repeated), as libvmaf
// 3.2 does for the far edge too.
func reflect(t, n int) int {
	if t < 0 {
		return -t
	}
	if t >= n {
		return 2*n - 2 - t
	}
	return t
}

// rows is the blur's scratch: the source rows the vertical pass reads,
// converted once each into a ring, the vertical pass's row with room for
// the reflected margins the horizontal pass reads, and the rows under
// each tap for the vector pass. Working row by row keeps the converted
// picture out of memory: only the blurred one is written.
type rows struct {
	ring [][]float32 // source row y in ring[y%len(filter)]
	ext  []float32
	taps []*float32
	avx2 bool // run the vector passes
}

func newRows(w, radius int) *rows {
	s := &rows{ring: make([][]float32, 2*radius+1), ext: make([]float32, w+2*radius),
		taps: make([]*float32, 2*radius+1), avx2: hasAVX2()}
	for i := range s.ring {
		s.ring[i] = make([]float32, w)
	}
	return s
}

// source fills row with source row y converted to float32.
type source func(y int, row []float32)

// blur filters the dst.w×dst.h picture src gives into dst, columns
// first, then rows. Each sample's taps are summed in order from zero in
// float32, one product rounded at a time, which is the order libvmaf's
// AVX and C paths share; the float32 conversions forbid fused
// multiply-add, which would change the bits. The vector passes do the
// same lane by lane; the scalar loops finish the columns past the last
// multiple of 8.
//
// The ring holds len(f) rows, and every output row reads rows within r
// of it (reflected ones included), so the rows it needs are loaded and
// still there.
//
// With prev, a picture of dst's size, blur also returns
// meanAbsDiff(dst, *prev), taking eight rows at a time while they are
// still in cache rather than reading dst again; without, 0.
func (s *rows) blur(src source, dst plane, f []float32, prev *plane) float32 {
	diff := absDiffSum{vec: s.avx2}
	w, h, r, slots := dst.w, dst.h, len(f)/2, len(f)
	vec := 0
	if s.avx2 {
		vec = w &^ 7
	}
	loaded := 0
	for i := range h {
		for ; loaded < h && loaded <= i+r; loaded++ {
			src(loaded, s.ring[loaded%slots][:w])
		}
		if vec > 0 {
			taps := s.taps[:len(f)]
			for k := range f {
				taps[k] = &s.ring[reflect(i-r+k, h)%slots][0]
			}
			if len(f) == 5 {
				vblur5(&s.ext[r], (*[5]*float32)(taps), (*[5]float32)(f), vec)
			} else {
				vblur(&s.ext[r], taps, f, vec)
			}
		}
		mid := s.ext[r+vec : r+w]
		clear(mid)
		for k, fk := range f {
			a := s.ring[reflect(i-r+k, h)%slots][vec:w]
			for j := range mid {
				mid[j] += float32(fk * a[j])
			}
		}
		e := s.ext
		for t := range r {
			e[r-1-t] = e[r+1+t]
			e[r+w+t] = e[r+w-2-t]
		}
		if vec > 0 {
			if len(f) == 5 {
				hblur5(&dst.row(i)[0], &s.ext[0], (*[5]float32)(f), vec)
			} else {
				hblur(&dst.row(i)[0], &s.ext[0], f, vec)
			}
		}
		o := dst.row(i)[vec:w]
		clear(o)
		for k, fk := range f {
			e := s.ext[vec+k : vec+k+len(o)]
			for j := range o {
				o[j] += float32(fk * e[j])
			}
		}
		if prev != nil && i%8 == 7 {
			diff.add8(dst, *prev, i-7)
		}
	}
	if prev == nil {
		return 0
	}
	for y := h &^ 7; y < h; y++ {
		diff.add(dst, *prev, y)
	}
	return diff.mean(dst)
}

// planeSource converts a picture's rows as libvmaf's float extractors
// do: deeper samples divided down to the 8-bit range (10-bit by 4, 12-bit
// by 16, 16-bit by 256), then centred by subtracting 128. Dividing by a
// power of two and multiplying by its reciprocal are both exact, so the
// vector conversion multiplies.
type planeSource struct {
	p    feature.Plane
	div  float32
	avx2 bool
}

func newPlaneSource(p feature.Plane, avx2 bool) planeSource {
	// libvmaf knows 10, 12 and 16 bits; New refuses other depths.
	div := float32(4)
	switch p.BitDepth {
	case 8:
		div = 1
	case 12:
		div = 16
	case 16:
		div = 256
	}
	return planeSource{p: p, div: div, avx2: avx2}
}

func (ps *planeSource) row(y int, d []float32) {
	if ps.p.BitDepth == 8 {
		kit.Centre8(d, ps.p.Row8(y), ps.avx2)
		return
	}
	kit.Centre16(d, ps.p.Row16(y), ps.div, ps.avx2)
}
