package vmaf

import "github.com/vmafsink/vmafsink/vmaf/internal/modelfile"

// A model file decodes to modelDicts (package modelfile), which the
// generated built-in models are literals of, so built-in and file models
// go through the same checks (newSubModel).
type (
	modelDict     = modelfile.Dict
	optionalFloat = modelfile.OptionalFloat
)

// featureOpt is an option of one of a model's inputs, from the file or
// overloaded by a spec.
type featureOpt modelfile.FeatureOpt

// transformDict is a score_transform as prediction applies it.
type transformDict modelfile.Transform

const (
	typeSVR              = modelfile.TypeSVR
	typeBootstrap        = modelfile.TypeBootstrap
	typeResidueBootstrap = modelfile.TypeResidueBootstrap

	maxFeatures = modelfile.MaxFeatures
	maxMembers  = modelfile.MaxMembers
)

func decodeModelFile(data []byte) ([]modelDict, error) { return modelfile.Decode(data) }

// formatG formats v like C's printf("%g"), as libvmaf prints options.
func formatG(v float64) string { return modelfile.FormatG(v) }

// featureOpts returns a feature's options from the file, nil when it
// gives none.
func featureOpts(d modelDict, feature int) []featureOpt {
	if feature >= len(d.FeatureOpts) || d.FeatureOpts[feature] == nil {
		return nil
	}
	opts := make([]featureOpt, len(d.FeatureOpts[feature]))
	for i, o := range d.FeatureOpts[feature] {
		opts[i] = featureOpt(o)
	}
	return opts
}

func optValue(opts []featureOpt, key string) (string, bool) {
	for _, o := range opts {
		if o.Key == key {
			return o.Val, true
		}
	}
	return "", false
}
