// Package floatadm is libvmaf's float_adm: the Additive Distortion Metric
// (detail loss, adm2, and additive impairment, aim, and their blend,
// adm3) of the luma plane over four scales of a Daubechies-2 wavelet,
// computed in float32 the way libvmaf's scalar code computes it.
//
// Every rounding step, summation order and mixed float/double operation
// of libvmaf is kept, so that the values are libvmaf's to the last bit
// on the same processor (its x86 build divides with the processor's
// reciprocal estimate, see div_amd64.go). On amd64 the hot loops run four
// columns at a time with SSE2; their lanes repeat the scalar operations
// exactly, and tests hold them to the portable Go code bit for bit.
package floatadm

import (
	"fmt"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// Kind is float_adm with libvmaf 3.2.0's options and output names.
var Kind = &feature.Kind{
	Name:    "float_adm",
	Options: options,
	Outputs: outputs,
	New:     newExtractor,
}

func param(name, alias string, typ feature.OptionType, def, min, max float64) feature.Option {
	return feature.Option{Name: name, Alias: alias, Type: typ, Default: def, Min: min, Max: max, Param: true}
}

// options are libvmaf's, in its order. Every one but debug changes the
// values and so the output names.
var options = []feature.Option{
	{Name: "debug", Type: feature.Bool},
	param("adm_enhn_gain_limit", "egl", feature.Double, 100, 1, 100),
	param("adm_norm_view_dist", "nvd", feature.Double, 3, 0.75, 24),
	param("adm_noise_weight", "nw", feature.Double, 0.03125, 0, 1500),
	param("adm_csf_scale", "scf", feature.Double, 1, 0, 50),
	param("adm_csf_diag_scale", "scfd", feature.Double, 1, 0, 50),
	param("adm_ref_display_height", "rdf", feature.Int, 1080, 1, 4320),
	param("adm_csf_mode", "csf", feature.Int, 0, 0, 9),
	param("adm_bypass_cm", "bcm", feature.Int, 0, 0, 1),
	param("adm_adm3_apply_hm", "aah", feature.Bool, 0, 0, 0),
	param("adm_p_norm", "apn", feature.Double, 3, 1, 20),
	param("adm_dlm_weight", "dlmw", feature.Double, 0.5, 0, 1),
	param("adm_min_val", "min", feature.Double, 0, 0, 1),
	param("adm_f1s0", "f1s0", feature.Double, -1, -1, 10),
	param("adm_f1s1", "f1s1", feature.Double, -1, -1, 10),
	param("adm_f1s2", "f1s2", feature.Double, -1, -1, 10),
	param("adm_f1s3", "f1s3", feature.Double, -1, -1, 10),
	param("adm_f2s0", "f2s0", feature.Double, -1, -1, 10),
	param("adm_f2s1", "f2s1", feature.Double, -1, -1, 10),
	param("adm_f2s2", "f2s2", feature.Double, -1, -1, 10),
	param("adm_f2s3", "f2s3", feature.Double, -1, -1, 10),
	// libvmaf's default (-1, no scale skipped) lies outside the range a
	// user may set.
	param("adm_skip_aim_scale", "sasc", feature.Int, -1, 0, 3),
	param("adm_skip_scale0", "ssz", feature.Bool, 0, 0, 0),
}

// scoreNames are the values every instance reports, in Extract's order.
var scoreNames = []string{"adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2", "adm_scale3"}

// debugNames follow with debug=true. libvmaf reports "adm" without the
// parameters' suffix, the others with it.
var debugNames = []string{"adm_num", "adm_den",
	"adm_num_scale0", "adm_den_scale0", "adm_num_scale1", "adm_den_scale1",
	"adm_num_scale2", "adm_den_scale2", "adm_num_scale3", "adm_den_scale3"}

func outputs(_ feature.Format, s feature.Settings) []string {
	suffix := s.Suffix()
	var names []string
	for _, n := range scoreNames {
		names = append(names, n+suffix)
	}
	if s.Bool("debug") {
		names = append(names, "adm")
		for _, n := range debugNames {
			names = append(names, n+suffix)
		}
	}
	return names
}

// minSize is the smallest width and height whose coarsest wavelet bands
// are at least 2x2. libvmaf's edge handling takes a neighbour on each
// side; on smaller pictures it reads what earlier scales left in its
// buffers (16x16 gives adm2 near 1.5), or before them.
const minSize = 17

func newExtractor(f feature.Format, s feature.Settings) (feature.Extractor, error) {
	switch f.BitDepth {
	case 8, 10, 12, 16:
	default:
		return nil, fmt.Errorf("feature float_adm: bit depth %d is not supported (8, 10, 12 or 16)", f.BitDepth)
	}
	if f.Width < minSize || f.Height < minSize {
		return nil, fmt.Errorf("feature float_adm: picture %dx%d is smaller than the %dx%d its four wavelet scales need",
			f.Width, f.Height, minSize, minSize)
	}
	p := paramsFrom(s)
	return &extractor{
		params: p,
		debug:  s.Bool("debug"),
		adm:    newADM(f.Width, f.Height, p),
	}, nil
}
