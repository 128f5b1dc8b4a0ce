package vmaf

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// ParseModelSpec reads a model spec in the grammar of the vmaf tool's -m
// option: colon-separated key=value pairs.
//
//	version=NAME                  a built-in model (see BuiltinModelVersions)
//	path=FILE                     a model file in libvmaf's JSON format
//	name=KEY                      the metric key; "vmaf" by default
//	disable_clip[=true|false]     leave the score unclipped
//	enable_transform[=true|false] apply the file's score_transform even where it is not enabled
//	EXTRACTOR.OPTION=VALUE        set an extractor option for every model input
//	                              that extractor computes, e.g. vif.vif_enhn_gain_limit=1
//
// Exactly one of version= and path= must be given. A spec without "=" is
// a built-in version name or, failing that, a file path.
func ParseModelSpec(spec string) (*Model, error) {
	if spec == "" {
		return nil, fmt.Errorf("vmaf: empty model spec")
	}
	if !strings.Contains(spec, "=") {
		if dicts, ok := builtinDicts(spec); ok {
			return buildModel(dicts, modelConfig{name: defaultModelName, version: spec})
		}
		if _, err := os.Stat(spec); err != nil {
			return nil, fmt.Errorf("vmaf: model spec %q is neither a built-in model (%s) nor a file: %w",
				spec, strings.Join(BuiltinModelVersions(), ", "), err)
		}
		return LoadModelFile(spec)
	}
	cfg := modelConfig{name: defaultModelName}
	var version, path string
	for _, part := range strings.Split(spec, ":") {
		key, val, hasVal := strings.Cut(part, "=")
		var err error
		switch key {
		case "version":
			version = val
		case "path":
			path = val
		case "name":
			cfg.name = val
			if val == "" {
				err = fmt.Errorf("empty name")
			}
		case "disable_clip":
			cfg.disableClip, err = specBool(key, val, hasVal)
		case "enable_transform":
			cfg.enableTransform, err = specBool(key, val, hasVal)
		default:
			var ov featureOverload
			if ov, err = parseOverload(key, val, hasVal); err == nil {
				cfg.overloads = append(cfg.overloads, ov)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("vmaf: model spec %q: %w", spec, err)
		}
	}
	switch {
	case version != "" && path != "":
		return nil, fmt.Errorf("vmaf: model spec %q: give version= or path=, not both", spec)
	case version != "":
		dicts, ok := builtinDicts(version)
		if !ok {
			return nil, fmt.Errorf("vmaf: model spec %q: %w", spec, errNoBuiltin(version))
		}
		cfg.version = version
		return buildModel(dicts, cfg)
	case path != "":
		cfg.version = path
		return loadModelFile(path, cfg)
	}
	return nil, fmt.Errorf("vmaf: model spec %q: no version= or path=", spec)
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
	for _, e := range []*extractorInfo{vifExtractor, admExtractor, motionExtractor} {
		if e.name == ext && !e.hasOption(opt) {
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

func (e *extractorInfo) hasOption(name string) bool {
	for _, o := range e.options {
		if o.name == name {
			return true
		}
	}
	return false
}
