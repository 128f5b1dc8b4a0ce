package ssim

import (
	"fmt"
	"math"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/internal/kit"
)

// Kind is libvmaf 3.2.0's "float_ssim" extractor and MSKind its
// "float_ms_ssim"; both run the IQA SSIM core of this package.
var (
	Kind = &feature.Kind{Name: "float_ssim", Options: []feature.Option{
		{Name: "enable_lcs", Type: feature.Bool},
		{Name: "enable_db", Type: feature.Bool},
		{Name: "clip_db", Type: feature.Bool},
		{Name: "scale", Type: feature.Int, Min: 0, Max: 10},
	}, Outputs: kit.Suffixed("float_ssim"), New: newSSIMExtractor, Check: checkSSIM}
	MSKind = &feature.Kind{Name: "float_ms_ssim", Options: []feature.Option{
		{Name: "enable_lcs", Type: feature.Bool},
		{Name: "enable_db", Type: feature.Bool},
		{Name: "clip_db", Type: feature.Bool},
	}, Outputs: kit.Suffixed("float_ms_ssim"), New: newMSSSIMExtractor, Check: checkMSSSIM}
)

// ssimDB turns an SSIM index into decibels as libvmaf's enable_db does,
// capped at maxDB.
func ssimDB(score, maxDB float64) float64 {
	return min(-10*kit.Log10(1-score), maxDB)
}

// ssimMaxDB is clip_db's cap: the decibels of an error of half a code
// value over the whole picture, rounded up; +Inf without clip_db.
func ssimMaxDB(f feature.Format, s feature.Settings) float64 {
	if !s.Bool("clip_db") {
		return math.Inf(1)
	}
	peak := uint32(1)<<f.BitDepth - 1
	mse := 0.5 / float64(uint32(f.Width)*uint32(f.Height))
	return math.Ceil(10 * kit.Log10(float64(peak*peak)/mse))
}

type ssimExtractor struct {
	s     *floatSSIM
	db    bool
	maxDB float64
}

func checkSSIM(s feature.Settings) error { return kit.OnlyDefaults(s, "enable_lcs") }

func newSSIMExtractor(f feature.Format, s feature.Settings) (feature.Extractor, error) {
	if err := checkSSIM(s); err != nil {
		return nil, err
	}
	if scale := s.Int("scale"); scale > min(f.Width, f.Height) {
		return nil, fmt.Errorf("feature float_ssim: option scale=%d is larger than the %dx%d picture", scale, f.Width, f.Height)
	}
	return ssimExtractor{newFloatSSIM(f.Width, f.Height, f.BitDepth, s.Int("scale")), s.Bool("enable_db"), ssimMaxDB(f, s)}, nil
}

func (x ssimExtractor) Extract(_ int, ref, dist *feature.Frame, out []float64) error {
	out[0] = x.s.compute(ref.Planes[0], dist.Planes[0])
	if x.db {
		out[0] = ssimDB(out[0], x.maxDB)
	}
	return nil
}

func (ssimExtractor) Close() {}

type msssimExtractor struct {
	s     *floatMSSSIM
	db    bool
	maxDB float64
}

func checkMSSSIM(s feature.Settings) error { return kit.OnlyDefaults(s, "enable_lcs") }

func newMSSSIMExtractor(f feature.Format, s feature.Settings) (feature.Extractor, error) {
	if err := checkMSSSIM(s); err != nil {
		return nil, err
	}
	m, err := newFloatMSSSIM(f.Width, f.Height, f.BitDepth)
	if err != nil {
		return nil, err
	}
	return msssimExtractor{m, s.Bool("enable_db"), ssimMaxDB(f, s)}, nil
}

func (x msssimExtractor) Extract(_ int, ref, dist *feature.Frame, out []float64) error {
	out[0] = x.s.compute(ref.Planes[0], dist.Planes[0])
	if x.db {
		out[0] = ssimDB(out[0], x.maxDB)
	}
	return nil
}

func (msssimExtractor) Close() {}
