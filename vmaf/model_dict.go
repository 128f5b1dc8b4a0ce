package vmaf

// modelDict is one "model_dict" of libvmaf's JSON model format, decoded
// but not yet checked. The generated built-in models are literals of it,
// so built-in and file models go through the same checks (newSubModel).
type modelDict struct {
	modelType    string
	normType     string
	featureNames []string
	featureOpts  [][]featureOpt // feature_opts_dicts; may be shorter than featureNames
	slopes       []float64      // model slope, then one per feature
	intercepts   []float64      // model intercept, then one per feature
	clip         []float64      // score_clip [min, max]; nil when absent
	transform    *transformDict // score_transform; nil when absent
	chroma       optionalFloat  // chroma_correction_parameter
	svm          svmDict
	hasSVM       bool // the "model" string was present
}

// featureOpt is one entry of a feature's options dictionary. Values are
// text as libvmaf keeps them: numbers rounded to float and printed with
// %g, booleans "true" or "false", strings verbatim.
type featureOpt struct {
	key, val string
}

// transformDict is a score_transform object.
type transformDict struct {
	enabled  bool
	p        [3]optionalFloat // p0, p1, p2: polynomial coefficients
	knots    [][2]float64     // piecewise-linear map
	hasKnots bool             // knots given (not absent or null), even if empty
	outLTEIn bool             // rectify: output never above input
	outGTEIn bool             // rectify: output never below input
}

type optionalFloat struct {
	set bool
	v   float64
}

// Model types of libvmaf's JSON format.
const (
	typeSVR              = "LIBSVMNUSVR"
	typeBootstrap        = "BOOTSTRAP_LIBSVMNUSVR"
	typeResidueBootstrap = "RESIDUEBOOTSTRAP_LIBSVMNUSVR"
)
