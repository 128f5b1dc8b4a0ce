package modelfile

// Dict is one "model_dict" of libvmaf's JSON model format. Slices the
// file leaves out are nil; slices it gives empty are empty, not nil.
type Dict struct {
	ModelType    string
	NormType     string
	FeatureNames []string
	FeatureOpts  [][]FeatureOpt // feature_opts_dicts; may be shorter than FeatureNames
	Slopes       []float64      // model slope, then one per feature
	Intercepts   []float64      // model intercept, then one per feature
	Clip         []float64      // score_clip [min, max]; nil when absent
	Transform    *Transform     // score_transform; nil when absent
	Chroma       OptionalFloat  // chroma_correction_parameter
	SVM          SVM
	HasSVM       bool // the "model" string was present
}

// FeatureOpt is one entry of a feature's options dictionary. Values are
// text as libvmaf keeps them: numbers rounded to float and printed with
// %g, booleans "true" or "false", strings verbatim.
type FeatureOpt struct {
	Key, Val string
}

// Transform is a score_transform object.
type Transform struct {
	Enabled  bool
	P        [3]OptionalFloat // p0, p1, p2: polynomial coefficients
	Knots    [][2]float64     // piecewise-linear map
	HasKnots bool             // knots given (not absent or null), even if empty
	OutLTEIn bool             // rectify: output never above input
	OutGTEIn bool             // rectify: output never below input
}

// OptionalFloat is a number a file may leave out.
type OptionalFloat struct {
	Set bool
	V   float64
}

// SVM is a libsvm model as written in the "model" string, its header
// checked to be a ν-SVR with an RBF kernel.
type SVM struct {
	SVMType    string
	KernelType string
	Gamma      float64
	Rho        float64
	Coef       []float64   // one coefficient per support vector
	SV         [][]float64 // support vectors; row i holds indices 1..len(row), zero where the file leaves one out
}

// Model types of libvmaf's JSON format.
const (
	TypeSVR              = "LIBSVMNUSVR"
	TypeBootstrap        = "BOOTSTRAP_LIBSVMNUSVR"
	TypeResidueBootstrap = "RESIDUEBOOTSTRAP_LIBSVMNUSVR"
)

// Limits of libvmaf's that a file must keep to.
const (
	// MaxFeatures is libvmaf's limit on a model's inputs.
	MaxFeatures = 64
	// MaxMembers bounds a collection so prediction can keep member scores
	// on the stack.
	MaxMembers = 256
	// MaxKnots is libvmaf's limit on score_transform knots.
	MaxKnots = 10
)
