package ssim

import (
	"fmt"
	"math"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// floatMSSSIM is libvmaf's float_ms_ssim extractor with its default options:
// Wang's multi-scale SSIM over five scales, each made from the previous one
// by a 9x9 low-pass filter and 2:1 decimation, the per-scale contrast and
// structure (and at the coarsest scale luminance) means raised to fixed
// exponents and multiplied.
type floatMSSSIM struct {
	// ref and dist hold each scale's image; size holds its dimensions.
	ref, dist [msssimScales][]float32
	size      [msssimScales][2]int
	lpf       [lpfTaps][lpfTaps]float32
	acc       []float64
	core      *ssimCore
}

const (
	msssimScales = 5
	lpfTaps      = 9
	lpfRadius    = lpfTaps / 2
)

// Per-scale exponents of the luminance, contrast and structure means
// (Wang, Simoncelli and Bovik's weights).
var (
	msssimAlpha = [msssimScales]float32{0, 0, 0, 0, 0.1333}
	msssimBeta  = [msssimScales]float32{0.0448, 0.2856, 0.3001, 0.2363, 0.1333}
)

// lpfQuarter is the top-left quarter (with the centre row and column) of
// IQA's 9x9 low-pass filter, a 9/7 biorthogonal wavelet. The filter is
// symmetric about its centre, but its taps are rounded individually, so it
// is not the product of two 1-D filters and must be applied in 2-D.
var lpfQuarter = [lpfRadius + 1][lpfRadius + 1]float32{
	{0.000714, -0.000450, -0.002090, 0.007132, 0.016114},
	{-0.000450, 0.000283, 0.001316, -0.004490, -0.010146},
	{-0.002090, 0.001316, 0.006115, -0.020867, -0.047149},
	{0.007132, -0.004490, -0.020867, 0.071207, 0.160885},
	{0.016114, -0.010146, -0.047149, 0.160885, 0.363505},
}

// newFloatMSSSIM makes the extractor for w x h luma planes. Like libvmaf it
// refuses pictures whose coarsest scale would be smaller than the 11x11
// SSIM window, which means anything under 176 samples in either dimension.
func newFloatMSSSIM(w, h, bpc int) (*floatMSSSIM, error) {
	cw, ch := w, h
	for i := 0; i < msssimScales; i++ {
		if cw < ssimTaps || ch < ssimTaps {
			return nil, fmt.Errorf("vmaf: float_ms_ssim needs at least %dx%d luma samples for %d scales, picture is %dx%d",
				ssimTaps<<(msssimScales-1), ssimTaps<<(msssimScales-1), msssimScales, w, h)
		}
		cw, ch = cw/2, ch/2
	}
	s := &floatMSSSIM{}
	cw, ch = w, h
	for i := range s.ref {
		s.size[i] = [2]int{cw, ch}
		s.ref[i] = make([]float32, cw*ch)
		s.dist[i] = make([]float32, cw*ch)
		cw, ch = (cw+1)/2, (ch+1)/2
	}
	for v := range s.lpf {
		for u := range s.lpf[v] {
			s.lpf[v][u] = lpfQuarter[min(v, lpfTaps-1-v)][min(u, lpfTaps-1-u)]
		}
	}
	s.acc = make([]float64, (w+1)/2)
	s.core = newSSIMCore(w)
	return s, nil
}

// compute returns float_ms_ssim for one pair of luma planes.
func (s *floatMSSSIM) compute(ref, dist feature.Plane) float64 {
	planeToFloat(s.ref[0], ref)
	planeToFloat(s.dist[0], dist)
	for i := 1; i < msssimScales; i++ {
		w, h := s.size[i-1][0], s.size[i-1][1]
		s.lowPassDecimate(s.ref[i], s.ref[i-1], w, h)
		s.lowPassDecimate(s.dist[i], s.dist[i-1], w, h)
	}
	score := 1.0
	for i := 0; i < msssimScales; i++ {
		m := s.core.run(s.ref[i], s.dist[i], s.size[i][0], s.size[i][1])
		// The structure exponent equals the contrast one at every scale.
		f := math.Pow(float64(m.l), float64(msssimAlpha[i])) * math.Pow(float64(m.c), float64(msssimBeta[i]))
		f *= math.Pow(float64(m.s), float64(msssimBeta[i]))
		score *= f
	}
	return score
}

// lowPassDecimate filters the w x h image src with the 9x9 low-pass filter
// at every other sample and row (starting at 0, mirroring past the edges)
// into dst, which is ceil(w/2) x ceil(h/2). Each output sums its 81 float32
// products in float64 in the filter's raster order, as IQA does.
func (s *floatMSSSIM) lowPassDecimate(dst, src []float32, w, h int) {
	sw, sh := (w+1)/2, (h+1)/2
	acc := s.acc[:sw]
	for y := 0; y < sh; y++ {
		clear(acc)
		for v := 0; v < lpfTaps; v++ {
			row := src[iqaMirror(2*y+v-lpfRadius, h)*w:][:w]
			k := &s.lpf[v]
			for x := range acc {
				c := 2*x - lpfRadius
				sum := acc[x]
				if c >= 0 && c+lpfTaps <= w {
					t := row[c : c+lpfTaps : c+lpfTaps]
					sum += float64(t[0] * k[0])
					sum += float64(t[1] * k[1])
					sum += float64(t[2] * k[2])
					sum += float64(t[3] * k[3])
					sum += float64(t[4] * k[4])
					sum += float64(t[5] * k[5])
					sum += float64(t[6] * k[6])
					sum += float64(t[7] * k[7])
					sum += float64(t[8] * k[8])
				} else {
					for u := 0; u < lpfTaps; u++ {
						sum += float64(row[iqaMirror(c+u, w)] * k[u])
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
