package vmaf

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// ModelSpec is a model spec in the grammar of the vmaf tool's -m option,
// split into its parts: colon-separated key=value pairs.
//
//	version=NAME                  a built-in model (see BuiltinModelVersions)
//	path=FILE                     a model file in libvmaf's JSON format
//	name=KEY                      the metric key; "vmaf" by default
//	disable_clip[=true|false]     leave the score unclipped
//	enable_transform[=true|false] apply the file's score_transform even where it is not enabled
//	EXTRACTOR.OPTION=VALUE        set an extractor option for every model input
//	                              that extractor computes, e.g. vif.vif_enhn_gain_limit=1
//
// Exactly one of version= and path= is given. A spec without "=" is bare:
// a built-in version name or, failing that, a file path.
type ModelSpec struct {
	Version string // a built-in model's version, or
	Path    string // a model file
	Name    string // the metric key; empty for the default
	// Options are the other pairs as written ("disable_clip",
	// "vif.vif_enhn_gain_limit=1"), in order; Load checks them.
	Options []string
	Bare    bool // written as a bare name or path
}

// ParseModelSpecString splits a spec into its parts and checks its
// shape: one of version= and path=, a non-empty name. Options are checked
// when the model is loaded, so a caller may handle a spec whose options
// it does not know.
func ParseModelSpecString(spec string) (ModelSpec, error) {
	if spec == "" {
		return ModelSpec{}, fmt.Errorf("vmaf: empty model spec")
	}
	if !strings.Contains(spec, "=") {
		if _, ok := builtinDicts(spec); ok {
			return ModelSpec{Version: spec, Bare: true}, nil
		}
		return ModelSpec{Path: spec, Bare: true}, nil
	}
	var s ModelSpec
	for _, part := range strings.Split(spec, ":") {
		key, val, _ := strings.Cut(part, "=")
		switch key {
		case "version":
			s.Version = val
		case "path":
			s.Path = val
		case "name":
			if val == "" {
				return ModelSpec{}, fmt.Errorf("vmaf: model spec %q: empty name", spec)
			}
			s.Name = val
		default:
			s.Options = append(s.Options, part)
		}
	}
	switch {
	case s.Version != "" && s.Path != "":
		return ModelSpec{}, fmt.Errorf("vmaf: model spec %q: give version= or path=, not both", spec)
	case s.Version == "" && s.Path == "":
		return ModelSpec{}, fmt.Errorf("vmaf: model spec %q: no version= or path=", spec)
	}
	return s, nil
}

// String gives the spec back in the grammar: bare as it was given when
// nothing was added to it, keyed otherwise.
func (s ModelSpec) String() string {
	if s.Bare && s.Name == "" && len(s.Options) == 0 {
		return s.Version + s.Path
	}
	parts := make([]string, 0, 2+len(s.Options))
	if s.Version != "" {
		parts = append(parts, "version="+s.Version)
	}
	if s.Path != "" {
		parts = append(parts, "path="+s.Path)
	}
	if s.Name != "" {
		parts = append(parts, "name="+s.Name)
	}
	return strings.Join(append(parts, s.Options...), ":")
}

// ParseModelSpec reads a model spec (see ModelSpec) and loads its model.
func ParseModelSpec(spec string) (*Model, error) {
	s, err := ParseModelSpecString(spec)
	if err != nil {
		return nil, err
	}
	return s.load(spec, false)
}

// Load builds the model the spec names.
func (s ModelSpec) Load() (*Model, error) { return s.load(s.String(), false) }

// load builds the model; text is the spec as the caller wrote it, for
// error messages; streamCodec is ParseStreamModelSpec's.
func (s ModelSpec) load(text string, streamCodec bool) (*Model, error) {
	if s.Bare && s.Path != "" {
		// Say which two things a name that is neither could have been.
		if _, err := os.Stat(s.Path); err != nil {
			return nil, fmt.Errorf("vmaf: model spec %q is neither a built-in model (%s) nor a file: %w",
				text, strings.Join(BuiltinModelVersions(), ", "), err)
		}
	}
	if s.Path != "" && s.Version == "" && IsLearnedModelPath(s.Path) {
		return loadLearnedSpec(s, text, streamCodec)
	}
	cfg := modelConfig{name: defaultModelName}
	if s.Name != "" {
		cfg.name = s.Name
	}
	for _, part := range s.Options {
		key, val, hasVal := strings.Cut(part, "=")
		var err error
		switch key {
		case "disable_clip":
			cfg.disableClip, err = specBool(key, val, hasVal)
		case "enable_transform":
			cfg.enableTransform, err = specBool(key, val, hasVal)
		case "version", "path", "name":
			err = fmt.Errorf("%s given as an option", key)
		default:
			var ov featureOverload
			if ov, err = parseOverload(key, val, hasVal); err == nil {
				cfg.overloads = append(cfg.overloads, ov)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("vmaf: model spec %q: %w", text, err)
		}
	}
	switch {
	case s.Version != "" && s.Path != "":
		return nil, fmt.Errorf("vmaf: model spec %q: give version= or path=, not both", text)
	case s.Version != "":
		dicts, ok := builtinDicts(s.Version)
		if !ok {
			return nil, fmt.Errorf("vmaf: model spec %q: %w", text, errNoBuiltin(s.Version))
		}
		cfg.version = s.Version
		return buildModel(dicts, cfg)
	case s.Path != "":
		cfg.version = s.Path
		return loadModelFile(s.Path, cfg)
	}
	return nil, fmt.Errorf("vmaf: model spec %q: no version= or path=", text)
}

func buildModel(dicts []modelDict, cfg modelConfig) (*Model, error) {
	m, err := newModel(dicts, cfg)
	if err != nil {
		return nil, fmt.Errorf("vmaf: model %s: %w", cfg.version, err)
	}
	return m, nil
}

// specBool reads a flag's value; a flag without one is true.
func specBool(key, val string, hasVal bool) (bool, error) {
	switch {
	case !hasVal || val == "true":
		return true, nil
	case val == "false":
		return false, nil
	}
	return false, fmt.Errorf("%s=%q: want true or false", key, val)
}

// parseOverload reads "extractor.option=value". Numbers are stored as
// libvmaf stores them (float precision, printed with %g), so they name
// features as libvmaf does.
func parseOverload(key, val string, hasVal bool) (featureOverload, error) {
	ext, opt, ok := strings.Cut(key, ".")
	if !ok || ext == "" || opt == "" {
		return featureOverload{}, fmt.Errorf("unknown key %q (want version, path, name, disable_clip, enable_transform or EXTRACTOR.OPTION)", key)
	}
	if !hasVal || val == "" {
		return featureOverload{}, fmt.Errorf("%s: no value", key)
	}
	if e, ok := extractorKinds[ext]; ok {
		if !hasOption(e, opt) {
			return featureOverload{}, fmt.Errorf("%s: extractor %s has no option %q", key, ext, opt)
		}
	}
	// NaN passes every range check (all its comparisons are false), so
	// non-finite values are refused here, before any extractor sees them.
	// C's strtod, which libvmaf uses, also reads a signed "-nan".
	v, err := strconv.ParseFloat(strings.TrimSpace(val), 32)
	if math.IsInf(v, 0) || math.IsNaN(v) || strings.EqualFold(strings.TrimLeft(strings.TrimSpace(val), "+-"), "nan") {
		return featureOverload{}, fmt.Errorf("%s=%s: not a finite number", key, val)
	}
	if err == nil {
		val = formatG(v)
	}
	return featureOverload{extractor: ext, key: opt, val: val}, nil
}

func hasOption(e *feature.Kind, name string) bool {
	for _, o := range e.Options {
		if o.Name == name {
			return true
		}
	}
	return false
}
