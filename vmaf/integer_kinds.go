package vmaf

import (
	"fmt"
	"math"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// The extractors of this package, as libvmaf 3.2.0 declares them: the
// integer VIF, ADM and motion of the default models, PSNR and the two
// float SSIMs. Their kernels predate the per-extractor folders; the
// Kinds make them look like the others to the planner.

const defaultEnhnGainLimit = 100.0 // libvmaf's default for VIF and ADM

var (
	vifKind = &feature.Kind{Name: "vif", Options: []feature.Option{
		{Name: "debug", Type: feature.Bool},
		{Name: "vif_enhn_gain_limit", Alias: "egl", Type: feature.Double, Default: defaultEnhnGainLimit, Min: 1, Max: defaultEnhnGainLimit, Param: true},
		{Name: "vif_skip_scale0", Alias: "ssclz", Type: feature.Bool, Param: true},
	}, Outputs: suffixed("integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3"),
		New: newVIFExtractor, Check: checkVIF}
	admKind = &feature.Kind{Name: "adm", Options: []feature.Option{
		{Name: "debug", Type: feature.Bool},
		{Name: "adm_csf_scale", Alias: "scf", Type: feature.Double, Default: 1, Min: 0, Max: 50, Param: true},
		{Name: "adm_csf_diag_scale", Alias: "scfd", Type: feature.Double, Default: 1, Min: 0, Max: 50, Param: true},
		{Name: "adm_dlm_weight", Alias: "dlmw", Type: feature.Double, Default: 0.5, Min: 0, Max: 1, Param: true},
		{Name: "adm_enhn_gain_limit", Alias: "egl", Type: feature.Double, Default: defaultEnhnGainLimit, Min: 1, Max: defaultEnhnGainLimit, Param: true},
		{Name: "adm_norm_view_dist", Alias: "nvd", Type: feature.Double, Default: 3, Min: 0.75, Max: 24, Param: true},
		{Name: "adm_ref_display_height", Alias: "rdh", Type: feature.Int, Default: 1080, Min: 1, Max: 4320, Param: true},
		{Name: "adm_csf_mode", Alias: "csf", Type: feature.Int, Default: 0, Min: 0, Max: 3, Param: true},
		{Name: "adm_noise_weight", Alias: "nw", Type: feature.Double, Default: 0.03125, Min: 0, Max: 1500, Param: true},
		{Name: "adm_skip_aim", Type: feature.Bool},
		{Name: "adm_skip_scale0", Alias: "ssz", Type: feature.Bool, Param: true},
		{Name: "adm_min_val", Alias: "min", Type: feature.Double, Default: 0, Min: 0, Max: 1, Param: true},
	}, Outputs: suffixed("integer_adm2", "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3", "integer_aim", "integer_adm3"),
		New: newADMExtractor, Check: checkADM}
	// motionKind has no constructor: the scheduler runs integer motion
	// itself (motion.go, motion_seq.go), split into a parallel blur and an
	// in-order pass, and always, so a model swapped in later finds its
	// history.
	motionKind = &feature.Kind{Name: "motion", Options: []feature.Option{
		{Name: "motion_force_zero", Alias: "force_0", Type: feature.Bool, Param: true},
		{Name: "motion_blend_factor", Alias: "mbf", Type: feature.Double, Default: 1, Min: 0, Max: 1, Param: true},
		{Name: "motion_blend_offset", Alias: "mbo", Type: feature.Double, Default: 40, Min: 0, Max: 1000, Param: true},
		{Name: "motion_fps_weight", Alias: "mfw", Type: feature.Double, Default: 1, Min: 0, Max: 5, Param: true},
		{Name: "motion_max_val", Alias: "mmxv", Type: feature.Double, Default: 10000, Min: 0, Max: 10000, Param: true},
		{Name: "motion_five_frame_window", Alias: "mffw", Type: feature.Bool, Param: true},
		{Name: "motion_moving_average", Alias: "mma", Type: feature.Bool, Param: true},
		{Name: "debug", Type: feature.Bool},
	}, Outputs: suffixed(motionOutputs...)}
	psnrKind = &feature.Kind{Name: "psnr", Options: []feature.Option{
		{Name: "enable_chroma", Type: feature.Bool, Default: 1},
		{Name: "enable_mse", Type: feature.Bool},
		{Name: "enable_apsnr", Type: feature.Bool},
		{Name: "reduced_hbd_peak", Type: feature.Bool},
		{Name: "min_sse", Type: feature.Double, Min: 0, Max: math.MaxFloat64},
	}, Outputs: psnrOutputs, New: newPSNRExtractor}
	ssimKind = &feature.Kind{Name: "float_ssim", Options: []feature.Option{
		{Name: "enable_lcs", Type: feature.Bool},
		{Name: "enable_db", Type: feature.Bool},
		{Name: "clip_db", Type: feature.Bool},
		{Name: "scale", Type: feature.Int, Min: 0, Max: 10},
	}, Outputs: suffixed("float_ssim"), New: newSSIMExtractor, Check: checkSSIM}
	msssimKind = &feature.Kind{Name: "float_ms_ssim", Options: []feature.Option{
		{Name: "enable_lcs", Type: feature.Bool},
		{Name: "enable_db", Type: feature.Bool},
		{Name: "clip_db", Type: feature.Bool},
	}, Outputs: suffixed("float_ms_ssim"), New: newMSSSIMExtractor, Check: checkMSSSIM}
)

var motionOutputs = []string{"integer_motion", "integer_motion2", "integer_motion3"}

// suffixed names outputs as libvmaf's extractors that rename for their
// parameters do.
func suffixed(names ...string) func(feature.Format, feature.Settings) []string {
	return func(_ feature.Format, s feature.Settings) []string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = n + s.Suffix()
		}
		return out
	}
}

// onlyDefaults refuses settings that change what the named options do,
// for extractors here that implement only libvmaf's defaults of them.
func onlyDefaults(s feature.Settings, names ...string) error {
	d := s.Kind().Defaults()
	for _, n := range names {
		o := optionOf(s.Kind(), n)
		differs := s.Float(n) != d.Float(n)
		if o.Type == feature.String {
			differs = s.String(n) != d.String(n)
		}
		if differs {
			return fmt.Errorf("feature %s: option %s is not supported by the native engine (only its default)", s.Kind().Name, n)
		}
	}
	return nil
}

func optionOf(k *feature.Kind, name string) feature.Option {
	for _, o := range k.Options {
		if o.Name == name {
			return o
		}
	}
	panic("vmaf: no option " + name)
}

// planeOf views a frame's plane as the kernels here read it.
func planeOf(f *feature.Frame, i int) plane {
	p := f.Planes[i]
	return plane{data: p.Data, stride: p.Stride, w: p.W, h: p.H, bpc: p.BitDepth}
}

type vifExtractor struct{ v *vif }

func checkVIF(s feature.Settings) error { return onlyDefaults(s, "vif_skip_scale0") }

func newVIFExtractor(f feature.Format, s feature.Settings) (feature.Extractor, error) {
	if err := checkVIF(s); err != nil {
		return nil, err
	}
	return vifExtractor{newVIF(f.Width, f.Height, f.BitDepth, vifOptions{enhnGainLimit: s.Float("vif_enhn_gain_limit")})}, nil
}

func (x vifExtractor) Extract(_ int, ref, dist *feature.Frame, out []float64) error {
	s := x.v.compute(planeOf(ref, 0), planeOf(dist, 0))
	copy(out, s[:])
	return nil
}

func (vifExtractor) Close() {}

type admExtractor struct{ a *adm }

func checkADM(s feature.Settings) error {
	return onlyDefaults(s, "adm_csf_scale", "adm_csf_diag_scale", "adm_dlm_weight", "adm_norm_view_dist",
		"adm_ref_display_height", "adm_csf_mode", "adm_noise_weight", "adm_skip_scale0", "adm_min_val")
}

func newADMExtractor(f feature.Format, s feature.Settings) (feature.Extractor, error) {
	if err := checkADM(s); err != nil {
		return nil, err
	}
	return admExtractor{newADM(f.Width, f.Height, f.BitDepth, admOptions{enhnGainLimit: s.Float("adm_enhn_gain_limit")})}, nil
}

func (x admExtractor) Extract(_ int, ref, dist *feature.Frame, out []float64) error {
	s := x.a.compute(planeOf(ref, 0), planeOf(dist, 0))
	out[0] = s.adm2
	copy(out[1:5], s.scale[:])
	out[5], out[6] = s.aim, s.adm3
	return nil
}

func (admExtractor) Close() {}

// psnrOutputs: psnr_y, then psnr_cb and psnr_cr when chroma is on and the
// stream has it; each plane's MSE after its PSNR with enable_mse.
// libvmaf's PSNR options are not parameters: they never rename.
func psnrOutputs(f feature.Format, s feature.Settings) []string {
	planes := []string{"y", "cb", "cr"}
	if !s.Bool("enable_chroma") || f.Chroma == feature.Chroma400 {
		planes = planes[:1]
	}
	var out []string
	for _, p := range planes {
		out = append(out, "psnr_"+p)
		if s.Bool("enable_mse") {
			out = append(out, "mse_"+p)
		}
	}
	return out
}

type psnrExtractor struct {
	p     *psnr
	mse   bool
	apsnr bool
	// With enable_apsnr: the squared error and samples of every frame
	// this instance saw, per plane.
	sse, n [3]uint64
}

func newPSNRExtractor(f feature.Format, s feature.Settings) (feature.Extractor, error) {
	c := Chroma(f.Chroma)
	if !s.Bool("enable_chroma") {
		c = Chroma400
	}
	p := newPSNR(f.Width, f.Height, f.BitDepth, c)
	if s.Bool("reduced_hbd_peak") && f.BitDepth > 8 {
		peak := float64(int(255) << (f.BitDepth - 8))
		p.peak2 = peak * peak
	}
	if minSSE := s.Float("min_sse"); minSSE != 0 {
		// libvmaf caps each plane at the PSNR its smallest allowed error
		// would give, rounded up to whole decibels.
		peak2 := p.peak2
		for i := range p.maxPlane {
			mse := minSSE / float64(p.w[i]*p.h[i])
			p.maxPlane[i] = math.Ceil(10 * math.Log10(peak2/mse))
		}
	}
	return &psnrExtractor{p: p, mse: s.Bool("enable_mse"), apsnr: s.Bool("enable_apsnr")}, nil
}

func (x *psnrExtractor) Extract(_ int, ref, dist *feature.Frame, out []float64) error {
	n := x.p.planes
	for i := 0; i < n; i++ {
		psnr, mse, sse := x.p.plane(planeOf(ref, i), planeOf(dist, i), i)
		if x.apsnr {
			x.sse[i] += sse
			x.n[i] += uint64(x.p.w[i] * x.p.h[i])
		}
		if x.mse {
			out[2*i], out[2*i+1] = psnr, mse
		} else {
			out[i] = psnr
		}
	}
	return nil
}

func (*psnrExtractor) Close() {}

func (x *psnrExtractor) Merge(other feature.Aggregator) {
	o := other.(*psnrExtractor)
	for i := range x.sse {
		x.sse[i] += o.sse[i]
		x.n[i] += o.n[i]
	}
}

// Aggregates are apsnr_y, apsnr_cb and apsnr_cr with enable_apsnr: the
// PSNR of the whole stream's squared error, capped at the PSNR of an
// error of half a code value per sample, rounded up. Like libvmaf, it
// gives all three, whatever planes were compared (a plane never compared
// comes out not finite).
func (x *psnrExtractor) Aggregates() ([]string, []float64) {
	if !x.apsnr {
		return nil, nil
	}
	names := []string{"apsnr_y", "apsnr_cb", "apsnr_cr"}
	vals := make([]float64, 3)
	peak2 := uint64(x.p.peak2)
	for i := range vals {
		a := 10 * (psnrLog10(float64(peak2)) + psnrLog10(float64(x.n[i])) - psnrLog10(float64(x.sse[i])))
		top := math.Ceil(10 * psnrLog10(float64(peak2*x.n[i]*2)))
		if a < top {
			vals[i] = a
		} else {
			vals[i] = top
		}
	}
	return names, vals
}

// ssimDB turns an SSIM index into decibels as libvmaf's enable_db does,
// capped at maxDB.
func ssimDB(score, maxDB float64) float64 {
	return min(-10*psnrLog10(1-score), maxDB)
}

// ssimMaxDB is clip_db's cap: the decibels of an error of half a code
// value over the whole picture, rounded up; +Inf without clip_db.
func ssimMaxDB(f feature.Format, s feature.Settings) float64 {
	if !s.Bool("clip_db") {
		return math.Inf(1)
	}
	peak := uint32(1)<<f.BitDepth - 1
	mse := 0.5 / float64(uint32(f.Width)*uint32(f.Height))
	return math.Ceil(10 * psnrLog10(float64(peak*peak)/mse))
}

type ssimExtractor struct {
	s     *floatSSIM
	db    bool
	maxDB float64
}

func checkSSIM(s feature.Settings) error { return onlyDefaults(s, "enable_lcs") }

func newSSIMExtractor(f feature.Format, s feature.Settings) (feature.Extractor, error) {
	if err := checkSSIM(s); err != nil {
		return nil, err
	}
	if scale := s.Int("scale"); scale > min(f.Width, f.Height) {
		return nil, fmt.Errorf("feature float_ssim: option scale=%d is larger than the %dx%d picture", scale, f.Width, f.Height)
	}
	return ssimExtractor{newFloatSSIM(f.Width, f.Height, f.BitDepth, s.Int("scale")), s.Bool("enable_db"), ssimMaxDB(f, s)}, nil
}

func (x ssimExtractor) Extract(_ int, ref, dist *feature.Frame, out []float64) error {
	out[0] = x.s.compute(planeOf(ref, 0), planeOf(dist, 0))
	if x.db {
		out[0] = ssimDB(out[0], x.maxDB)
	}
	return nil
}

func (ssimExtractor) Close() {}

type msssimExtractor struct {
	s     *floatMSSSIM
	db    bool
	maxDB float64
}

func checkMSSSIM(s feature.Settings) error { return onlyDefaults(s, "enable_lcs") }

func newMSSSIMExtractor(f feature.Format, s feature.Settings) (feature.Extractor, error) {
	if err := checkMSSSIM(s); err != nil {
		return nil, err
	}
	m, err := newFloatMSSSIM(f.Width, f.Height, f.BitDepth)
	if err != nil {
		return nil, err
	}
	return msssimExtractor{m, s.Bool("enable_db"), ssimMaxDB(f, s)}, nil
}

func (x msssimExtractor) Extract(_ int, ref, dist *feature.Frame, out []float64) error {
	out[0] = x.s.compute(planeOf(ref, 0), planeOf(dist, 0))
	if x.db {
		out[0] = ssimDB(out[0], x.maxDB)
	}
	return nil
}

func (msssimExtractor) Close() {}
