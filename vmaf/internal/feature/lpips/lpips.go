// Package lpips is the LPIPS perceptual distance as a feature: a learned
// network (LPIPS-SqueezeNet, an ONNX model) compares the reference and
// distorted pictures, converted to RGB as the model's card says, and
// reports one distance per frame, 0 for identical pictures.
package lpips

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/onnx"
)

// DefaultModel is the file model_path defaults to, in $VMAF_MODELS/tiny.
const DefaultModel = "lpips_sq.onnx"

// Kind is libvmaf's fork's lpips: model_path names the ONNX model
// (default $VMAF_MODELS/tiny/lpips_sq.onnx), threads and device how it
// runs, verify refuses a model no registry.json beside it pins.
var Kind = &feature.Kind{
	Name: "lpips",
	Options: []feature.Option{
		{Name: "model_path", Type: feature.String},
		{Name: "threads", Type: feature.Int, Default: 1, Min: 1, Max: 64},
		{Name: "device", Type: feature.String, DefaultString: "cpu"},
		{Name: "verify", Type: feature.Bool},
	},
	Outputs: func(feature.Format, feature.Settings) []string { return []string{"lpips"} },
	New:     newExtractor,
	Check:   check,
}

// check refuses what needs no model opened: no model path, a path that
// is not a file, an unknown device. The model itself is checked when the
// first frame's instances are made.
func check(s feature.Settings) error {
	path, err := modelPath(s)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(path); err != nil {
		return fmt.Errorf("feature lpips: model %w", err)
	} else if !fi.Mode().IsRegular() {
		return fmt.Errorf("feature lpips: model %s is not a regular file", path)
	}
	if !slices.Contains(onnx.Devices, s.String("device")) {
		return fmt.Errorf("feature lpips: device %q: unknown (want one of %v)", s.String("device"), onnx.Devices)
	}
	return nil
}

func modelPath(s feature.Settings) (string, error) {
	if p := s.String("model_path"); p != "" {
		return p, nil
	}
	if d := os.Getenv("VMAF_MODELS"); d != "" {
		return filepath.Join(d, "tiny", DefaultModel), nil
	}
	return "", errors.New("feature lpips: give model_path=FILE (the LPIPS-SqueezeNet model, lpips_sq.onnx), or set VMAF_MODELS to the directory whose tiny/ holds it")
}

// open checks the model (its registry's sha256, its inputs) and returns
// its session, made once per model.
func open(s feature.Settings) (*onnx.Session, error) {
	path, err := modelPath(s)
	if err != nil {
		return nil, err
	}
	files, err := onnx.ReadFiles(path, s.Bool("verify"))
	if err != nil {
		return nil, fmt.Errorf("feature lpips: model %s: %w", path, err)
	}
	sess, err := onnx.Open(path, files.SHA256, onnx.Options{Threads: s.Int("threads"), Device: s.String("device")})
	if err != nil {
		return nil, fmt.Errorf("feature lpips: model %s: %w", path, err)
	}
	ins, outs := sess.Inputs, sess.Outputs
	picture := func(t onnx.Tensor) bool {
		return t.Float && len(t.Shape) == 4 && (t.Shape[0] == 1 || t.Shape[0] == -1) && t.Shape[1] == 3
	}
	if len(ins) != 2 || !picture(ins[0]) || !picture(ins[1]) || ins[0].Name != "ref" || ins[1].Name != "dist" {
		sess.Release()
		return nil, fmt.Errorf("feature lpips: model %s: inputs %v: want ref and dist, float [1,3,H,W]", path, ins)
	}
	if len(outs) != 1 || !outs[0].Float {
		sess.Release()
		return nil, fmt.Errorf("feature lpips: model %s: outputs %v: want one float distance", path, outs)
	}
	return sess, nil
}

type extractor struct {
	sess *onnx.Session
	buf  *onnx.Buffers
}

func newExtractor(f feature.Format, s feature.Settings) (feature.Extractor, error) {
	if f.Chroma == feature.Chroma400 {
		return nil, errors.New("feature lpips: needs colour (the model compares RGB pictures); the stream is luma only")
	}
	sess, err := open(s)
	if err != nil {
		return nil, err
	}
	out := []int64{1}
	if len(sess.Outputs[0].Shape) > 1 {
		out = make([]int64, len(sess.Outputs[0].Shape))
		for i := range out {
			out[i] = 1
		}
	}
	pic := []int64{1, 3, int64(f.Height), int64(f.Width)}
	buf, err := sess.NewBuffers([][]int64{pic, pic}, [][]int64{out})
	if err != nil {
		sess.Release()
		return nil, err
	}
	return &extractor{sess: sess, buf: buf}, nil
}

func (e *extractor) Extract(_ int, ref, dist *feature.Frame, out []float64) error {
	toRGB(ref, e.buf.In(0))
	toRGB(dist, e.buf.In(1))
	if err := e.sess.Run(e.buf); err != nil {
		return err
	}
	out[0] = float64(e.buf.Out(0)[0])
	return nil
}

func (e *extractor) Close() {
	e.buf.Close()
	if e.sess != nil {
		e.sess.Release()
		e.sess = nil
	}
}
