package speed

import (
	"fmt"
	"math"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// params are the settings the SpEED computation itself uses.
type params struct {
	kernelScale float32
	prescale    float64
	method      scaleMethod
	sigmaNN     float32
	nnFloor     float32
	weightMode  int
}

// validKernelScales are the kernel scales libvmaf's Gaussian filters
// accept (to within 1e-3).
var validKernelScales = [...]float32{
	1.0, 1.0 / 2.0, 3.0 / 2.0, 2.0, 2.0 / 3.0, 24.0 / 10.0, 360.0 / 97.0,
	4.0 / 3.0, 3.5 / 3.0, 3.75 / 3.0, 4.25 / 3.0, 5.0 / 3.0, 3.0, 1.0 / 2.25,
	1.4746, 1.54, 1.6, 1.06667, 0.711111, 0.740740, 1.111111,
}

func readParams(name string, s feature.Settings) (params, error) {
	p := params{
		kernelScale: float32(s.Float(optKernelScale)),
		prescale:    s.Float(optPrescale),
		sigmaNN:     float32(s.Float(optSigmaNN)),
		nnFloor:     float32(s.Float(optNNFloor)),
	}
	valid := false
	for _, k := range validKernelScales {
		if abs32(p.kernelScale-k) < 1e-3 {
			valid = true
		}
	}
	if !valid {
		return params{}, fmt.Errorf("feature %s: option %s=%g: not one of the kernel scales libvmaf's filters support", name, optKernelScale, s.Float(optKernelScale))
	}
	m, ok := scaleMethods[s.String(optMethod)]
	if !ok {
		return params{}, fmt.Errorf("feature %s: option %s=%q: want nearest, bilinear, bicubic or lanczos4", name, optMethod, s.String(optMethod))
	}
	p.method = m
	return p, nil
}

// rescales says whether libvmaf rescales the plane: not when the factor
// is within 1e-3 of 1.
func (p params) rescales() bool { return math.Abs(p.prescale-1) >= 1e-3 }

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }
