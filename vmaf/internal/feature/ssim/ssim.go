package ssim

import (
	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// floatSSIM is libvmaf's float_ssim extractor with its default options
// (scores as a plain index, automatic scale). Samples become float32 on an
// 8-bit scale (deeper samples are divided by 2^(bpc-8)), both pictures are
// shrunk by an integer factor that grows with the picture (about one step
// per 256 lines of the smaller dimension), and SSIM is computed on the
// result.
type floatSSIM struct {
	w, h      int
	bpc       int
	factor    int // decimation factor, 1 for none
	sw, sh    int // size SSIM runs at
	ref, dist []float32
	sref      []float32 // decimated pictures, when factor > 1
	sdist     []float32
	acc       []float64
	core      *ssimCore
}

// newFloatSSIM makes the extractor; scale is libvmaf's decimation
// factor override, 0 for the automatic one.
func newFloatSSIM(w, h, bpc, scale int) *floatSSIM {
	factor := ssimAutoFactor(w, h)
	if scale > 0 {
		factor = scale
	}
	s := &floatSSIM{w: w, h: h, bpc: bpc, factor: factor}
	s.ref = make([]float32, w*h)
	s.dist = make([]float32, w*h)
	s.sw, s.sh = w, h
	if s.factor > 1 {
		s.sw, s.sh = decimatedSize(w, s.factor), decimatedSize(h, s.factor)
		s.sref = make([]float32, s.sw*s.sh)
		s.sdist = make([]float32, s.sw*s.sh)
		s.acc = make([]float64, s.sw)
	}
	s.core = newSSIMCore(s.sw)
	return s
}

// ssimAutoFactor is IQA's default decimation: the smaller dimension over
// 256, rounded half up, at least 1.
func ssimAutoFactor(w, h int) int {
	return max(1, (min(w, h)+128)/256)
}

// decimatedSize is how many samples IQA keeps of n when it decimates by
// factor. It adds one for any odd n, whatever the factor, so the last
// sample it filters may lie past the edge (it is then mirrored).
func decimatedSize(n, factor int) int {
	return n/factor + n&1
}

// compute returns float_ssim for one pair of luma planes.
func (s *floatSSIM) compute(ref, dist feature.Plane) float64 {
	planeToFloat(s.ref, ref)
	planeToFloat(s.dist, dist)
	a, b := s.ref, s.dist
	if s.factor > 1 {
		boxDecimate(s.sref, s.ref, s.w, s.h, s.factor, s.acc)
		boxDecimate(s.sdist, s.dist, s.w, s.h, s.factor, s.acc)
		a, b = s.sref, s.sdist
	}
	return float64(s.core.run(a, b, s.sw, s.sh).ssim)
}

// planeToFloat converts a plane to float32 on an 8-bit scale, as libvmaf's
// float extractors see it; the division by a power of two is exact.
func planeToFloat(dst []float32, p feature.Plane) {
	if p.BitDepth == 8 {
		for y := 0; y < p.H; y++ {
			src := p.Row8(y)
			out := dst[y*p.W : y*p.W+p.W]
			for x, v := range src {
				out[x] = float32(v)
			}
		}
		return
	}
	scale := 1 / float32(int(1)<<(p.BitDepth-8))
	for y := 0; y < p.H; y++ {
		src := p.Row16(y)
		out := dst[y*p.W : y*p.W+p.W]
		for x, v := range src {
			out[x] = float32(v) * scale
		}
	}
}

// iqaMirror reflects an index into [0, n) repeating the edge sample (-1
// maps to 0, n to n-1), IQA's symmetric boundary.
func iqaMirror(i, n int) int {
	if i < 0 {
		return -1 - i
	}
	if i >= n {
		return 2*n - 1 - i
	}
	return i
}

// boxDecimate averages factor x factor blocks of the w x h image src into
// dst, one output per block, starting with the block centred on (0, 0).
// Each sample is weighted by the float32 1/factor² and the products are
// summed in float64: every product is a float32 well inside float64's
// precision, so that sum is exact and the filter can run row by row.
// acc holds at least one output row.
func boxDecimate(dst, src []float32, w, h, factor int, acc []float64) {
	sw, sh := decimatedSize(w, factor), decimatedSize(h, factor)
	k := 1 / float32(factor*factor)
	lo := -(factor / 2)
	hi := lo + factor - 1
	acc = acc[:sw]
	for y := 0; y < sh; y++ {
		clear(acc)
		for v := lo; v <= hi; v++ {
			row := src[iqaMirror(y*factor+v, h)*w:][:w]
			for x := range acc {
				cx := x * factor
				sum := acc[x]
				if cx+lo >= 0 && cx+hi < w {
					for _, p := range row[cx+lo : cx+hi+1] {
						sum += float64(p * k)
					}
				} else {
					for u := lo; u <= hi; u++ {
						sum += float64(row[iqaMirror(cx+u, w)] * k)
					}
				}
				acc[x] = sum
			}
		}
		out := dst[y*sw : y*sw+sw]
		for x := range out {
			out[x] = float32(acc[x])
		}
	}
}
