package vmaf

import (
	"fmt"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// The extractors of this package, as libvmaf 3.2.0 declares them: the
// integer VIF, ADM and motion of the default models, PSNR and the two
// float SSIMs. Their kernels predate the per-extractor folders; the
// Kinds make them look like the others to the planner.

const defaultEnhnGainLimit = 100.0 // libvmaf's default for VIF and ADM

var (
	admKind = &feature.Kind{Name: "adm", Options: []feature.Option{
		{Name: "debug", Type: feature.Bool},
		{Name: "adm_csf_scale", Alias: "scf", Type: feature.Double, Default: 1, Min: 0, Max: 50, Param: true},
		{Name: "adm_csf_diag_scale", Alias: "scfd", Type: feature.Double, Default: 1, Min: 0, Max: 50, Param: true},
		{Name: "adm_dlm_weight", Alias: "dlmw", Type: feature.Double, Default: 0.5, Min: 0, Max: 1, Param: true},
		{Name: "adm_enhn_gain_limit", Alias: "egl", Type: feature.Double, Default: defaultEnhnGainLimit, Min: 1, Max: defaultEnhnGainLimit, Param: true},
		{Name: "adm_norm_view_dist", Alias: "nvd", Type: feature.Double, Default: 3, Min: 0.75, Max: 24, Param: true},
		{Name: "adm_ref_display_height", Alias: "rdh", Type: feature.Int, Default: 1080, Min: 1, Max: 4320, Param: true},
		{Name: "adm_csf_mode", Alias: "csf", Type: feature.Int, Default: 0, Min: 0, Max: 3, Param: true},
		{Name: "adm_noise_weight", Alias: "nw", Type: feature.Double, Default: 0.03125, Min: 0, Max: 1500, Param: true},
		{Name: "adm_skip_aim", Type: feature.Bool},
		{Name: "adm_skip_scale0", Alias: "ssz", Type: feature.Bool, Param: true},
		{Name: "adm_min_val", Alias: "min", Type: feature.Double, Default: 0, Min: 0, Max: 1, Param: true},
	}, Outputs: suffixed("integer_adm2", "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3", "integer_aim", "integer_adm3"),
		New: newADMExtractor, Check: checkADM}
)

// suffixed names outputs as libvmaf's extractors that rename for their
// parameters do.
func suffixed(names ...string) func(feature.Format, feature.Settings) []string {
	return func(_ feature.Format, s feature.Settings) []string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = n + s.Suffix()
		}
		return out
	}
}

// onlyDefaults refuses settings that change what the named options do,
// for extractors here that implement only libvmaf's defaults of them.
func onlyDefaults(s feature.Settings, names ...string) error {
	d := s.Kind().Defaults()
	for _, n := range names {
		o := optionOf(s.Kind(), n)
		differs := s.Float(n) != d.Float(n)
		if o.Type == feature.String {
			differs = s.String(n) != d.String(n)
		}
		if differs {
			return fmt.Errorf("feature %s: option %s is not supported by the native engine (only its default)", s.Kind().Name, n)
		}
	}
	return nil
}

func optionOf(k *feature.Kind, name string) feature.Option {
	for _, o := range k.Options {
		if o.Name == name {
			return o
		}
	}
	panic("vmaf: no option " + name)
}

// planeOf views a frame's plane as the kernels here read it.
func planeOf(f *feature.Frame, i int) plane {
	p := f.Planes[i]
	return plane{data: p.Data, stride: p.Stride, w: p.W, h: p.H, bpc: p.BitDepth}
}

type admExtractor struct{ a *adm }

func checkADM(s feature.Settings) error {
	return onlyDefaults(s, "adm_csf_scale", "adm_csf_diag_scale", "adm_dlm_weight", "adm_norm_view_dist",
		"adm_ref_display_height", "adm_csf_mode", "adm_noise_weight", "adm_skip_scale0", "adm_min_val")
}

func newADMExtractor(f feature.Format, s feature.Settings) (feature.Extractor, error) {
	if err := checkADM(s); err != nil {
		return nil, err
	}
	return admExtractor{newADM(f.Width, f.Height, f.BitDepth, admOptions{enhnGainLimit: s.Float("adm_enhn_gain_limit")})}, nil
}

func (x admExtractor) Extract(_ int, ref, dist *feature.Frame, out []float64) error {
	s := x.a.compute(planeOf(ref, 0), planeOf(dist, 0))
	out[0] = s.adm2
	copy(out[1:5], s.scale[:])
	out[5], out[6] = s.aim, s.adm3
	return nil
}

func (admExtractor) Close() {}
