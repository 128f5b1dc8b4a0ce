package vmaf

import "fmt"

// unit is one worker's instance of a per-frame extractor. It writes its
// outputs, in unitOutputs order, to the start of out.
type unit interface {
	compute(ref, dist *Picture, out []float64)
}

func newUnit(k unitKey, w, h, bpc int, c Chroma) (unit, error) {
	switch k.kind {
	case unitVIF:
		return vifUnit{newVIF(w, h, bpc, vifOptions{enhnGainLimit: k.gainLimit})}, nil
	case unitADM:
		return admUnit{newADM(w, h, bpc, admOptions{enhnGainLimit: k.gainLimit})}, nil
	case unitPSNR:
		return psnrUnit{newPSNR(w, h, bpc, c)}, nil
	case unitSSIM:
		return ssimUnit{newFloatSSIM(w, h, bpc)}, nil
	case unitMSSSIM:
		s, err := newFloatMSSSIM(w, h, bpc)
		if err != nil {
			return nil, err
		}
		return msssimUnit{s}, nil
	}
	return nil, fmt.Errorf("vmaf: unknown extractor kind %d", k.kind)
}

type vifUnit struct{ v *vif }

func (u vifUnit) compute(ref, dist *Picture, out []float64) {
	s := u.v.compute(ref.plane(0), dist.plane(0))
	copy(out, s[:])
}

type admUnit struct{ a *adm }

func (u admUnit) compute(ref, dist *Picture, out []float64) {
	s := u.a.compute(ref.plane(0), dist.plane(0))
	out[0] = s.adm2
	copy(out[1:5], s.scale[:])
	out[5], out[6] = s.aim, s.adm3
}

type psnrUnit struct{ p *psnr }

func (u psnrUnit) compute(ref, dist *Picture, out []float64) {
	out[0], out[1], out[2] = u.p.compute(ref, dist)
}

type ssimUnit struct{ s *floatSSIM }

func (u ssimUnit) compute(ref, dist *Picture, out []float64) {
	out[0] = u.s.compute(ref.plane(0), dist.plane(0))
}

type msssimUnit struct{ s *floatMSSSIM }

func (u msssimUnit) compute(ref, dist *Picture, out []float64) {
	out[0] = u.s.compute(ref.plane(0), dist.plane(0))
}
