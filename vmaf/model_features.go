package vmaf

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/adm"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/floatadm"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/floatmotion"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/floatvif"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/motion"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/vif"
)

// featureSpec names one model input: the extractor settings that compute
// it and the name libvmaf reports it under, e.g. "integer_vif_scale0_egl_1".
type featureSpec struct {
	settings feature.Settings
	name     string
}

// featureSource says which extractor computes a model feature and which of
// its outputs the feature is; output is empty for outputs the native
// engine does not compute.
type featureSource struct {
	ext    *feature.Kind
	output string
}

// lookupFeature finds the extractor libvmaf uses for a model's feature
// name; ext is nil for features it does not know here.
func lookupFeature(feature string) featureSource {
	if mid, ok := cutAffixes(feature, "VMAF_integer_feature_", "_score"); ok {
		switch {
		case isScaled(mid, "vif_scale"):
			return featureSource{vif.Kind, mid}
		case mid == "adm2" || mid == "aim" || mid == "adm3":
			return featureSource{adm.Kind, mid}
		case mid == "motion" || mid == "motion2" || mid == "motion3":
			return featureSource{motion.Kind, mid}
		case mid == "motion_sad":
			return featureSource{motion.Kind, ""}
		}
		return featureSource{}
	}
	if mid, ok := cutAffixes(feature, "VMAF_feature_", "_score"); ok {
		switch {
		case isScaled(mid, "vif_scale"):
			return featureSource{floatvif.Kind, mid}
		case mid == "adm2" || mid == "aim" || mid == "adm3" || isScaled(mid, "adm_scale"):
			return featureSource{floatadm.Kind, mid}
		case mid == "motion" || mid == "motion2" || mid == "motion3":
			return featureSource{floatmotion.Kind, mid}
		}
		return featureSource{}
	}
	if rest, ok := strings.CutPrefix(feature, "integer_adm"); ok {
		if isScaled("adm"+rest, "adm_scale") {
			return featureSource{adm.Kind, "adm" + rest}
		}
		return featureSource{adm.Kind, ""} // num/den and the like
	}
	if strings.HasPrefix(feature, "integer_vif") {
		return featureSource{vif.Kind, ""}
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

// settingsOf resolves an extractor's settings from a feature's options,
// parsed and range-checked as libvmaf does. Keys the extractor does not
// have are ignored, as in libvmaf.
func settingsOf(k *feature.Kind, opts []featureOpt) (feature.Settings, error) {
	s := k.Defaults()
	for _, o := range k.Options {
		v, ok := optValue(opts, o.Name)
		if !ok {
			continue
		}
		var err error
		if s, err = s.With(o.Name, v); err != nil {
			return feature.Settings{}, err
		}
	}
	return s, nil
}

// reportedName is the name libvmaf reports a feature under: its alias and
// the suffix of its extractor's settings. Features of extractors not known
// here carry their options in the same form.
func reportedName(feature string, opts []featureOpt) string {
	name := aliasFeature(feature)
	ext := lookupFeature(feature).ext
	if ext != nil && ext.Options != nil {
		if s, err := settingsOf(ext, opts); err == nil {
			return name + s.Suffix()
		}
		// featureSpecs reports the bad value; keep the name distinct.
		for _, o := range opts {
			name += "_" + o.Key + "_" + o.Val
		}
		return name
	}
	for _, o := range slices.SortedFunc(slices.Values(opts), func(a, b featureOpt) int { return strings.Compare(a.Key, b.Key) }) {
		name += "_" + o.Key + "_" + o.Val
	}
	return name
}

// featureSpecs lists the model's inputs as the native engine computes
// them, or says which input or setting it cannot compute.
func (m *Model) featureSpecs() ([]featureSpec, error) {
	if m.learned != nil {
		return m.learned.featureSpecs(m)
	}
	for _, s := range m.subModels() {
		if s.chroma {
			return nil, fmt.Errorf("chroma_correction_parameter (speed_chroma post-processing) is not supported by the native engine")
		}
	}
	specs := make([]featureSpec, len(m.inputs))
	for i, in := range m.inputs {
		src := lookupFeature(in.feature)
		if src.ext == nil || extractorKinds[src.ext.Name] != src.ext {
			ext := "an extractor"
			if src.ext != nil {
				ext = "libvmaf's " + src.ext.Name + " extractor"
			}
			return nil, fmt.Errorf("input %s (%s) needs %s, which the native engine lacks", in.name, in.feature, ext)
		}
		if src.output == "" {
			return nil, fmt.Errorf("input %s (%s): the native %s extractor does not compute it", in.name, in.feature, src.ext.Name)
		}
		s, err := settingsOf(src.ext, in.opts)
		if err == nil {
			err = checkSettings(s)
		}
		if err != nil {
			return nil, fmt.Errorf("input %s: %w", in.name, err)
		}
		specs[i] = featureSpec{settings: s, name: in.name}
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
