package vmaf

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// featureSpec names one model input: which extractor produces it and with
// which options.
type featureSpec struct {
	extractor string  // "vif", "adm" or "motion" (libvmaf's integer extractors)
	output    string  // e.g. "vif_scale0", "adm2", "adm_scale1", "aim", "adm3", "motion2"
	gainLimit float64 // vif_enhn_gain_limit or adm_enhn_gain_limit; 100 when not set
	name      string  // libvmaf's reported name, e.g. "integer_vif_scale0_egl_1"
}

// extractorInfo describes one of libvmaf's feature extractors: its name
// (as spec options address it) and its options.
type extractorInfo struct {
	name    string
	native  bool // computed by this package's engine
	options []optionInfo
}

type optionKind int

const (
	optBool optionKind = iota
	optInt
	optDouble
)

// optionInfo is an extractor option. A feature parameter changes the
// feature's value, so libvmaf names a feature computed with a non-default
// one by appending the option's alias (and value, unless boolean).
type optionInfo struct {
	name, alias string
	kind        optionKind
	def         float64 // default; 0 or 1 for booleans
	min, max    float64
	param       bool
}

// The extractor tables hold libvmaf 3.2.0's integer extractors' options.
// They are read-only.
var (
	vifExtractor = &extractorInfo{name: "vif", native: true, options: []optionInfo{
		{name: "debug", kind: optBool},
		{name: "vif_enhn_gain_limit", alias: "egl", kind: optDouble, def: defaultEnhnGainLimit, min: 1, max: defaultEnhnGainLimit, param: true},
		{name: "vif_skip_scale0", alias: "ssclz", kind: optBool, param: true},
	}}
	admExtractor = &extractorInfo{name: "adm", native: true, options: []optionInfo{
		{name: "debug", kind: optBool},
		{name: "adm_csf_scale", alias: "scf", kind: optDouble, def: 1, min: 0, max: 50, param: true},
		{name: "adm_csf_diag_scale", alias: "scfd", kind: optDouble, def: 1, min: 0, max: 50, param: true},
		{name: "adm_dlm_weight", alias: "dlmw", kind: optDouble, def: 0.5, min: 0, max: 1, param: true},
		{name: "adm_enhn_gain_limit", alias: "egl", kind: optDouble, def: defaultEnhnGainLimit, min: 1, max: defaultEnhnGainLimit, param: true},
		{name: "adm_norm_view_dist", alias: "nvd", kind: optDouble, def: 3, min: 0.75, max: 24, param: true},
		{name: "adm_ref_display_height", alias: "rdh", kind: optInt, def: 1080, min: 1, max: 4320, param: true},
		{name: "adm_csf_mode", alias: "csf", kind: optInt, def: 0, min: 0, max: 3, param: true},
		{name: "adm_noise_weight", alias: "nw", kind: optDouble, def: 0.03125, min: 0, max: 1500, param: true},
		{name: "adm_skip_aim", kind: optBool},
		{name: "adm_skip_scale0", alias: "ssz", kind: optBool, param: true},
		{name: "adm_min_val", alias: "min", kind: optDouble, def: 0, min: 0, max: 1, param: true},
	}}
	motionExtractor = &extractorInfo{name: "motion", native: true, options: []optionInfo{
		{name: "motion_force_zero", alias: "force_0", kind: optBool, param: true},
		{name: "motion_blend_factor", alias: "mbf", kind: optDouble, def: 1, min: 0, max: 1, param: true},
		{name: "motion_blend_offset", alias: "mbo", kind: optDouble, def: 40, min: 0, max: 1000, param: true},
		{name: "motion_fps_weight", alias: "mfw", kind: optDouble, def: 1, min: 0, max: 5, param: true},
		{name: "motion_max_val", alias: "mmxv", kind: optDouble, def: 10000, min: 0, max: 10000, param: true},
		{name: "motion_five_frame_window", alias: "mffw", kind: optBool, param: true},
		{name: "motion_moving_average", alias: "mma", kind: optBool, param: true},
		{name: "debug", kind: optBool},
	}}
	// The floating-point extractors, which the native engine does not
	// compute, are known by name and gain limits only: enough to name the
	// inputs of libvmaf's float models.
	floatVIFExtractor = &extractorInfo{name: "float_vif", options: []optionInfo{
		{name: "vif_enhn_gain_limit", alias: "egl", kind: optDouble, def: defaultEnhnGainLimit, min: 1, max: defaultEnhnGainLimit, param: true},
	}}
	floatADMExtractor = &extractorInfo{name: "float_adm", options: []optionInfo{
		{name: "adm_enhn_gain_limit", alias: "egl", kind: optDouble, def: defaultEnhnGainLimit, min: 1, max: defaultEnhnGainLimit, param: true},
	}}
	floatMotionExtractor = &extractorInfo{name: "float_motion"}
)

const defaultEnhnGainLimit = 100.0 // libvmaf's default for VIF and ADM

// featureSource says which extractor computes a model feature and which of
// its outputs the feature is; output is empty for outputs the native
// engine does not compute.
type featureSource struct {
	ext    *extractorInfo
	output string
}

// lookupFeature finds the extractor libvmaf uses for a model's feature
// name; ext is nil for features it does not know here.
func lookupFeature(feature string) featureSource {
	if mid, ok := cutAffixes(feature, "VMAF_integer_feature_", "_score"); ok {
		switch {
		case isScaled(mid, "vif_scale"):
			return featureSource{vifExtractor, mid}
		case mid == "adm2" || mid == "aim" || mid == "adm3":
			return featureSource{admExtractor, mid}
		case mid == "motion" || mid == "motion2" || mid == "motion3":
			return featureSource{motionExtractor, mid}
		case mid == "motion_sad":
			return featureSource{motionExtractor, ""}
		}
		return featureSource{}
	}
	if mid, ok := cutAffixes(feature, "VMAF_feature_", "_score"); ok {
		switch {
		case isScaled(mid, "vif_scale"):
			return featureSource{floatVIFExtractor, ""}
		case mid == "adm2" || mid == "aim" || mid == "adm3" || isScaled(mid, "adm_scale"):
			return featureSource{floatADMExtractor, ""}
		case mid == "motion" || mid == "motion2" || mid == "motion3":
			return featureSource{floatMotionExtractor, ""}
		}
		return featureSource{}
	}
	if rest, ok := strings.CutPrefix(feature, "integer_adm"); ok {
		if isScaled("adm"+rest, "adm_scale") {
			return featureSource{admExtractor, "adm" + rest}
		}
		return featureSource{admExtractor, ""} // num/den and the like
	}
	if strings.HasPrefix(feature, "integer_vif") {
		return featureSource{vifExtractor, ""}
	}
	return featureSource{}
}

func cutAffixes(s, prefix, suffix string) (string, bool) {
	mid, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return "", false
	}
	return strings.CutSuffix(mid, suffix)
}

// isScaled reports whether s is base followed by a scale digit 0..3.
func isScaled(s, base string) bool {
	d, ok := strings.CutPrefix(s, base)
	return ok && len(d) == 1 && d[0] >= '0' && d[0] <= '3'
}

// aliasFeature returns the short name libvmaf reports a feature under.
func aliasFeature(feature string) string {
	if mid, ok := cutAffixes(feature, "VMAF_integer_feature_", "_score"); ok {
		if mid != "motion_sad" && lookupFeature(feature).output != "" {
			return "integer_" + mid
		}
		return feature
	}
	if mid, ok := cutAffixes(feature, "VMAF_feature_", "_score"); ok && lookupFeature(feature).ext != nil {
		return mid
	}
	switch feature {
	case "Cambi_feature_cambi_score":
		return "cambi"
	case "Speed_temporal_feature_speed_temporal_score":
		return "speed_temporal"
	}
	if mid, ok := cutAffixes(feature, "Speed_chroma_feature_", "_score"); ok {
		return mid
	}
	return feature
}

// optionValues resolves an extractor's options from a feature's options:
// values parsed and range-checked as libvmaf does, defaults where unset.
// Keys the extractor does not have are ignored, as in libvmaf.
func (e *extractorInfo) optionValues(opts []featureOpt) ([]float64, error) {
	vals := make([]float64, len(e.options))
	for i, o := range e.options {
		vals[i] = o.def
		s, ok := optValue(opts, o.name)
		if !ok {
			continue
		}
		var err error
		switch o.kind {
		case optBool:
			switch s {
			case "true":
				vals[i] = 1
			case "false":
				vals[i] = 0
			default:
				err = fmt.Errorf("want true or false")
			}
		case optInt:
			var n int
			if n, err = strconv.Atoi(s); err == nil {
				vals[i] = float64(n)
			}
		case optDouble:
			vals[i], err = strconv.ParseFloat(s, 64)
		}
		if err == nil && o.kind != optBool && !(vals[i] >= o.min && vals[i] <= o.max) { // NaN fails too
			err = fmt.Errorf("outside %g..%g", o.min, o.max)
		}
		if err != nil {
			return nil, fmt.Errorf("%s option %s=%q: %w", e.name, o.name, s, err)
		}
	}
	return vals, nil
}

// reportedName is the name libvmaf reports a feature under: its alias,
// then for each feature parameter not at its default, in order of option
// name, "_alias" (booleans) or "_alias_value". Features of extractors not
// known here carry their options in the same form.
func reportedName(feature string, opts []featureOpt) string {
	name := aliasFeature(feature)
	ext := lookupFeature(feature).ext
	if ext == nil || ext.options == nil {
		for _, o := range slices.SortedFunc(slices.Values(opts), func(a, b featureOpt) int { return strings.Compare(a.Key, b.Key) }) {
			name += "_" + o.Key + "_" + o.Val
		}
		return name
	}
	vals, err := ext.optionValues(opts)
	if err != nil {
		// featureSpecs reports the bad value; keep the name distinct.
		for _, o := range opts {
			name += "_" + o.Key + "_" + o.Val
		}
		return name
	}
	order := make([]int, len(ext.options))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(ext.options[a].name, ext.options[b].name) })
	for _, i := range order {
		o := ext.options[i]
		if !o.param || vals[i] == o.def {
			continue
		}
		switch o.kind {
		case optBool:
			name += "_" + o.alias
		case optInt:
			name += "_" + o.alias + "_" + strconv.Itoa(int(vals[i]))
		default:
			name += "_" + o.alias + "_" + formatG(vals[i])
		}
	}
	return name
}

// featureSpecs lists the model's inputs as the native engine computes
// them, or says which input or setting it cannot compute.
func (m *Model) featureSpecs() ([]featureSpec, error) {
	for _, s := range m.subModels() {
		if s.chroma {
			return nil, fmt.Errorf("chroma_correction_parameter (speed_chroma post-processing) is not supported by the native engine")
		}
	}
	specs := make([]featureSpec, len(m.inputs))
	for i, in := range m.inputs {
		src := lookupFeature(in.feature)
		if src.ext == nil || !src.ext.native {
			ext := "an extractor"
			if src.ext != nil {
				ext = "libvmaf's " + src.ext.name + " extractor"
			}
			return nil, fmt.Errorf("input %s (%s) needs %s, which the native engine lacks", in.name, in.feature, ext)
		}
		if src.output == "" {
			return nil, fmt.Errorf("input %s (%s): the native %s extractor does not compute it", in.name, in.feature, src.ext.name)
		}
		vals, err := src.ext.optionValues(in.opts)
		if err != nil {
			return nil, fmt.Errorf("input %s: %w", in.name, err)
		}
		spec := featureSpec{extractor: src.ext.name, output: src.output, gainLimit: defaultEnhnGainLimit, name: in.name}
		for j, o := range src.ext.options {
			switch {
			case o.name == "vif_enhn_gain_limit" || o.name == "adm_enhn_gain_limit":
				spec.gainLimit = vals[j]
			case o.param && vals[j] != o.def:
				return nil, fmt.Errorf("input %s: option %s is not supported by the native engine", in.name, o.name)
			}
		}
		specs[i] = spec
	}
	return specs, nil
}

// subModels returns the model's SVMs: the model (or member "0"), then any
// collection members.
func (m *Model) subModels() []*subModel {
	out := []*subModel{&m.main}
	for i := range m.members {
		out = append(out, &m.members[i])
	}
	return out
}
