package floatadm

import "github.com/vmafsink/vmafsink/vmaf/internal/feature"

// adm holds one stream's scratch memory: the float pictures, the bands of
// one scale and the intermediate planes, all sized for the first scale
// and reused by the smaller ones with their own tight stride.
type adm struct {
	p        *params
	w, h     int
	ref, dis []float32 // the luma as float, w×h

	// The approximation band alternates between two buffers per picture,
	// since it is both the next scale's input and its output.
	refA, disA [2][]float32
	refB, disB bands // detail bands (a points into refA/disA)

	r, a         [3][]float32 // restored and additive detail, h v d
	scaled, mask [3][]float32 // csf outputs
	tmpLo, tmpHi []float32
	spare        []float32    // the unwanted high-pass row of a skipped scale
	thr          []float32    // a row's masking thresholds
	den          []float32    // a row of reference coefficients + eps
	gain         [3][]float32 // a row of each band's gains
	tapY, tapX   [4][]int
	// sse2 runs the SSE2 loops, which give the portable loops' bits; the
	// reciprocal division (divRow) is part of the numbers, not a choice.
	sse2 bool
}

func newADM(w, h int, p *params) *adm {
	bw, bh := (w+1)/2, (h+1)/2
	n := bw * bh
	plane := func() []float32 { return make([]float32, n) }
	x := &adm{p: p, w: w, h: h, ref: make([]float32, w*h), dis: make([]float32, w*h), sse2: hasSSE2()}
	for k := range 2 {
		x.refA[k], x.disA[k] = plane(), plane()
	}
	x.refB = bands{h: plane(), v: plane(), d: plane()}
	x.disB = bands{h: plane(), v: plane(), d: plane()}
	for b := range 3 {
		x.r[b], x.a[b], x.scaled[b], x.mask[b] = plane(), plane(), plane(), plane()
	}
	x.tmpLo, x.tmpHi = make([]float32, w), make([]float32, w)
	x.den = make([]float32, bw)
	x.spare = make([]float32, bw)
	x.thr = make([]float32, bw)
	for b := range x.gain {
		x.gain[b] = make([]float32, bw)
	}
	for k := range 4 {
		x.tapY[k], x.tapX[k] = make([]int, bh), make([]int, bw)
	}
	return x
}

// result is one frame's values: adm2 and aim, and each scale's numerator
// and denominator, as libvmaf keeps them (float32 per scale, double
// totals).
type result struct {
	score, aim, num, den float64
	scales               [4][2]float64
}

// compute scores x.ref against x.dis.
func (x *adm) compute() result {
	p := x.p
	var res result
	var num, den, aimNum, aimDen float64
	w, h := x.w, x.h
	ref, dis, stride := x.ref, x.dis, w
	for scale := 0; scale < 4; scale++ {
		x.refB.a, x.disB.a = x.refA[scale%2], x.disA[scale%2]
		var numS, denS, aimS float32
		if scale == 0 && p.skipScale0 {
			x.dwt2(ref, stride, w, h, &x.refB, true)
			x.dwt2(dis, stride, w, h, &x.disB, true)
			w, h = (w+1)/2, (h+1)/2
			denS = 1e-10 // keeps the scale's ratio finite
		} else {
			x.dwt2(ref, stride, w, h, &x.refB, false)
			x.dwt2(dis, stride, w, h, &x.disB, false)
			w, h = (w+1)/2, (h+1)/2
			x.decouple(&x.refB, &x.disB, w, h)
			weights := p.weights[scale]
			denS = x.denominator(&x.refB, w, h, weights)
			// Detail loss: the restored detail, masked by the
			// additive impairment.
			csf(&x.a, &x.scaled, &x.mask, w, h, weights)
			numS = x.cm(&x.r, &x.scaled, &x.mask, w, h, weights, p.noiseWeight)
			// Additive impairment, masked by the restored detail,
			// without noise floor.
			csf(&x.r, &x.scaled, &x.mask, w, h, weights)
			aimS = x.cm(&x.a, &x.scaled, &x.mask, w, h, weights, 0)
		}
		num += float64(numS)
		den += float64(denS)
		if p.skipAimScale != scale {
			aimDen += float64(denS)
			aimNum += float64(aimS)
		}
		res.scales[scale] = [2]float64{float64(numS), float64(denS)}
		ref, dis, stride = x.refB.a, x.disB.a, w
	}
	limit := 1e-10 * float64(x.w*x.h) / (1920.0 * 1080.0)
	if num < limit {
		num = 0
	}
	if den < limit {
		den = 0
	}
	if den == 0 {
		// libvmaf leaves aim unset here; no impairment is the
		// consistent value.
		res.score, res.aim = 1, 0
	} else {
		res.score = num / den
		// C's MIN macro: a NaN ratio gives 1.
		if q := aimNum / aimDen; q < 1 {
			res.aim = q
		} else {
			res.aim = 1
		}
	}
	res.num, res.den = num, den
	return res
}

// load converts a luma plane to float the way libvmaf's float extractors
// do: 8-bit samples less 128, deeper ones first scaled to the 8-bit
// range.
func load(dst []float32, pl feature.Plane) {
	w := pl.W
	if pl.BitDepth == 8 {
		for y := 0; y < pl.H; y++ {
			d := dst[y*w : y*w+w]
			for i, v := range pl.Row8(y) {
				d[i] = float32(v) - 128
			}
		}
		return
	}
	scale := float32(int(1) << (pl.BitDepth - 8))
	for y := 0; y < pl.H; y++ {
		d := dst[y*w : y*w+w]
		for i, v := range pl.Row16(y) {
			d[i] = float32(v)/scale - 128
		}
	}
}
