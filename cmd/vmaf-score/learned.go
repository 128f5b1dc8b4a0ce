package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/vmafsink/vmafsink/vmaf"
)

// tinySettings are the options for learned (ONNX) models, named as the
// libvmaf fork that publishes the models names them.
type tinySettings struct {
	noReference bool
	threads     int    // 0: the model's default (1)
	device      string // "" : cpu
	verify      bool   // refuse models no registry.json pins
	library     string // an ONNX Runtime library to use
}

func init() {
	options = append(options, tinyOptions...)
}

var tinyOptions = []option{
	{0, "tiny-model", "PATH", "score with a learned ONNX model (full-reference regressor or no-reference model; with its card and registry.json beside it), as -m path=PATH",
		func(s *settings, v string) error {
			if v == "" {
				return invalid(v, "--tiny-model", "a .onnx file")
			}
			s.models = append(s.models, "path="+v)
			return nil
		}},
	{0, "no-reference", "", "score the distorted video alone with a no-reference model (--tiny-model nr_metric_v1.onnx); no -r",
		func(s *settings, _ string) error { s.tiny.noReference = true; return nil }},
	{0, "tiny-threads", "N", "ONNX Runtime's threads per learned model (default 1)",
		func(s *settings, v string) error {
			if err := parseUint(v, "--tiny-threads", &s.tiny.threads); err != nil {
				return err
			}
			if s.tiny.threads < 1 || s.tiny.threads > 256 {
				return invalid(v, "--tiny-threads", "between 1 and 256")
			}
			return nil
		}},
	{0, "tiny-device", "DEV", "where learned models run: cpu (default), or cuda, tensorrt, openvino when the ONNX Runtime library has them (refused otherwise)",
		func(s *settings, v string) error { s.tiny.device = strings.ToLower(v); return nil }},
	{0, "tiny-model-verify", "", "refuse learned models whose sha256 no registry.json beside them pins",
		func(s *settings, _ string) error { s.tiny.verify = true; return nil }},
	{0, "ort-library", "PATH", "the ONNX Runtime library (libonnxruntime.so.1) to run learned models on (default: $VMAF_ORT_LIBRARY, then beside vmaf-score, then the system's)",
		func(s *settings, v string) error { s.tiny.library = v; return nil }},
}

// learnedSpec adds the --tiny-* options to a spec naming a learned
// model, unless the spec sets them itself.
func (s *settings) learnedSpec(spec string) string {
	return vmaf.LearnedOptions{Threads: s.tiny.threads, Device: s.tiny.device, Verify: s.tiny.verify}.Apply(spec)
}

// prepareLearned sets the ONNX Runtime library and checks a
// no-reference run: every model must score the distorted picture alone.
func (s *settings) prepareLearned(models []*vmaf.Model) error {
	if !s.tiny.noReference {
		return nil
	}
	if len(s.models) == 0 {
		return usagef("--no-reference needs a no-reference model (--tiny-model nr_metric_v1.onnx)")
	}
	for _, m := range models {
		if !m.NoReference() {
			return usagef("--no-reference: model %s (%s) needs a reference; only no-reference models score the distorted video alone", m.Name, m.Version)
		}
	}
	if len(s.features) > 0 {
		return usagef("--no-reference: --feature %s compares against a reference, which there is none of", s.features[0])
	}
	return nil
}

// mirroredSource makes one input both sides of each pair, for a
// no-reference run: the engine reads the distorted picture for both, and
// what it computes from the "reference" (motion) is never reported.
// first hands out the frame and its release; second the same picture
// with nothing to release, since the engine releases both sides of a
// pair together.
type mirroredSource struct {
	src  source
	last frame
}

type mirrorSide struct {
	m      *mirroredSource
	second bool
}

func newMirror(src source) (first, second source) {
	m := &mirroredSource{src: src}
	return &mirrorSide{m: m}, &mirrorSide{m: m, second: true}
}

func (s *mirrorSide) next() (frame, error) {
	if !s.second {
		f, err := s.m.src.next()
		s.m.last = f
		return f, err
	}
	f := s.m.last
	if f.pic == nil {
		return frame{}, io.EOF
	}
	s.m.last = frame{}
	f.release = func() {}
	return f, nil
}

func (s *mirrorSide) format() picFormat { return s.m.src.format() }
func (s *mirrorSide) total() int        { return s.m.src.total() }
func (s *mirrorSide) close() {
	if !s.second {
		s.m.src.close()
	}
}

// openNoReference opens the distorted input as both sides.
func (s *settings) openNoReference(buffers int) (ref, dist source, err error) {
	if s.ref != "" {
		return nil, nil, usagef("--no-reference scores the distorted video alone; drop -r/--reference")
	}
	d, err := s.openInput(s.dist, true, buffers)
	if err != nil {
		return nil, nil, fmt.Errorf("distorted %w", err)
	}
	ref, dist = newMirror(d)
	return ref, dist, nil
}

// tinyArgs are vmaf_score_files's arguments for learned models, named as
// the libvmaf fork's tool names its options.
type tinyArgs struct {
	TinyModel       string `json:"tiny_model,omitempty" jsonschema:"a learned ONNX model (a .onnx file in an allowed directory, or its base name there), as vmaf-score --tiny-model"`
	NoReference     bool   `json:"no_reference,omitempty" jsonschema:"score the distorted video alone with a no-reference tiny_model (no reference argument)"`
	TinyDevice      string `json:"tiny_device,omitempty" jsonschema:"where learned models run: cpu (default), or cuda, tensorrt, openvino when the server's ONNX Runtime has them"`
	TinyThreads     int    `json:"tiny_threads,omitempty" jsonschema:"ONNX Runtime's threads per learned model (default 1)"`
	TinyModelVerify bool   `json:"tiny_model_verify,omitempty" jsonschema:"refuse learned models whose sha256 no registry.json beside them pins"`
}

// tinyArgv turns the learned-model arguments into command-line options,
// the model held to the allowed directories as any model file is.
func (s *filesServer) tinyArgv(argv []string, a tinyArgs) ([]string, error) {
	if a.TinyModel != "" {
		spec, err := s.allowed.Resolve(a.TinyModel, "")
		if err != nil {
			return nil, fmt.Errorf("tiny_model: %q: %w", a.TinyModel, err)
		}
		p, err := vmaf.ParseModelSpecString(spec)
		if err != nil || !vmaf.IsLearnedModelPath(p.Path) {
			return nil, fmt.Errorf("tiny_model: %q is not a .onnx model file", a.TinyModel)
		}
		argv = append(argv, "--model="+spec)
	}
	if a.NoReference {
		argv = append(argv, "--no-reference")
	}
	if a.TinyDevice != "" {
		argv = append(argv, "--tiny-device="+a.TinyDevice)
	}
	if a.TinyThreads != 0 {
		argv = append(argv, "--tiny-threads="+strconv.Itoa(a.TinyThreads))
	}
	if a.TinyModelVerify {
		argv = append(argv, "--tiny-model-verify")
	}
	return argv, nil
}

// tinySchema lets vmaf_score_files go without a reference (no_reference)
// and bounds tiny_threads.
func tinySchema(in *jsonschema.Schema) {
	in.Required = slices.DeleteFunc(in.Required, func(s string) bool { return s == "reference" })
	in.Properties["reference"].Description += "; required unless no_reference"
	lo, hi := 0.0, 256.0
	in.Properties["tiny_threads"].Minimum, in.Properties["tiny_threads"].Maximum = &lo, &hi
	in.Properties["tiny_device"].Enum = []any{"cpu", "cuda", "tensorrt", "openvino"}
}
