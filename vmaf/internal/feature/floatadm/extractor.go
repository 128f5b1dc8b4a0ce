package floatadm

import (
	"fmt"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

type extractor struct {
	params *params
	debug  bool
	adm    *adm
}

func (x *extractor) Extract(_ int, ref, dist *feature.Frame, out []float64) error {
	a := x.adm
	if ref.Width != a.w || ref.Height != a.h || dist.Width != a.w || dist.Height != a.h {
		return fmt.Errorf("feature float_adm: frame %dx%d / %dx%d, stream is %dx%d",
			ref.Width, ref.Height, dist.Width, dist.Height, a.w, a.h)
	}
	load(a.ref, ref.Planes[0])
	load(a.dis, dist.Planes[0])
	r := a.compute()
	p := x.params
	out[0] = r.score
	out[1] = r.aim
	if p.harmonic {
		out[2] = cmax(2*r.score*r.aim/(r.score+r.aim), p.minVal)
	} else {
		out[2] = cmax(r.score*p.dlmWeight+(1-r.aim)*(1-p.dlmWeight), p.minVal)
	}
	for s := 0; s < 4; s++ {
		out[3+s] = r.scales[s][0] / r.scales[s][1]
	}
	if x.debug {
		out[7], out[8], out[9] = r.score, r.num, r.den
		for s := 0; s < 4; s++ {
			out[10+2*s], out[11+2*s] = r.scales[s][0], r.scales[s][1]
		}
	}
	return nil
}

func (x *extractor) Close() {}

// cmax is C's MAX macro, which yields y when x is NaN.
func cmax(x, y float64) float64 {
	if x > y {
		return x
	}
	return y
}
