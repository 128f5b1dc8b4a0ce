package floatadm

import "math"

// The contrast sensitivity weights of each scale's bands. libvmaf mixes
// float and double in these formulas; each step below rounds where its
// C rounds (a float variable, or float-by-float arithmetic), since the
// weights multiply every coefficient and a different last bit would show
// in the scores.

const (
	csfWatson = 0 // libvmaf's default; so are modes 3..9
	csfBarten = 1
	csfNative = 2
)

// lumLevel is the luminance (cd/m²) libvmaf evaluates Barten's CSF at.
const lumLevel = 100.0

// displayResolution is the display's pixels per degree of visual angle.
func displayResolution(nvd float64, rdh int) float32 {
	return float32(nvd * float64(rdh) * math.Pi / 180.0)
}

// Watson, Yang, Solomon and Villasenor's quantisation-noise visibility
// model for the 7-9 biorthogonal wavelet, luma parameters.
var (
	watsonA  float32 = 0.495
	watsonK  float32 = 0.466
	watsonF0 float32 = 0.401
	watsonG          = [4]float32{1.501, 1.0, 0.534, 1.0}
	// basisAmplitude[lambda][theta]
	basisAmplitude = [6][4]float32{
		{0.62171, 0.67234, 0.72709, 0.67234},
		{0.34537, 0.41317, 0.49428, 0.41317},
		{0.18004, 0.22727, 0.28688, 0.22727},
		{0.091401, 0.11792, 0.15214, 0.11792},
		{0.045943, 0.059758, 0.077727, 0.059758},
		{0.023013, 0.030018, 0.039156, 0.030018},
	}
)

// watsonStep is the visibility threshold (quantisation step) of band
// orientation theta at scale lambda.
func watsonStep(lambda, theta int, nvd float64, rdh int) float32 {
	r := displayResolution(nvd, rdh)
	t := float32(math.Log10(math.Pow(2, float64(lambda+1)) * float64(watsonF0) * float64(watsonG[theta]) / float64(r)))
	kt := float32(float32(watsonK*t) * t)
	return float32(2.0 * float64(watsonA) * math.Pow(10, float64(kt)) / float64(basisAmplitude[lambda][theta]))
}

// nativeCSF is the CSF of Li et al.'s detail-loss paper; theta 45 is the
// diagonal band, less visible (the oblique effect).
func nativeCSF(lambda int, nvd float64, rdh int, theta int) float32 {
	r := displayResolution(nvd, rdh)
	f := float32(float64(r) / math.Pow(2, float64(lambda+1)))
	if theta == 45 {
		f = float32(float64(f) / 0.7)
	}
	return float32((0.31 + 0.69*float64(f)) * math.Exp(-0.29*float64(f)))
}

// Barten's CSF as HDR-VDP 2.2.1 simplifies it: parameters measured at six
// luminances, interpolated in log luminance.
var (
	bartenAnchors = [6]float32{0.002, 0.02, 0.2, 2, 20, 150}
	bartenParams  = [6][5]float32{
		{0.0160737, 0.991265, 3.74038, 0.50722, 4.46044},
		{0.383873, 0.800889, 3.54104, 0.682505, 4.94958},
		{0.929301, 0.476505, 4.37453, 0.750315, 5.28678},
		{1.29776, 0.405782, 4.40602, 0.935314, 5.61425},
		{1.49222, 0.334278, 3.79542, 1.07327, 6.4635},
		{1.46213, 0.394533, 2.7755, 1.16577, 7.45665},
	}
	bartenSA   = [4]float32{30.162, 4.0627, 1.6596, 0.2712}
	bartenMTFA = [4]float32{0.424838596301290, 0.572435103936480, 0.000167576239164937, 0.00255872352306433}
	bartenMTFB = [4]float32{0.028, 0.37, 37, 360}
)

func lerp32(lp, lv, rp, rv, p float32) float32 {
	return lv + float32(float32((rv-lv)/(rp-lp))*(p-lp))
}

// bartenRodCone is the luminance-dependent factor.
func bartenRodCone(lum float32) float32 {
	inner := math.Pow(float64(bartenSA[1]/lum), float64(bartenSA[2])) + 1
	return float32(float64(bartenSA[0]) * math.Pow(inner, float64(-bartenSA[3])))
}

// bartenMTF is the eye's optical transfer at spatial frequency f.
func bartenMTF(f float32) float32 {
	var mtf float32
	for i := range bartenMTFA {
		mtf = float32(float64(mtf) + float64(bartenMTFA[i])*math.Exp(float64(float32(-bartenMTFB[i]*f))))
	}
	return mtf
}

func bartenCSF(lambda int, nvd float64, rdh int, lum, scale float64) float32 {
	r := displayResolution(nvd, rdh)
	f := float32(float64(r) / math.Pow(2, float64(lambda+1)))
	l := math.Min(math.Max(lum, float64(bartenAnchors[0])), float64(bartenAnchors[5]))
	lo, hi := 0, 0
	for i := 0; i < 5; i++ {
		if l >= float64(bartenAnchors[i]) && l <= float64(bartenAnchors[i+1]) {
			lo, hi = i, i+1
			break
		}
	}
	lp := float32(math.Log10(float64(bartenAnchors[lo])))
	rp := float32(math.Log10(float64(bartenAnchors[hi])))
	sp := float32(math.Log10(l))
	var p [4]float32
	for k := range p {
		p[k] = lerp32(lp, bartenParams[lo][k+1], rp, bartenParams[hi][k+1], sp)
	}
	a := float32(1 + math.Pow(float64(float32(p[0]*f)), float64(p[1])))
	g := float64(f / 7)
	b := float32(1 / math.Pow(1-math.Exp(-math.Pow(g, 2)), float64(p[2])))
	csf := float32(float64(p[3]) / math.Pow(float64(float32(a*b)), 0.5))
	v := float32(float32(csf*bartenMTF(f)) * bartenRodCone(float32(lum)))
	return float32(float64(v) * scale)
}

// bandWeights are the CSF weights of one scale: [0] for the horizontal and
// vertical bands, [1] for the diagonal one.
func bandWeights(p *params, scale int) [2]float32 {
	var w [2]float32
	switch p.csfMode {
	case csfBarten:
		w[0] = bartenCSF(scale, p.nvd, p.rdh, lumLevel, p.csfScale)
		w[1] = bartenCSF(scale, p.nvd, p.rdh, lumLevel, p.csfDiagScale)
	case csfNative:
		w[0] = nativeCSF(scale, p.nvd, p.rdh, 0)
		w[1] = nativeCSF(scale, p.nvd, p.rdh, 45)
	default:
		w[0] = 1 / watsonStep(scale, 1, p.nvd, p.rdh)
		w[1] = 1 / watsonStep(scale, 2, p.nvd, p.rdh)
	}
	if p.f1[scale] >= 0 {
		w[0] = float32(p.f1[scale])
	}
	if p.f2[scale] >= 0 {
		w[1] = float32(p.f2[scale])
	}
	return w
}
