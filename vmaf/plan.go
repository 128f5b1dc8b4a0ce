package vmaf

import (
	"fmt"
	"slices"
	"strconv"
)

// A plan is what a Context computes for each frame under one set of
// models: which extractor units run, where their outputs land in the
// frame's feature vector, and which of those values feed each model.
// A plan is immutable; SetModels swaps in a new one between frames.
type plan struct {
	models   []*Model
	units    []unitSpec
	features []string     // feature names, in value order
	motion   int          // offset of integer_motion, integer_motion2, integer_motion3
	inputs   [][]int      // per model: feature offsets in the model's input order
	metrics  []string     // reported names: features, then every model's outputs
	outputs  [][]string   // per model: its metric names
	hidden   map[int]bool // feature offsets computed but not reported
	scratch  int          // longest model input vector
}

// unitKind names a per-frame (non-temporal) extractor.
type unitKind int

const (
	unitVIF unitKind = iota
	unitADM
	unitPSNR
	unitSSIM
	unitMSSSIM
)

// unitKey identifies an extractor instance a worker can reuse across
// frames and plans.
type unitKey struct {
	kind      unitKind
	gainLimit float64
}

type unitSpec struct {
	key    unitKey
	offset int // first output in the feature vector
}

const defaultGainLimit = 100.0 // libvmaf's default enhancement gain limit for VIF and ADM

// extraFeatures are the metrics a caller may add to the model features.
var extraFeatures = map[string]unitKind{
	"psnr":          unitPSNR,
	"float_ssim":    unitSSIM,
	"float_ms_ssim": unitMSSSIM,
}

// unitOutputs returns the libvmaf names of a unit's outputs.
func unitOutputs(k unitKey) []string {
	suffix := ""
	if k.gainLimit != defaultGainLimit {
		// libvmaf names features computed with non-default options by
		// appending the option's alias and its %g-formatted value.
		suffix = "_egl_" + strconv.FormatFloat(k.gainLimit, 'g', 6, 64)
	}
	var base []string
	switch k.kind {
	case unitVIF:
		base = []string{"integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3"}
	case unitADM:
		base = []string{"integer_adm2", "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3", "integer_aim", "integer_adm3"}
	case unitPSNR:
		base = []string{"psnr_y", "psnr_cb", "psnr_cr"}
	case unitSSIM:
		base = []string{"float_ssim"}
	case unitMSSSIM:
		base = []string{"float_ms_ssim"}
	}
	out := make([]string, len(base))
	for i, b := range base {
		out[i] = b + suffix
	}
	return out
}

var motionOutputs = []string{"integer_motion", "integer_motion2", "integer_motion3"}

// newPlan resolves models and extra features into a plan, or says which
// model input the native engine cannot compute.
// Chroma decides which PSNR outputs exist: a luma-only stream has no psnr_cb
// or psnr_cr, as in libvmaf.
func newPlan(models []*Model, extras []string, chroma Chroma) (*plan, error) {
	if len(models) == 0 {
		return nil, fmt.Errorf("vmaf: no model configured")
	}
	p := &plan{models: models, motion: -1}
	offsets := map[unitKey]int{}
	addUnit := func(k unitKey) int {
		if off, ok := offsets[k]; ok {
			return off
		}
		off := len(p.features)
		offsets[k] = off
		p.units = append(p.units, unitSpec{key: k, offset: off})
		p.features = append(p.features, unitOutputs(k)...)
		return off
	}
	addMotion := func() int {
		if p.motion < 0 {
			p.motion = len(p.features)
			p.features = append(p.features, motionOutputs...)
		}
		return p.motion
	}
	names := map[string]bool{}
	for _, m := range models {
		specs, err := m.featureSpecs()
		if err != nil {
			return nil, fmt.Errorf("vmaf: model %s: %w", m.Name, err)
		}
		in := make([]int, len(specs))
		for i, s := range specs {
			var base int
			var outs []string
			switch s.extractor {
			case "vif":
				k := unitKey{unitVIF, s.gainLimit}
				base, outs = addUnit(k), unitOutputs(k)
			case "adm":
				k := unitKey{unitADM, s.gainLimit}
				base, outs = addUnit(k), unitOutputs(k)
			case "motion":
				base, outs = addMotion(), motionOutputs
			default:
				return nil, fmt.Errorf("vmaf: model %s: input %s needs extractor %q, which the native engine lacks", m.Name, s.name, s.extractor)
			}
			j := indexOf(outs, s.name)
			if j < 0 {
				return nil, fmt.Errorf("vmaf: model %s: input %s is not an output of extractor %q", m.Name, s.name, s.extractor)
			}
			in[i] = base + j
		}
		p.inputs = append(p.inputs, in)
		p.scratch = max(p.scratch, len(in))
		for _, n := range m.metricNames() {
			if names[n] {
				return nil, fmt.Errorf("vmaf: two models report the metric %q; give one a different name", n)
			}
			names[n] = true
		}
	}
	// Temporal features need every frame in order; the engine always
	// tracks motion so a model swapped in later finds its history intact.
	addMotion()
	for _, e := range extras {
		kind, ok := extraFeatures[e]
		if !ok {
			return nil, fmt.Errorf("vmaf: unknown feature %q (want psnr, float_ssim or float_ms_ssim)", e)
		}
		addUnit(unitKey{kind: kind, gainLimit: defaultGainLimit})
	}
	p.metrics = append(p.metrics, p.features...)
	if chroma == Chroma400 {
		p.hidden = map[int]bool{}
		for _, u := range p.units {
			if u.key.kind == unitPSNR {
				p.hidden[u.offset+1], p.hidden[u.offset+2] = true, true
			}
		}
		p.metrics = p.metrics[:0]
		for i, f := range p.features {
			if !p.hidden[i] {
				p.metrics = append(p.metrics, f)
			}
		}
	}
	for _, m := range models {
		p.outputs = append(p.outputs, m.metricNames())
		for _, n := range m.metricNames() {
			if indexOf(p.features, n) >= 0 {
				return nil, fmt.Errorf("vmaf: model name %q clashes with a feature name", n)
			}
			p.metrics = append(p.metrics, n)
		}
	}
	// Workers take a frame's units in this order: VIF, the longest,
	// first, since a frame is done when its last unit is.
	slices.SortStableFunc(p.units, func(a, b unitSpec) int {
		av, bv := a.key.kind == unitVIF, b.key.kind == unitVIF
		switch {
		case av == bv:
			return 0
		case av:
			return -1
		}
		return 1
	})
	return p, nil
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}
