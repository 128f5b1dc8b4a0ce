package floatmotion

import "github.com/vmafsink/vmafsink/vmaf/internal/feature"

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

// load converts a plane to float32 as libvmaf's float extractors do:
// deeper samples divided down to the 8-bit range (10-bit by 4, 12-bit by
// 16, 16-bit by 256), then centred by subtracting 128.
func load(dst plane, src feature.Plane) {
	if src.BitDepth == 8 {
		for y := range dst.h {
			d, s := dst.row(y), src.Row8(y)[:dst.w]
			for x, v := range s {
				d[x] = float32(v) - 128
			}
		}
		return
	}
	// libvmaf knows 10, 12 and 16 bits; New refuses other depths.
	div := float32(4)
	switch src.BitDepth {
	case 12:
		div = 16
	case 16:
		div = 256
	}
	for y := range dst.h {
		d, s := dst.row(y), src.Row16(y)[:dst.w]
		for x, v := range s {
			d[x] = float32(v)/div - 128
		}
	}
}

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

// rows is the blur's scratch: the vertical pass's row with room for the
// reflected margins the horizontal pass reads, and the rows under each
// tap for the vector pass.
type rows struct {
	ext  []float32
	taps []*float32
	avx2 bool // run the vector passes
}

func newRows(w, radius int) *rows {
	return &rows{ext: make([]float32, w+2*radius), taps: make([]*float32, 2*radius+1), avx2: hasAVX2()}
}

// blur filters src into dst, columns first, then rows. Each sample's taps
// are summed in order from zero in float32, one product rounded at a
// time, which is the order libvmaf's AVX and C paths share; the float32
// conversions forbid fused multiply-add, which would change the bits. The
// vector passes do the same lane by lane; the scalar loops finish the
// columns past the last multiple of 8.
func (s *rows) blur(src, dst plane, f []float32) {
	w, r := src.w, len(f)/2
	vec := 0
	if s.avx2 {
		vec = w &^ 7
	}
	for i := range src.h {
		if vec > 0 {
			taps := s.taps[:len(f)]
			for k := range f {
				taps[k] = &src.data[reflect(i-r+k, src.h)*src.stride]
			}
			vblur(&s.ext[r], taps, f, vec)
		}
		mid := s.ext[r+vec : r+w]
		clear(mid)
		for k, fk := range f {
			a := src.row(reflect(i-r+k, src.h))[vec:w]
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
			hblur(&dst.row(i)[0], &s.ext[0], f, vec)
		}
		o := dst.row(i)[vec:w]
		clear(o)
		for k, fk := range f {
			e := s.ext[vec+k : vec+k+len(o)]
			for j := range o {
				o[j] += float32(fk * e[j])
			}
		}
	}
}
