// Package nrmodel runs a no-reference learned model on each distorted
// picture: its luma, area-scaled to the model's square input in 8 bits
// and divided by 255, gives one score. Its value feeds the model the
// engine reports; the extractor itself is never asked for by name.
package nrmodel

import (
	"fmt"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/onnx"
)

// Kind is the no-reference picture model: model_path and model_sha256
// name the file (and so its session), threads and device how it runs,
// size its square input.
var Kind = &feature.Kind{
	Name: "nr_model",
	Options: []feature.Option{
		{Name: "model_path", Type: feature.String},
		{Name: "model_sha256", Type: feature.String},
		{Name: "threads", Type: feature.Int, Default: 1, Min: 1, Max: 256},
		{Name: "device", Type: feature.String, DefaultString: "cpu"},
		{Name: "size", Type: feature.Int, Default: 224, Min: 8, Max: 4096},
	},
	Outputs: func(_ feature.Format, s feature.Settings) []string {
		return []string{"nr_model:" + s.Key()}
	},
	New:    newExtractor,
	Hidden: true,
}

type extractor struct {
	sess *onnx.Session
	buf  *onnx.Buffers
	sc   *scaler
}

func newExtractor(f feature.Format, s feature.Settings) (feature.Extractor, error) {
	sess, err := onnx.Open(s.String("model_path"), s.String("model_sha256"),
		onnx.Options{Threads: s.Int("threads"), Device: s.String("device")})
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", s.String("model_path"), err)
	}
	n := int64(s.Int("size"))
	outShape := []int64{1}
	if len(sess.Outputs[0].Shape) == 2 {
		outShape = []int64{1, 1}
	}
	buf, err := sess.NewBuffers([][]int64{{1, 1, n, n}}, [][]int64{outShape})
	if err != nil {
		sess.Release()
		return nil, err
	}
	return &extractor{sess: sess, buf: buf, sc: newScaler(f.Width, f.Height, int(n))}, nil
}

func (e *extractor) Extract(_ int, _, dist *feature.Frame, out []float64) error {
	e.sc.scale(dist.Planes[0], e.buf.In(0))
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
