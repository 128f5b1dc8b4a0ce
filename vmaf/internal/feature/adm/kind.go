package adm

import (
	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/internal/kit"
)

// Kind is libvmaf 3.2.0's integer "adm" extractor, the one the default
// models use.
var Kind = &feature.Kind{Name: "adm", Options: []feature.Option{
	{Name: "debug", Type: feature.Bool},
	{Name: "adm_csf_scale", Alias: "scf", Type: feature.Double, Default: 1, Min: 0, Max: 50, Param: true},
	{Name: "adm_csf_diag_scale", Alias: "scfd", Type: feature.Double, Default: 1, Min: 0, Max: 50, Param: true},
	{Name: "adm_dlm_weight", Alias: "dlmw", Type: feature.Double, Default: 0.5, Min: 0, Max: 1, Param: true},
	{Name: "adm_enhn_gain_limit", Alias: "egl", Type: feature.Double, Default: admDefaultGainLimit, Min: 1, Max: admDefaultGainLimit, Param: true},
	{Name: "adm_norm_view_dist", Alias: "nvd", Type: feature.Double, Default: 3, Min: 0.75, Max: 24, Param: true},
	{Name: "adm_ref_display_height", Alias: "rdh", Type: feature.Int, Default: 1080, Min: 1, Max: 4320, Param: true},
	{Name: "adm_csf_mode", Alias: "csf", Type: feature.Int, Default: 0, Min: 0, Max: 3, Param: true},
	{Name: "adm_noise_weight", Alias: "nw", Type: feature.Double, Default: 0.03125, Min: 0, Max: 1500, Param: true},
	{Name: "adm_skip_aim", Type: feature.Bool},
	{Name: "adm_skip_scale0", Alias: "ssz", Type: feature.Bool, Param: true},
	{Name: "adm_min_val", Alias: "min", Type: feature.Double, Default: 0, Min: 0, Max: 1, Param: true},
	// libvmaf's extractor writes the scores in this order, which its
	// output files keep.
}, Outputs: kit.Suffixed("integer_adm2", "integer_aim", "integer_adm3", "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3"),
	New: newExtractor, Check: check}

type extractor struct{ a *adm }

func check(s feature.Settings) error {
	return kit.OnlyDefaults(s, "adm_csf_scale", "adm_csf_diag_scale", "adm_dlm_weight", "adm_norm_view_dist",
		"adm_ref_display_height", "adm_csf_mode", "adm_noise_weight", "adm_skip_scale0", "adm_min_val")
}

func newExtractor(f feature.Format, s feature.Settings) (feature.Extractor, error) {
	if err := check(s); err != nil {
		return nil, err
	}
	return extractor{newADM(f.Width, f.Height, f.BitDepth, admOptions{enhnGainLimit: s.Float("adm_enhn_gain_limit")})}, nil
}

func (x extractor) Extract(_ int, ref, dist *feature.Frame, out []float64) error {
	s := x.a.compute(ref.Planes[0], dist.Planes[0])
	out[0], out[1], out[2] = s.adm2, s.aim, s.adm3
	copy(out[3:7], s.scale[:])
	return nil
}

func (extractor) Close() {}
