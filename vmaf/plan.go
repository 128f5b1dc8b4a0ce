package vmaf

import (
	"fmt"
	"slices"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/motion"
)

// A plan is what a Context computes for each frame under one set of
// models: which extractor instances run, where their outputs land in the
// frame's feature vector, and which of those values feed each model.
// A plan is immutable; SetModels swaps in a new one between frames.
type plan struct {
	models []*Model
	units  []unitSpec // per-frame extractors
	// tasks are the units, or the parts of those that have them, in the
	// order workers take them when a frame is shared.
	tasks    []unitTask
	seqs     []unitSpec // sequential extractors
	features []string   // feature names, in value order
	motion   int        // offset of integer_motion, integer_motion2, integer_motion3
	// motionHidden: the motion values are computed for a model swapped
	// in later, but no model or feature of this plan asks for them, so
	// they are not reported, as libvmaf reports only what it loads.
	motionHidden bool
	// internal marks values only a model reads (a learned model's picture
	// stage), never reported.
	internal map[int]bool
	inputs   [][]int    // per model: feature offsets in the model's input order
	metrics  []string   // reported names: features, then every model's outputs
	outputs  [][]string // per model: its metric names
	scratch  int        // longest model input vector
}

// unitKey identifies an extractor instance a worker can reuse across
// frames and plans: the kind and its settings.
type unitKey struct {
	name, settings string
}

type unitSpec struct {
	key      unitKey
	settings feature.Settings
	offset   int // first output in the feature vector
}

// unitTask is one task of a shared frame: units[unit] whole (part < 0),
// or one of its parts.
type unitTask struct {
	unit, part int
}

func keyOf(s feature.Settings) unitKey { return unitKey{s.Kind().Name, s.Key()} }

// unitCost orders a frame's units so that workers start with the longest,
// since a frame is done when its last unit is; partCost does for the parts
// of the extractors that have them (VIF: scale 0, then the decimated
// scales 1 to 3, about two thirds and one third of its time).
var (
	unitCost = map[string]int{"cambi": 5, "vif": 4, "float_vif": 4, "float_adm": 3, "adm": 3, "psnr_hvs": 2, "float_ms_ssim": 2, "ciede": 2}
	partCost = map[string][]int{"vif": {4, 2}}
)

func (p *plan) taskCost(t unitTask) int {
	name := p.units[t.unit].key.name
	if c := partCost[name]; t.part >= 0 && t.part < len(c) {
		return c[t.part]
	}
	return unitCost[name]
}

// newPlan resolves models and extra features into a plan for streams of
// the format, or says which model input or feature the native engine
// cannot compute. Outputs may depend on the format (a luma-only stream
// has no psnr_cb), never on its size, which is 0 before the first frame.
func newPlan(models []*Model, extras []string, format feature.Format) (*plan, error) {
	if len(models) == 0 && len(extras) == 0 {
		return nil, fmt.Errorf("vmaf: no model configured, and no feature requested")
	}
	p := &plan{models: models, motion: -1}
	offsets := map[unitKey]int{}
	outputs := map[unitKey][]string{}
	add := func(s feature.Settings) (int, []string) {
		k := keyOf(s)
		if off, ok := offsets[k]; ok {
			return off, outputs[k]
		}
		outs := s.Kind().Outputs(format, s)
		off := len(p.features)
		offsets[k], outputs[k] = off, outs
		spec := unitSpec{key: k, settings: s, offset: off}
		if s.Kind().NewSequential != nil {
			p.seqs = append(p.seqs, spec)
		} else {
			p.units = append(p.units, spec)
		}
		p.features = append(p.features, outs...)
		if s.Kind().Hidden {
			if p.internal == nil {
				p.internal = map[int]bool{}
			}
			for i := range outs {
				p.internal[off+i] = true
			}
		}
		return off, outs
	}
	addMotion := func(s feature.Settings) (int, []string, error) {
		if s.Key() != motion.Kind.Defaults().Key() {
			return 0, nil, fmt.Errorf("feature motion: options other than the defaults are not supported by the native engine")
		}
		if p.motion < 0 {
			p.motion = len(p.features)
			p.features = append(p.features, motion.Outputs...)
		}
		return p.motion, motion.Outputs, nil
	}
	place := func(s feature.Settings) (int, []string, error) {
		if s.Kind() == motion.Kind {
			return addMotion(s)
		}

		off, outs := add(s)
		return off, outs, nil
	}
	names := map[string]bool{}
	for _, m := range models {
		specs, err := m.featureSpecs()
		if err != nil {
			return nil, fmt.Errorf("vmaf: model %s: %w", m.Name, err)
		}
		in := make([]int, len(specs))
		for i, s := range specs {
			base, outs, err := place(s.settings)
			if err != nil {
				return nil, fmt.Errorf("vmaf: model %s: input %s: %w", m.Name, s.name, err)
			}
			j := slices.Index(outs, s.name)
			if j < 0 {
				return nil, fmt.Errorf("vmaf: model %s: input %s is not an output of extractor %q", m.Name, s.name, s.settings.Kind().Name)
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
	for _, e := range extras {
		s, err := parseFeature(e)
		if err != nil {
			return nil, err
		}
		if _, _, err := place(s); err != nil {
			return nil, fmt.Errorf("vmaf: %w", err)
		}
	}
	// Temporal features need every frame in order; the engine tracks
	// motion whenever a model scores, so a model swapped in later finds
	// its history intact. Features alone (no model, no motion asked for)
	// skip it: such a run has nothing to swap.
	p.motionHidden = p.motion < 0
	if len(models) > 0 {
		if _, _, err := addMotion(motion.Kind.Defaults()); err != nil {
			return nil, err
		}
	}
	if dup := firstDuplicate(p.features); dup != "" {
		return nil, fmt.Errorf("vmaf: two extractors report the feature %q; drop one of the requests", dup)
	}
	for i, f := range p.features {
		if !p.hidden(i) {
			p.metrics = append(p.metrics, f)
		}
	}
	for _, m := range models {
		p.outputs = append(p.outputs, m.metricNames())
		for _, n := range m.metricNames() {
			if slices.Contains(p.features, n) {
				return nil, fmt.Errorf("vmaf: model name %q clashes with a feature name", n)
			}
			p.metrics = append(p.metrics, n)
		}
	}
	slices.SortStableFunc(p.units, func(a, b unitSpec) int {
		return unitCost[b.key.name] - unitCost[a.key.name]
	})
	for i, u := range p.units {
		if n := u.settings.Kind().Parts; n > 1 {
			for part := range n {
				p.tasks = append(p.tasks, unitTask{i, part})
			}
		} else {
			p.tasks = append(p.tasks, unitTask{i, -1})
		}
	}
	slices.SortStableFunc(p.tasks, func(a, b unitTask) int { return p.taskCost(b) - p.taskCost(a) })
	return p, nil
}

func firstDuplicate(list []string) string {
	seen := make(map[string]bool, len(list))
	for _, s := range list {
		if seen[s] {
			return s
		}
		seen[s] = true
	}
	return ""
}

// seqOffset is where a sequential extractor's outputs land in this plan's
// feature vector; ok is false when the plan does not report it.
func (p *plan) seqOffset(k unitKey) (int, bool) {
	for _, u := range p.seqs {
		if u.key == k {
			return u.offset, true
		}
	}
	return 0, false
}

// hidden says whether feature value i is computed but not reported.
func (p *plan) hidden(i int) bool {
	return p.internal[i] || p.motionHidden && p.motion >= 0 && i >= p.motion && i < p.motion+len(motion.Outputs)
}
