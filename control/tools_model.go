package control

import (
	"context"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vmafsink/vmafsink/vmaf"
)

const toolDescribeModel = "vmaf_describe_model"

// ModelDescription is the reply of vmaf_describe_model.
type ModelDescription struct {
	Name             string          `json:"name" jsonschema:"the metric name the model's score is reported under"`
	Model            string          `json:"model" jsonschema:"the built-in version, or the model file's resolved path"`
	Source           string          `json:"source" jsonschema:"builtin or file"`
	Type             string          `json:"type" jsonschema:"model_type as the model file gives it: LIBSVMNUSVR, BOOTSTRAP_LIBSVMNUSVR or RESIDUEBOOTSTRAP_LIBSVMNUSVR"`
	Bootstrap        bool            `json:"bootstrap" jsonschema:"a bootstrap collection, which reports confidence figures beside its score"`
	Members          int             `json:"bootstrap_models,omitempty" jsonschema:"for a bootstrap collection: how many bootstrap models it has besides its main model"`
	Norm             string          `json:"norm_type" jsonschema:"feature normalisation: linear_rescale or none"`
	Features         []ModelFeature  `json:"features" jsonschema:"the model's inputs"`
	Clip             *ScoreClip      `json:"score_clip,omitempty" jsonschema:"the clip applied to scores; absent when the model has none"`
	ClipDisabled     bool            `json:"score_clip_disabled,omitempty" jsonschema:"the model has a clip that the spec turned off (disable_clip)"`
	Transform        *ScoreTransform `json:"score_transform,omitempty" jsonschema:"the model's score transform; absent when it has none"`
	ChromaCorrection bool            `json:"chroma_correction,omitempty" jsonschema:"the model sets chroma_correction_parameter"`
	Outputs          []string        `json:"outputs" jsonschema:"the metrics the model reports per frame"`
	Viewing          ModelViewing    `json:"intended_viewing" jsonschema:"the display the model is meant for, as far as anything says"`
	// Learned is a learned (ONNX) model's card; absent for libvmaf's models.
	Learned *vmaf.LearnedDescription `json:"learned,omitempty" jsonschema:"a learned (ONNX) model: kind (full-reference or no-reference), inputs, output, preparation, codec block, sha256 and what pins it, licence, its card's notes and training record, runtime, device, threads"`
	// The stream's fit, when frames have been seen.
	MismatchedModelWarning string `json:"mismatched_model_warning,omitempty" jsonschema:"why the model may not suit the running stream's resolution"`
}

// ModelFeature is one input of a model.
type ModelFeature struct {
	Name      string            `json:"name" jsonschema:"as libvmaf reports it, e.g. integer_adm2_egl_1"`
	Feature   string            `json:"feature" jsonschema:"as the model file names it, e.g. VMAF_integer_feature_adm2_score"`
	Extractor string            `json:"extractor,omitempty" jsonschema:"the extractor computing it; absent when this build does not know it"`
	Options   map[string]string `json:"options,omitempty" jsonschema:"extractor options the model sets, e.g. adm_enhn_gain_limit for NEG models"`
}

// ScoreClip is a model's score clip.
type ScoreClip struct {
	Min float64 `json:"min"`
	Max float64 `json:"max"`
}

// ScoreTransform is a model's score_transform.
type ScoreTransform struct {
	Enabled  bool         `json:"enabled" jsonschema:"applied to scores (the file's enabled, or the spec's enable_transform: libvmaf's phone model is vmaf_v0.6.1 with it)"`
	P0       *float64     `json:"p0,omitempty" jsonschema:"polynomial p0 + p1*s + p2*s^2"`
	P1       *float64     `json:"p1,omitempty"`
	P2       *float64     `json:"p2,omitempty"`
	Knots    [][2]float64 `json:"knots,omitempty" jsonschema:"piecewise-linear map, [input, output] pairs"`
	OutGTEIn bool         `json:"out_gte_in,omitempty" jsonschema:"the result is never below the untransformed score"`
	OutLTEIn bool         `json:"out_lte_in,omitempty" jsonschema:"the result is never above the untransformed score"`
}

// ModelViewing is the display a model was trained for.
type ModelViewing struct {
	Resolution string `json:"resolution" jsonschema:"WIDTHxHEIGHT, or unknown when the model does not say"`
	Width      int    `json:"width,omitempty"`
	Height     int    `json:"height,omitempty"`
	Display    string `json:"display" jsonschema:"e.g. 4K TV viewed at 1.5 times the screen height; unknown"`
	Basis      string `json:"basis" jsonschema:"what this is derived from: libvmaf's model files carry no resolution, so a model's name is the only source"`
}

type describeArgs struct {
	Model string `json:"model" jsonschema:"as for vmaf_request_model_swap: a built-in model version, a model file in the model directories, or libvmaf's key=value grammar"`
}

func (s *Server) addModelTools() {
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        toolDescribeModel,
		Description: "What a model is before swapping to it: source (built-in or file), model type, bootstrap or not (and how many bootstrap models), its input features with their extractor options, score clip and transform, the metrics it reports, and the display it is meant for (e.g. vmaf_4k_v0.6.1: 3840x2160 4K TV viewing; unknown when the model does not say), with a mismatched_model_warning when it does not suit the running stream. The model is resolved and loaded as a swap would (the same refusals: unknown names, invalid files, files outside the model directories); nothing is swapped.",
		Annotations: readOnly("Describe a VMAF model"),
		InputSchema: schemaFor[describeArgs](func(p map[string]*jsonschema.Schema) { p["model"].MinLength = ptr(1) }),
	}, s.toolDescribeModel)
}

func (s *Server) toolDescribeModel(ctx context.Context, _ *mcp.CallToolRequest, in describeArgs) (*mcp.CallToolResult, ModelDescription, error) {
	switch {
	case strings.TrimSpace(in.Model) == "":
		return nil, ModelDescription{}, Errorf(CodeBadRequest, "model is empty")
	case len(in.Model) > MaxStringBytes:
		return nil, ModelDescription{}, Errorf(CodeBadRequest, "model is %d bytes; at most %d", len(in.Model), MaxStringBytes)
	}
	d, err := s.target.DescribeModel(ctx, in.Model)
	if err != nil {
		return nil, ModelDescription{}, err
	}
	if d.Features == nil {
		d.Features = []ModelFeature{}
	}
	if d.Outputs == nil {
		d.Outputs = []string{}
	}
	return nil, d, nil
}

// stamp adds the engine that runs and the build's version to a command's
// reply.
func (s *Server) stamp(c Command) Command {
	c.EngineUsed = engineUsed(s.target.Status())
	c.Version = s.opts.Version
	return c
}

// engineUsed is the engine that runs: the target's word, or the engine
// asked for when that is not auto.
func engineUsed(st Status) string {
	switch {
	case st.EngineUsed != "":
		return st.EngineUsed
	case st.Engine == "native" || st.Engine == "libvmaf":
		return st.Engine
	}
	return ""
}

// DescribeModel converts the engine's description of m for the wire.
func DescribeModel(m *vmaf.Model) ModelDescription {
	d := m.Describe()
	out := ModelDescription{
		Name: d.Name, Model: d.Version, Source: "file", Type: d.Type, Bootstrap: d.Members > 0, Members: d.Members,
		Norm: d.Norm, Features: make([]ModelFeature, 0, len(d.Features)), ClipDisabled: d.ClipDisabled,
		ChromaCorrection: d.ChromaCorrection, Outputs: d.Outputs, Learned: d.Learned,
		Viewing: ModelViewing{Resolution: d.Viewing.Resolution, Width: d.Viewing.Width, Height: d.Viewing.Height,
			Display: d.Viewing.Display, Basis: d.Viewing.Basis},
	}
	if d.Builtin {
		out.Source = "builtin"
	}
	for _, f := range d.Features {
		mf := ModelFeature{Name: f.Name, Feature: f.Feature, Extractor: f.Extractor}
		for _, o := range f.Options {
			if mf.Options == nil {
				mf.Options = map[string]string{}
			}
			mf.Options[o.Key] = o.Value
		}
		out.Features = append(out.Features, mf)
	}
	if d.Clip != nil {
		out.Clip = &ScoreClip{Min: d.Clip[0], Max: d.Clip[1]}
	}
	if t := d.Transform; t != nil {
		out.Transform = &ScoreTransform{Enabled: t.Enabled, P0: t.P0, P1: t.P1, P2: t.P2, Knots: t.Knots, OutGTEIn: t.OutGTEIn, OutLTEIn: t.OutLTEIn}
	}
	return out
}
