// Package floatvif is libvmaf's float_vif: visual information fidelity
// on the luma plane at four scales, computed in float32 the way libvmaf's
// float VIF computes it, so that the float VMAF models get the values
// they were trained with.
package floatvif

import (
	"fmt"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// Kind is float_vif with libvmaf 3.2.0's options.
var Kind = &feature.Kind{
	Name: "float_vif",
	Options: []feature.Option{
		{Name: "debug", Type: feature.Bool},
		{Name: "vif_enhn_gain_limit", Alias: "egl", Type: feature.Double, Default: 100, Min: 1, Max: 100, Param: true},
		{Name: "vif_kernelscale", Alias: "ks", Type: feature.Double, Default: 1, Min: 0.1, Max: 4, Param: true},
		{Name: "vif_prescale", Alias: "ps", Type: feature.Double, Default: 1, Min: 0.1, Max: 4, Param: true},
		{Name: "vif_scale1_min_val", Alias: "s1miv", Type: feature.Double, Min: 0, Max: 1, Param: true},
		{Name: "vif_scale2_min_val", Alias: "s2miv", Type: feature.Double, Min: 0, Max: 1, Param: true},
		{Name: "vif_scale3_min_val", Alias: "s3miv", Type: feature.Double, Min: 0, Max: 1, Param: true},
		{Name: "vif_prescale_method", Alias: "pm", Type: feature.String, DefaultString: "nearest", Param: true},
		{Name: "vif_sigma_nsq", Alias: "snsq", Type: feature.Double, Default: 2, Min: 0, Max: 5, Param: true},
		{Name: "vif_skip_scale0", Alias: "ssclz", Type: feature.Bool, Param: true},
	},
	Outputs: outputs,
	New:     newExtractor,
}

// scoreNames are the four per-scale scores; debugNames the totals and the
// per-scale numerators and denominators libvmaf adds in debug mode.
var (
	scoreNames = []string{"vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3"}
	debugNames = []string{"vif", "vif_num", "vif_den",
		"vif_num_scale0", "vif_den_scale0", "vif_num_scale1", "vif_den_scale1",
		"vif_num_scale2", "vif_den_scale2", "vif_num_scale3", "vif_den_scale3"}
)

func outputs(_ feature.Format, s feature.Settings) []string {
	names := scoreNames
	if s.Bool("debug") {
		names = append(append([]string(nil), scoreNames...), debugNames...)
	}
	suffix := s.Suffix()
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n + suffix
	}
	return out
}

// config is what an instance computes with, read once from the settings.
type config struct {
	debug      bool
	gainLimit  float64
	kernel     float32 // libvmaf hands the kernel scale to its filters as a float
	sigmaNsq   float64
	skipScale0 bool
	minVal     [4]float64 // floor of each scale's score; none for scale 0
	method     scaler
	scaledW    int
	scaledH    int
}

func readConfig(f feature.Format, s feature.Settings) (config, error) {
	c := config{
		debug:      s.Bool("debug"),
		gainLimit:  s.Float("vif_enhn_gain_limit"),
		kernel:     float32(s.Float("vif_kernelscale")),
		sigmaNsq:   s.Float("vif_sigma_nsq"),
		skipScale0: s.Bool("vif_skip_scale0"),
		minVal:     [4]float64{0, s.Float("vif_scale1_min_val"), s.Float("vif_scale2_min_val"), s.Float("vif_scale3_min_val")},
	}
	if !validKernelScale(c.kernel) {
		return c, fmt.Errorf("feature float_vif: option vif_kernelscale=%g is not one of libvmaf's kernel scales", s.Float("vif_kernelscale"))
	}
	m, ok := scalers[s.String("vif_prescale_method")]
	if !ok {
		return c, fmt.Errorf("feature float_vif: option vif_prescale_method=%q: want nearest, bilinear, bicubic or lanczos4", s.String("vif_prescale_method"))
	}
	c.method = m
	if f.Width < 1 || f.Height < 1 {
		return c, fmt.Errorf("feature float_vif: empty picture %dx%d", f.Width, f.Height)
	}
	switch f.BitDepth {
	case 8, 10, 12, 16:
	default:
		return c, fmt.Errorf("feature float_vif: bit depth %d is not supported (8, 10, 12 or 16)", f.BitDepth)
	}
	// The scaled size rounds as libvmaf's int cast of w·prescale+0.5 does.
	ps := s.Float("vif_prescale")
	c.scaledW = int(float64(f.Width)*ps + 0.5)
	c.scaledH = int(float64(f.Height)*ps + 0.5)
	if c.method == scaleBilinear && c.scaledW > bilinearMaxWidth {
		return c, fmt.Errorf("feature float_vif: vif_prescale_method=bilinear scales to at most %d samples a row, not %d", bilinearMaxWidth, c.scaledW)
	}
	if need := minSize(c.kernel); c.scaledW < need || c.scaledH < need {
		return c, fmt.Errorf("feature float_vif: the picture is %dx%d after prescaling; VIF's four scales with kernel scale %g need at least %dx%d",
			c.scaledW, c.scaledH, s.Float("vif_kernelscale"), need, need)
	}
	return c, nil
}

// minSize is the smallest side for which every scale's filter reflects
// inside the picture at that scale (a side of n reflects a filter of
// radius r only if n > r). libvmaf reads outside its buffers below it.
func minSize(kernel float32) int {
	for n := 1; ; n++ {
		ok, side := true, n
		for scale := 0; scale < 4 && ok; scale++ {
			r := filterSize(scale, kernel) / 2
			if scale > 0 {
				// The decimating filter runs on the previous scale's side.
				ok = side > r
				side /= 2
			}
			ok = ok && side > r
		}
		if ok {
			return n
		}
	}
}
