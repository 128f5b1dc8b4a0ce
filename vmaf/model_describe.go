package vmaf

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// ModelDescription is what a model is, as its file (or built-in source)
// and the spec that loaded it say: for an agent deciding whether a model
// suits a stream, and for people reading vmaf_describe_model.
type ModelDescription struct {
	Name    string // the metric key the score is reported under
	Version string // the built-in version, or the file's path
	Builtin bool
	// Type is the file's model_type: LIBSVMNUSVR, BOOTSTRAP_LIBSVMNUSVR
	// or RESIDUEBOOTSTRAP_LIBSVMNUSVR (of member "0" for a collection).
	Type string
	// Members is how many bootstrap members a collection has besides its
	// main model "0"; 0 for a single model.
	Members  int
	Norm     string // norm_type: linear_rescale or none
	Features []ModelFeature
	// Clip is the score clip applied, nil when the model has none or the
	// spec's disable_clip turned it off (ClipDisabled).
	Clip         *[2]float64
	ClipDisabled bool
	// Transform is the file's score_transform, nil when it has none.
	Transform        *ModelTransform
	ChromaCorrection bool     // chroma_correction_parameter is set
	Outputs          []string // the metrics the model reports, see OutputNames
	Viewing          Viewing
	// Learned describes a learned (ONNX) model; nil for libvmaf's models.
	Learned *LearnedDescription
}

// ModelFeature is one of a model's inputs.
type ModelFeature struct {
	Name      string        // as libvmaf reports it, e.g. integer_adm2_egl_1
	Feature   string        // as the file names it, e.g. VMAF_integer_feature_adm2_score
	Extractor string        // the extractor computing it, "" when unknown here
	Options   []ModelOption // from feature_opts_dicts and the spec's overloads
}

// ModelOption is one extractor option of a model input.
type ModelOption struct{ Key, Value string }

// ModelTransform is a score_transform: a polynomial p0 + p1·s + p2·s²
// and/or a piecewise-linear map through knots, then an optional rectifier.
type ModelTransform struct {
	Enabled    bool // applied to scores (the file's enabled, or the spec's enable_transform)
	P0, P1, P2 *float64
	Knots      [][2]float64
	OutGTEIn   bool // the result is never below the untransformed score
	OutLTEIn   bool // nor above it
}

// Viewing is the display a model was trained for, as far as anything
// says: libvmaf's model files carry no resolution or viewing distance,
// so it comes from the model's name, and is "unknown" when the name is
// not one of libvmaf's.
type Viewing struct {
	Resolution    string // "3840x2160", "1920x1080" or "unknown"
	Width, Height int    // 0 when unknown
	Display       string // e.g. "4K TV viewed at 1.5 times the screen height"; "unknown"
	Basis         string // what this is derived from
}

// Known reports whether the model's resolution is known.
func (v Viewing) Known() bool { return v.Height > 0 }

// libvmafFamily matches the names of libvmaf's 1080p models: vmaf_v0.6.1,
// vmaf_v0.6.1neg, vmaf_float_v0.6.1, vmaf_b_v0.6.3, vmaf_float_b_v0.6.3.
var libvmafFamily = regexp.MustCompile(`^vmaf_(float_)?(b_)?v0\.6\.\d+(neg)?$`)

// Describe reports what the model is.
func (m *Model) Describe() ModelDescription {
	d := ModelDescription{
		Name: m.Name, Version: m.Version, Builtin: slices.Contains(BuiltinModelVersions(), m.Version),
		Type: m.main.kind, Members: len(m.members), Norm: "none",
		ChromaCorrection: m.main.chroma, Outputs: m.OutputNames(),
	}
	if m.main.rescale {
		d.Norm = "linear_rescale"
	}
	for _, in := range m.inputs {
		f := ModelFeature{Name: in.name, Feature: in.feature}
		if ext := lookupFeature(in.feature).ext; ext != nil {
			f.Extractor = ext.Name
		}
		for _, o := range in.opts {
			f.Options = append(f.Options, ModelOption{Key: o.Key, Value: o.Val})
		}
		d.Features = append(d.Features, f)
	}
	switch s := &m.main; {
	case s.clip:
		d.Clip = &[2]float64{s.clipMin, s.clipMax}
	case s.clipMin != 0 || s.clipMax != 0:
		d.ClipDisabled = true
	}
	if tf := m.main.tf; m.main.transform || !isZeroTransform(tf) {
		t := &ModelTransform{Enabled: m.main.transform, Knots: tf.Knots, OutGTEIn: tf.OutGTEIn, OutLTEIn: tf.OutLTEIn}
		for i, p := range []**float64{&t.P0, &t.P1, &t.P2} {
			if tf.P[i].Set {
				*p = &tf.P[i].V
			}
		}
		d.Transform = t
	}
	if m.learned != nil {
		m.learned.describe(&d)
	} else {
		d.Viewing = m.Viewing()
	}
	return d
}

// isZeroTransform reports a transform the file did not give.
func isZeroTransform(tf transformDict) bool {
	return !tf.Enabled && !tf.P[0].Set && !tf.P[1].Set && !tf.P[2].Set && !tf.HasKnots && !tf.OutGTEIn && !tf.OutLTEIn
}

// Viewing is the display the model is meant for, derived from its name:
// the only place a libvmaf model says it.
func (m *Model) Viewing() Viewing {
	name := strings.ToLower(strings.TrimSuffix(filepath.Base(m.Version), ".json"))
	builtin := slices.Contains(BuiltinModelVersions(), m.Version)
	by := "the model's file name"
	if builtin {
		by = "the built-in model's name"
	}
	var v Viewing
	switch {
	case strings.Contains(name, "4k"):
		v = Viewing{Resolution: "3840x2160", Width: 3840, Height: 2160, Display: "4K TV viewed at 1.5 times the screen height",
			Basis: by + " (\"4k\": libvmaf's 4K models are trained for that display)"}
	case libvmafFamily.MatchString(name):
		v = Viewing{Resolution: "1920x1080", Width: 1920, Height: 1080, Display: "1080p HDTV viewed at 3 times the screen height",
			Basis: by + " (libvmaf's vmaf_v0.6.x models are trained for that display)"}
	default:
		return Viewing{Resolution: "unknown", Display: "unknown",
			Basis: "libvmaf's model format carries no resolution or viewing distance, and " + by + " is not one of libvmaf's"}
	}
	if m.main.transform {
		// libvmaf's "phone model" is vmaf_v0.6.1 with its score_transform
		// enabled: the same features, scores mapped for a phone screen.
		v.Display = "phone screen (score_transform enabled: libvmaf's phone model)"
		v.Basis += "; the enabled score_transform maps scores for phone viewing"
	}
	return v
}
