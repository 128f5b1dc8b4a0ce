package vmaf

import (
	"strconv"
	"strings"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/adm"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/motion"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/vif"
)

// FeatureSource is what a reported feature's name says about how it was
// computed.
type FeatureSource struct {
	// Extractor is named as libvmaf's extractor sources are: integer_vif,
	// integer_adm, integer_motion, float_vif, float_adm, float_motion,
	// psnr, float_ssim or float_ms_ssim.
	Extractor string
	// Suffix is the part of the name that encodes options, "_egl_1" in
	// integer_adm2_egl_1; features with equal Extractor and Suffix come
	// from one extractor instance.
	Suffix string
	// Options are the options Suffix sets, e.g. adm_enhn_gain_limit 1;
	// nil when none.
	Options map[string]float64
}

// reporter is an extractor as feature names know it.
type reporter struct {
	name string
	kind *feature.Kind
}

// featureReporters maps each feature name the engines report, at default
// options, to its extractor. Read-only.
var featureReporters = func() map[string]reporter {
	m := map[string]reporter{}
	f := feature.Format{Chroma: feature.Chroma420, BitDepth: 8}
	add := func(name string, k *feature.Kind, outs []string) {
		for _, n := range outs {
			m[n] = reporter{name, k}
		}
	}
	for _, k := range extractorKinds {
		name := k.Name
		switch k {
		case vif.Kind, adm.Kind, motion.Kind:
			name = "integer_" + k.Name
		}
		add(name, k, k.Outputs(f, k.Defaults()))
	}
	return m
}()

// FeatureExtractor says which extractor reports a feature, and with
// which options when its name carries them (see Model.FeatureNames); ok
// is false for a name no extractor reports, such as a model's score.
func FeatureExtractor(name string) (src FeatureSource, ok bool) {
	if r, ok := featureReporters[name]; ok {
		return FeatureSource{Extractor: r.name}, true
	}
	// The longest known name the suffix follows: integer_adm_scale0, not
	// integer_adm, in integer_adm_scale0_egl_1.
	for i := len(name) - 1; i > 0; i-- {
		if name[i] != '_' {
			continue
		}
		r, ok := featureReporters[name[:i]]
		if !ok {
			continue
		}
		src := FeatureSource{Extractor: r.name}
		if opts, ok := suffixOptions(r.kind, name[i:]); ok {
			src.Suffix, src.Options = name[i:], opts
		}
		return src, true
	}
	return FeatureSource{}, false
}

// suffixOptions reads the options a feature name's suffix sets, as
// feature.Settings.Suffix writes them: "_alias" for a boolean,
// "_alias_value" otherwise.
func suffixOptions(k *feature.Kind, suffix string) (map[string]float64, bool) {
	if k == nil {
		return nil, false
	}
	opts := map[string]float64{}
	for rest := suffix; rest != ""; {
		o, after := optionAt(k, rest)
		if o == nil {
			return nil, false
		}
		if o.Type == feature.Bool {
			opts[o.Name], rest = 1, after
			continue
		}
		val, tail, more := strings.Cut(strings.TrimPrefix(after, "_"), "_")
		v, err := strconv.ParseFloat(val, 64)
		if after == "" || err != nil {
			return nil, false
		}
		opts[o.Name], rest = v, ""
		if more {
			rest = "_" + tail
		}
	}
	return opts, true
}

// optionAt finds the feature parameter whose "_alias" begins s, and the
// rest of s after it.
func optionAt(k *feature.Kind, s string) (*feature.Option, string) {
	for i := range k.Options {
		o := &k.Options[i]
		if !o.Param || o.Alias == "" {
			continue
		}
		after, ok := strings.CutPrefix(s, "_"+o.Alias)
		if ok && (after == "" || after[0] == '_') {
			return o, after
		}
	}
	return nil, ""
}

// ModelLabel names a model where one string must do (the control
// plane's records, status and commands): its metric name when a spec
// gave one, else its version, which is what a swap request names to get
// it back. Two models of one version that a client named apart stay
// apart. Results files and bus messages have room for both and carry
// Version as the model and Name as its key (model-name on the bus).
func ModelLabel(name, version string) string {
	switch {
	case name != "" && name != defaultModelName:
		return name
	case version != "":
		return version
	}
	return name
}

// Label is ModelLabel of the model's name and version; "" for no model.
func (m *Model) Label() string {
	if m == nil {
		return ""
	}
	return ModelLabel(m.Name, m.Version)
}
