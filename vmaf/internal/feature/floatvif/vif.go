package floatvif

import (
	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

type extractor struct {
	config
	filters [4][]float32
	stat    statistic
	// ref and dis hold the converted luma; scaledRef and scaledDis the
	// prescaled pictures (the same planes when there is no prescaling);
	// levels[s] the decimated pictures of scale s ≥ 1.
	ref, dis             plane
	scaledRef, scaledDis plane
	levels               [4][2]plane
	prescaled            bool
	rows                 *rows
}

func newExtractor(f feature.Format, s feature.Settings) (feature.Extractor, error) {
	c, err := readConfig(f, s)
	if err != nil {
		return nil, err
	}
	x := &extractor{config: c, stat: newStatistic(c.gainLimit, c.sigmaNsq)}
	widest := 0
	for scale := range x.filters {
		x.filters[scale] = gaussian(scale, c.kernel)
		widest = max(widest, len(x.filters[scale]))
	}
	x.ref, x.dis = newPlane(f.Width, f.Height), newPlane(f.Width, f.Height)
	x.scaledRef, x.scaledDis = x.ref, x.dis
	if c.scaledW != f.Width || c.scaledH != f.Height {
		x.scaledRef, x.scaledDis = newPlane(c.scaledW, c.scaledH), newPlane(c.scaledW, c.scaledH)
		x.prescaled = true
	}
	w, h := c.scaledW, c.scaledH
	for scale := 1; scale < 4; scale++ {
		w, h = w/2, h/2
		x.levels[scale] = [2]plane{newPlane(w, h), newPlane(w, h)}
	}
	x.rows = newRows(c.scaledW, widest/2)
	return x, nil
}

func (x *extractor) Close() {}

func (x *extractor) Extract(_ int, ref, dist *feature.Frame, out []float64) error {
	load(x.ref, ref.Planes[0])
	load(x.dis, dist.Planes[0])
	if x.prescaled {
		x.method.scale(x.ref, x.scaledRef)
		x.method.scale(x.dis, x.scaledDis)
	}

	// nums and dens are float32 sums widened, as libvmaf stores them.
	var nums, dens [4]float64
	start := 0
	if x.skipScale0 {
		start = 1
	}
	r, d := x.scaledRef, x.scaledDis
	for scale := start; scale < 4; scale++ {
		f := x.filters[scale]
		if scale > 0 {
			next := x.levels[scale]
			x.rows.decimate(r, d, f, next[0], next[1])
			r, d = next[0], next[1]
		}
		n, dn := x.rows.scaleSums(r, d, f, &x.stat)
		nums[scale], dens[scale] = float64(n), float64(dn)
	}

	if x.skipScale0 {
		out[0] = 0
	} else {
		out[0] = nums[0] / dens[0]
	}
	for scale := 1; scale < 4; scale++ {
		v := nums[scale] / dens[scale]
		if !(v > x.minVal[scale]) {
			v = x.minVal[scale]
		}
		out[scale] = v
	}
	if !x.debug {
		return nil
	}

	var num, den float64
	for scale := start; scale < 4; scale++ {
		num += nums[scale]
		den += dens[scale]
	}
	total := 1.0
	if den != 0 {
		total = num / den
	}
	out[4], out[5], out[6] = total, num, den
	if x.skipScale0 {
		nums[0], dens[0] = 0, -1
	}
	for scale := range 4 {
		out[7+2*scale], out[8+2*scale] = nums[scale], dens[scale]
	}
	return nil
}
