package psnr

import (
	"math"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/internal/kit"
)

// Kind is libvmaf 3.2.0's integer "psnr" extractor.
var Kind = &feature.Kind{Name: "psnr", Options: []feature.Option{
	{Name: "enable_chroma", Type: feature.Bool, Default: 1},
	{Name: "enable_mse", Type: feature.Bool},
	{Name: "enable_apsnr", Type: feature.Bool},
	{Name: "reduced_hbd_peak", Type: feature.Bool},
	{Name: "min_sse", Type: feature.Double, Min: 0, Max: math.MaxFloat64},
}, Outputs: outputs, New: newExtractor}

// outputs: psnr_y, then psnr_cb and psnr_cr when chroma is on and the
// stream has it; each plane's MSE after its PSNR with enable_mse.
// libvmaf's PSNR options are not parameters: they never rename.
func outputs(f feature.Format, s feature.Settings) []string {
	planes := []string{"y", "cb", "cr"}
	if !s.Bool("enable_chroma") || f.Chroma == feature.Chroma400 {
		planes = planes[:1]
	}
	var out []string
	for _, p := range planes {
		out = append(out, "psnr_"+p)
		if s.Bool("enable_mse") {
			out = append(out, "mse_"+p)
		}
	}
	return out
}

type extractor struct {
	p     *psnr
	mse   bool
	apsnr bool
	// With enable_apsnr: the squared error and samples of every frame
	// this instance saw, per plane.
	sse, n [3]uint64
}

func newExtractor(f feature.Format, s feature.Settings) (feature.Extractor, error) {
	c := f.Chroma
	if !s.Bool("enable_chroma") {
		c = feature.Chroma400
	}
	p := newPSNR(f.Width, f.Height, f.BitDepth, c)
	if s.Bool("reduced_hbd_peak") && f.BitDepth > 8 {
		peak := float64(int(255) << (f.BitDepth - 8))
		p.peak2 = peak * peak
	}
	if minSSE := s.Float("min_sse"); minSSE != 0 {
		// libvmaf caps each plane at the PSNR its smallest allowed error
		// would give, rounded up to whole decibels.
		peak2 := p.peak2
		for i := range p.maxPlane {
			mse := minSSE / float64(p.w[i]*p.h[i])
			p.maxPlane[i] = math.Ceil(10 * math.Log10(peak2/mse))
		}
	}
	return &extractor{p: p, mse: s.Bool("enable_mse"), apsnr: s.Bool("enable_apsnr")}, nil
}

func (x *extractor) Extract(_ int, ref, dist *feature.Frame, out []float64) error {
	n := x.p.planes
	for i := 0; i < n; i++ {
		psnr, mse, sse := x.p.plane(ref.Planes[i], dist.Planes[i], i)
		if x.apsnr {
			x.sse[i] += sse
			x.n[i] += uint64(x.p.w[i] * x.p.h[i])
		}
		if x.mse {
			out[2*i], out[2*i+1] = psnr, mse
		} else {
			out[i] = psnr
		}
	}
	return nil
}

func (*extractor) Close() {}

func (x *extractor) Merge(other feature.Aggregator) {
	o := other.(*extractor)
	for i := range x.sse {
		x.sse[i] += o.sse[i]
		x.n[i] += o.n[i]
	}
}

// Aggregates are apsnr_y, apsnr_cb and apsnr_cr with enable_apsnr: the
// PSNR of the whole stream's squared error, capped at the PSNR of an
// error of half a code value per sample, rounded up. Like libvmaf, it
// gives all three, whatever planes were compared (a plane never compared
// comes out not finite).
func (x *extractor) Aggregates() ([]string, []float64) {
	if !x.apsnr {
		return nil, nil
	}
	names := []string{"apsnr_y", "apsnr_cb", "apsnr_cr"}
	vals := make([]float64, 3)
	peak2 := uint64(x.p.peak2)
	for i := range vals {
		a := 10 * (kit.Log10(float64(peak2)) + kit.Log10(float64(x.n[i])) - kit.Log10(float64(x.sse[i])))
		top := math.Ceil(10 * kit.Log10(float64(peak2*x.n[i]*2)))
		if a < top {
			vals[i] = a
		} else {
			vals[i] = top
		}
	}
	return names, vals
}
