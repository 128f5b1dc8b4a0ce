// Package speed is libvmaf's SpEED (spatial efficient entropic
// differencing): speed_chroma compares the local entropies of the
// reference's and the distorted picture's chroma planes, speed_temporal
// those of the two streams' frame differences (luma).
//
// Both follow libvmaf: the plane is optionally rescaled, blurred and
// decimated by 16, made zero-mean locally, then modelled as a Gaussian
// scale mixture over 5×5 blocks whose covariance's eigenvalues and
// per-block variances give each block's entropy. The arithmetic is
// float32 in libvmaf's order throughout, so the results match its bits.
package speed

import (
	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// Option names shared by both kinds.
const (
	optKernelScale = "speed_kernelscale"
	optPrescale    = "speed_prescale"
	optMethod      = "speed_prescale_method"
	optSigmaNN     = "speed_sigma_nn"
	optNNFloor     = "speed_nn_floor"
	optMaxVal      = "speed_max_val"
	optWeightMode  = "speed_weight_var_mode"
	optUseRefDiff  = "speed_use_ref_diff"
)

// commonOptions are the options both kinds declare, with libvmaf's
// defaults and ranges; all of them change the values, so all are params.
func commonOptions() []feature.Option {
	return []feature.Option{
		{Name: optKernelScale, Alias: "ks", Type: feature.Double, Default: 1, Min: 0.1, Max: 4, Param: true},
		{Name: optPrescale, Alias: "ps", Type: feature.Double, Default: 1, Min: 0.1, Max: 4, Param: true},
		{Name: optMethod, Alias: "psm", Type: feature.String, DefaultString: "nearest", Param: true},
		{Name: optSigmaNN, Alias: "snn", Type: feature.Double, Default: 0.29, Min: 0.1, Max: 2, Param: true},
		{Name: optNNFloor, Alias: "nnf", Type: feature.Double, Default: 0, Min: 0, Max: 1, Param: true},
		{Name: optMaxVal, Alias: "mxv", Type: feature.Double, Default: 1000, Min: 0, Max: 1000, Param: true},
	}
}

// ChromaKind is speed_chroma: SpEED on each chroma plane and their mean.
var ChromaKind = &feature.Kind{
	Name: "speed_chroma",
	Options: append(commonOptions(),
		feature.Option{Name: optWeightMode, Alias: "wvm", Type: feature.Int, Default: 0, Min: 0, Max: 6, Param: true}),
	Outputs: func(_ feature.Format, s feature.Settings) []string {
		sfx := s.Suffix()
		return []string{"speed_chroma_u" + sfx, "speed_chroma_v" + sfx, "speed_chroma_uv" + sfx}
	},
	New: newChroma,
}

// TemporalKind is speed_temporal: SpEED on the luma difference between
// each frame and the one before it, in both streams; 0 for the first
// frame.
var TemporalKind = &feature.Kind{
	Name: "speed_temporal",
	Options: append(commonOptions(),
		feature.Option{Name: optUseRefDiff, Alias: "urd", Type: feature.Bool, Default: 0, Param: true}),
	Outputs: func(_ feature.Format, s feature.Settings) []string {
		return []string{"speed_temporal" + s.Suffix()}
	},
	NewSequential: newTemporal,
}
