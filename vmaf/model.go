package vmaf

import (
	"fmt"
	"strconv"

	"github.com/vmafsink/vmafsink/internal/boundedfile"
	"github.com/vmafsink/vmafsink/vmaf/internal/svm"
)

// MaxModelFileBytes bounds a model file: libvmaf's largest model is under
// 1 MiB, and a path naming a huge file must not cost the process its memory.
const MaxModelFileBytes = 64 << 20

// Model is a VMAF model: a ν-SVR over extracted features, or a bootstrap
// collection of them, as libvmaf reads from its JSON model format.
// A Model is immutable and safe for concurrent use.
type Model struct {
	// Name is the metric key the model's score is reported under:
	// "vmaf" unless a spec's name= says otherwise.
	Name string
	// Version is the built-in model's version, e.g. "vmaf_v0.6.1", or the
	// path of a model read from a file; ParseModel leaves it empty.
	Version string

	inputs  []modelInput  // every submodel's features, each once, first use first
	main    subModel      // the model, or member "0" of a collection
	members []subModel    // a bootstrap collection's members "1".."N"
	names   []string      // metricNames
	learned *learnedModel // a learned (ONNX) model; main and members are then unused
}

// modelInput is one feature a model reads.
type modelInput struct {
	feature string       // libvmaf's feature name, e.g. VMAF_integer_feature_adm2_score
	opts    []featureOpt // the extractor options it is computed with
	name    string       // the name libvmaf reports it under, e.g. integer_adm2_egl_1
}

// subModel is one SVM with its normalisation and post-processing.
type subModel struct {
	kind               string // model_type, for Describe
	inputs             []int  // per feature, its index in Model.inputs
	rescale            bool   // norm_type linear_rescale; otherwise none
	slope, intercept   float64
	slopes, intercepts []float64 // per feature
	svm                svm.Model
	clip               bool
	clipMin, clipMax   float64
	transform          bool // apply tf
	tf                 transformDict
	chroma             bool // chroma_correction_parameter given
}

// modelConfig holds what libvmaf's model spec adds to a model file.
type modelConfig struct {
	name, version   string
	disableClip     bool
	enableTransform bool
	overloads       []featureOverload
}

// featureOverload sets an option of every feature an extractor computes,
// as the spec "vif.vif_enhn_gain_limit=1" does.
type featureOverload struct {
	extractor, key, val string
}

const defaultModelName = "vmaf"

// ParseModel reads a model in libvmaf's JSON format: a single model or a
// bootstrap collection. The model reports under the name "vmaf".
func ParseModel(data []byte) (*Model, error) {
	dicts, err := decodeModelFile(data)
	if err != nil {
		return nil, fmt.Errorf("vmaf: parse model: %w", err)
	}
	m, err := newModel(dicts, modelConfig{name: defaultModelName})
	if err != nil {
		return nil, fmt.Errorf("vmaf: parse model: %w", err)
	}
	return m, nil
}

// LoadModelFile reads a model file in libvmaf's JSON format. The model's
// Version is path.
func LoadModelFile(path string) (*Model, error) {
	if IsLearnedModelPath(path) {
		return loadLearnedSpec(ModelSpec{Path: path}, path, false)
	}
	return loadModelFile(path, modelConfig{name: defaultModelName, version: path})
}

func loadModelFile(path string, cfg modelConfig) (*Model, error) {
	// A FIFO or a device named like a model is refused, not waited on.
	data, err := boundedfile.Read(path, MaxModelFileBytes)
	if err != nil {
		return nil, fmt.Errorf("vmaf: load model: %w", err)
	}
	dicts, err := decodeModelFile(data)
	if err != nil {
		return nil, fmt.Errorf("vmaf: load model %s: %w", path, err)
	}
	m, err := newModel(dicts, cfg)
	if err != nil {
		return nil, fmt.Errorf("vmaf: load model %s: %w", path, err)
	}
	return m, nil
}

// FeatureNames lists the model's inputs as libvmaf names them, e.g.
// integer_vif_scale0 or integer_adm2_egl_1; a collection lists the inputs
// of all its members, each once.
func (m *Model) FeatureNames() []string {
	names := make([]string, len(m.inputs))
	for i, in := range m.inputs {
		names[i] = in.name
	}
	return names
}

// IsCollection reports whether the model is a bootstrap collection, which
// reports confidence figures beside its score.
func (m *Model) IsCollection() bool { return len(m.members) > 0 }

// metricNames lists what predict writes, in order: the model's score, then
// for a collection each member's score, the bagged mean, its standard
// deviation and 95% confidence bounds, named as libvmaf names them.
func (m *Model) metricNames() []string { return m.names }

// OutputNames lists the metrics the model adds to each Result, in order:
// its score under Name, then for a collection the members' scores and
// the confidence figures, each named Name followed by a suffix.
func (m *Model) OutputNames() []string { return append([]string(nil), m.names...) }

func newModel(dicts []modelDict, cfg modelConfig) (*Model, error) {
	m := &Model{Name: cfg.name, Version: cfg.version}
	if m.Name == "" {
		return nil, fmt.Errorf("empty model name")
	}
	at := "model_dict"
	if len(dicts) > 1 {
		at = `"0".model_dict`
	}
	var err error
	if m.main, err = m.newSubModel(dicts[0], at, cfg); err != nil {
		return nil, err
	}
	m.names = []string{m.Name}
	if len(dicts) > 1 {
		if err := m.addMembers(dicts[1:], cfg); err != nil {
			return nil, err
		}
	}
	// The name is a key in every result; a collection's outputs extend it.
	if err := CheckModelName(m.Name); err != nil {
		return nil, err
	}
	for _, n := range m.names[1:] {
		if _, ok := FeatureExtractor(n); ok {
			return nil, fmt.Errorf("model name %q: its output %q is the name of a feature; choose another", m.Name, n)
		}
	}
	if err := m.checkOverloads(cfg.overloads); err != nil {
		return nil, err
	}
	return m, nil
}

// addMembers adds a collection's members "1".."N", which libvmaf
// reports one by one and summarises.
func (m *Model) addMembers(dicts []modelDict, cfg modelConfig) error {
	m.members = make([]subModel, len(dicts))
	for i, d := range dicts {
		at := strconv.Quote(strconv.Itoa(i+1)) + ".model_dict"
		var err error
		if m.members[i], err = m.newSubModel(d, at, cfg); err != nil {
			return err
		}
		// libvmaf scores a collection only when its members are bootstraps
		// of one kind.
		if d.ModelType != typeBootstrap && d.ModelType != typeResidueBootstrap {
			return fmt.Errorf("%s.model_type: %q in a collection, want %s or %s", at, d.ModelType, typeBootstrap, typeResidueBootstrap)
		}
		if d.ModelType != dicts[0].ModelType {
			return fmt.Errorf("%s.model_type: %q differs from member \"1\"'s %q", at, d.ModelType, dicts[0].ModelType)
		}
		m.names = append(m.names, fmt.Sprintf("%s_%04d", m.Name, i+1))
	}
	m.names = append(m.names, m.Name+"_bagging", m.Name+"_stddev", m.Name+"_ci_p95_lo", m.Name+"_ci_p95_hi")
	return nil
}

func (m *Model) newSubModel(d modelDict, at string, cfg modelConfig) (subModel, error) {
	s := subModel{}
	n := len(d.FeatureNames)
	switch {
	case d.ModelType == "":
		return s, fmt.Errorf("%s: no model_type", at)
	case d.ModelType != typeSVR && d.ModelType != typeBootstrap && d.ModelType != typeResidueBootstrap:
		return s, fmt.Errorf("%s.model_type: %q not supported (want %s, %s or %s)", at, d.ModelType, typeSVR, typeBootstrap, typeResidueBootstrap)
	case d.NormType == "":
		return s, fmt.Errorf("%s: no norm_type", at)
	case d.NormType != "linear_rescale" && d.NormType != "none":
		return s, fmt.Errorf("%s.norm_type: %q not supported (want linear_rescale or none)", at, d.NormType)
	case n == 0:
		return s, fmt.Errorf("%s: no feature_names", at)
	case n > maxFeatures:
		return s, fmt.Errorf("%s.feature_names: %d features, more than libvmaf's %d", at, n, maxFeatures)
	case len(d.FeatureOpts) > n:
		return s, fmt.Errorf("%s.feature_opts_dicts: %d entries for %d features", at, len(d.FeatureOpts), n)
	case !d.HasSVM:
		return s, fmt.Errorf("%s: no model (the libsvm text)", at)
	}
	s.kind = d.ModelType
	s.rescale = d.NormType == "linear_rescale"
	if s.rescale {
		for _, f := range []struct {
			name string
			v    []float64
		}{{"slopes", d.Slopes}, {"intercepts", d.Intercepts}} {
			if len(f.v) != n+1 {
				return s, fmt.Errorf("%s.%s: has %d values, want %d (the model's, then one per feature name)", at, f.name, len(f.v), n+1)
			}
		}
		if d.Slopes[0] == 0 {
			return s, fmt.Errorf("%s.slopes[0]: the model's slope is zero", at)
		}
		s.slope, s.intercept = d.Slopes[0], d.Intercepts[0]
		s.slopes, s.intercepts = d.Slopes[1:], d.Intercepts[1:]
	}
	if d.Clip != nil {
		if d.Clip[0] > d.Clip[1] {
			return s, fmt.Errorf("%s.score_clip: min %g above max %g", at, d.Clip[0], d.Clip[1])
		}
		s.clip = !cfg.disableClip
		s.clipMin, s.clipMax = d.Clip[0], d.Clip[1]
	}
	if d.Transform != nil {
		s.tf = transformDict(*d.Transform)
		s.transform = d.Transform.Enabled || cfg.enableTransform
		// Knots matter only when the transform runs, as in libvmaf.
		if err := checkKnots(d.Transform.Knots); s.transform && err != nil {
			return s, fmt.Errorf("%s.score_transform.knots: %w", at, err)
		}
	}
	s.chroma = d.Chroma.Set
	var err error
	if s.svm, err = svm.New(d.SVM, n); err != nil {
		return s, fmt.Errorf("%s.model: %w", at, err)
	}
	s.inputs = make([]int, n)
	for i, f := range d.FeatureNames {
		if f == "" {
			return s, fmt.Errorf("%s.feature_names[%d]: empty", at, i)
		}
		s.inputs[i] = m.addInput(f, applyOverloads(f, featureOpts(d, i), cfg.overloads))
	}
	return s, nil
}

// addInput returns the index of the input, adding it when new. Inputs
// libvmaf would report under one name are one input.
func (m *Model) addInput(feature string, opts []featureOpt) int {
	name := reportedName(feature, opts)
	for i, in := range m.inputs {
		if in.name == name {
			return i
		}
	}
	m.inputs = append(m.inputs, modelInput{feature: feature, opts: opts, name: name})
	return len(m.inputs) - 1
}

// applyOverloads returns opts with the overloads for feature's extractor
// set, replacing values the file gives.
func applyOverloads(feature string, opts []featureOpt, overloads []featureOverload) []featureOpt {
	ext := lookupFeature(feature).ext
	out := opts
	copied := false
	for _, ov := range overloads {
		if ext == nil || ov.extractor != ext.Name {
			continue
		}
		if !copied {
			out, copied = append([]featureOpt(nil), opts...), true
		}
		replaced := false
		for i := range out {
			if out[i].Key == ov.key {
				out[i].Val, replaced = ov.val, true
			}
		}
		if !replaced {
			out = append(out, featureOpt{ov.key, ov.val})
		}
	}
	return out
}

// checkOverloads rejects a spec option that names no extractor the model
// uses, which libvmaf would silently ignore.
func (m *Model) checkOverloads(overloads []featureOverload) error {
	for _, ov := range overloads {
		found := false
		var have []string
		for _, in := range m.inputs {
			if ext := lookupFeature(in.feature).ext; ext != nil {
				found = found || ext.Name == ov.extractor
				have = appendUnique(have, ext.Name)
			}
		}
		if !found {
			return fmt.Errorf("option %s.%s: the model uses no %q extractor (it uses %v)", ov.extractor, ov.key, ov.extractor, have)
		}
	}
	return nil
}

func appendUnique(list []string, s string) []string {
	for _, v := range list {
		if v == s {
			return list
		}
	}
	return append(list, s)
}
