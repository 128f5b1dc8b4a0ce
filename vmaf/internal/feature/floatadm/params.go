package floatadm

import (
	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// params are the option values the computation reads.
type params struct {
	egl          float64 // enhancement gain limit
	nvd          float64 // viewing distance in display heights
	rdh          int     // display height in pixels
	csfMode      int
	csfScale     float64
	csfDiagScale float64
	noiseWeight  float64
	bypassCM     bool
	pNorm        float64
	harmonic     bool // adm3 as the harmonic mean of adm2 and 1-aim
	dlmWeight    float64
	minVal       float64
	f1, f2       [4]float64 // per-scale CSF weight overrides, < 0 for none
	skipAimScale int
	skipScale0   bool

	weights [4][2]float32 // bandWeights of each scale
	// invP is 1/pNorm as the float32 libvmaf passes to powf.
	invP float32
}

func paramsFrom(s feature.Settings) *params {
	p := &params{
		egl:          s.Float("adm_enhn_gain_limit"),
		nvd:          s.Float("adm_norm_view_dist"),
		rdh:          s.Int("adm_ref_display_height"),
		csfMode:      s.Int("adm_csf_mode"),
		csfScale:     s.Float("adm_csf_scale"),
		csfDiagScale: s.Float("adm_csf_diag_scale"),
		noiseWeight:  s.Float("adm_noise_weight"),
		bypassCM:     s.Int("adm_bypass_cm") != 0,
		pNorm:        s.Float("adm_p_norm"),
		harmonic:     s.Bool("adm_adm3_apply_hm"),
		dlmWeight:    s.Float("adm_dlm_weight"),
		minVal:       s.Float("adm_min_val"),
		skipAimScale: s.Int("adm_skip_aim_scale"),
		skipScale0:   s.Bool("adm_skip_scale0"),
	}
	for i, c := range "0123" {
		p.f1[i] = s.Float("adm_f1s" + string(c))
		p.f2[i] = s.Float("adm_f2s" + string(c))
	}
	for scale := range p.weights {
		p.weights[scale] = bandWeights(p, scale)
	}
	p.invP = float32(1 / p.pNorm)
	return p
}

// cube is true for the default norm, which libvmaf computes as x·x·x
// rather than powf.
func (p *params) cube() bool { return p.pNorm == 3 }

// noiseFloor is the constant each band's norm is offset by: w·h·weight to
// the power 1/p, w×h being the region summed.
func (p *params) noiseFloor(w, h int, weight float64) float32 {
	return powf(float32(float64(w*h)*weight), p.invP)
}
