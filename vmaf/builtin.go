package vmaf

import (
	"fmt"
	"strings"
)

//go:generate go run ./internal/genmodels -models ../../shared/models -o builtin_models.go

// builtinSource is a built-in model as generated from libvmaf's model
// files: one model_dict, or a collection's members in order.
type builtinSource struct {
	version string
	dicts   []modelDict
}

// BuiltinModel returns a built-in model, reporting under the name "vmaf".
// The models are libvmaf's (Netflix's, BSD-2-Clause-Patent): see
// BuiltinModelVersions.
func BuiltinModel(version string) (*Model, error) {
	dicts, ok := builtinDicts(version)
	if !ok {
		return nil, fmt.Errorf("vmaf: %w", errNoBuiltin(version))
	}
	return buildModel(dicts, modelConfig{name: defaultModelName, version: version})
}

// BuiltinModelVersions lists the built-in models: vmaf_v0.6.1 (the
// default), its "no enhancement gain" variant vmaf_v0.6.1neg, the 4K
// models, and the bootstrap collection vmaf_b_v0.6.3.
func BuiltinModelVersions() []string {
	v := make([]string, len(builtinModels))
	for i, b := range builtinModels {
		v[i] = b.version
	}
	return v
}

func builtinDicts(version string) ([]modelDict, bool) {
	for _, b := range builtinModels {
		if b.version == version {
			return b.dicts, true
		}
	}
	return nil, false
}

func errNoBuiltin(version string) error {
	return fmt.Errorf("no built-in model %q (available: %s)", version, strings.Join(BuiltinModelVersions(), ", "))
}
