package vmaf

func newADMUnit(w, h, bpc int, gainLimit float64) (unit, error) {
	return admUnit{newADM(w, h, bpc, admOptions{enhnGainLimit: gainLimit})}, nil
}

type admUnit struct{ a *adm }

func (u admUnit) compute(ref, dist *Picture, out []float64) {
	s := u.a.compute(ref.plane(0), dist.plane(0))
	out[0] = s.adm2
	copy(out[1:5], s.scale[:])
	out[5], out[6] = s.aim, s.adm3
}
