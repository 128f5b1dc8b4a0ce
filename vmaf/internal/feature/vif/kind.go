package vif

import (
	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/internal/kit"
)

// Kind is libvmaf 3.2.0's integer "vif" extractor, the one the default
// models use.
var Kind = &feature.Kind{Name: "vif", Options: []feature.Option{
	{Name: "debug", Type: feature.Bool},
	{Name: "vif_enhn_gain_limit", Alias: "egl", Type: feature.Double, Default: vifDefaultEnhnGainLimit, Min: 1, Max: vifDefaultEnhnGainLimit, Param: true},
	{Name: "vif_skip_scale0", Alias: "ssclz", Type: feature.Bool, Param: true},
}, Outputs: kit.Suffixed("integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3"),
	New: newExtractor, Check: check, Parts: 2}

type extractor struct{ v *vif }

func check(s feature.Settings) error { return kit.OnlyDefaults(s, "vif_skip_scale0") }

func newExtractor(f feature.Format, s feature.Settings) (feature.Extractor, error) {
	if err := check(s); err != nil {
		return nil, err
	}
	return extractor{newVIF(f.Width, f.Height, f.BitDepth, vifOptions{enhnGainLimit: s.Float("vif_enhn_gain_limit")})}, nil
}

func (x extractor) Extract(_ int, ref, dist *feature.Frame, out []float64) error {
	s := x.v.compute(ref.Planes[0], dist.Planes[0])
	copy(out, s[:])
	return nil
}

// ExtractPart computes scale 0 (part 0) or scales 1 to 3 (part 1), which
// share nothing but the input planes: the decimated scales are made from
// the input, not from anything scale 0 computes.
func (x extractor) ExtractPart(p, _ int, ref, dist *feature.Frame, out []float64) error {
	first, last := vifPartScales(p)
	s := x.v.computeScales(ref.Planes[0], dist.Planes[0], first, last)
	copy(out[first:last+1], s[first:last+1])
	return nil
}

func (extractor) Close() {}
