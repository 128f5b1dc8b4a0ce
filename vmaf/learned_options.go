package vmaf

import (
	"strconv"
	"strings"
)

// LearnedOptions are run-wide settings for learned (ONNX) models, as
// vmaf-score's --tiny-threads, --tiny-device and --tiny-model-verify and
// the element's tiny-* properties give them. The zero value changes
// nothing.
type LearnedOptions struct {
	Threads int    // ONNX Runtime's intra-op threads; 0: the model's default
	Device  string // execution provider; "": cpu
	Verify  bool   // refuse models no registry.json pins
}

// Apply adds the options to a model spec that names a learned model,
// unless the spec sets them itself; any other spec is returned as given.
func (o LearnedOptions) Apply(spec string) string {
	p, err := ParseModelSpecString(spec)
	if err != nil || p.Path == "" || !IsLearnedModelPath(p.Path) {
		return spec
	}
	has := func(key string) bool {
		for _, opt := range p.Options {
			if k, _, _ := strings.Cut(opt, "="); k == key {
				return true
			}
		}
		return false
	}
	if o.Threads > 0 && !has("threads") {
		p.Options = append(p.Options, "threads="+strconv.Itoa(o.Threads))
	}
	if o.Device != "" && !has("device") {
		p.Options = append(p.Options, "device="+strings.ToLower(o.Device))
	}
	if o.Verify && !has("verify") {
		p.Options = append(p.Options, "verify=strict")
	}
	p.Bare = false
	return p.String()
}
