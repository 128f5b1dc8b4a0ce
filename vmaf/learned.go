package vmaf

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/nrmodel"
	"github.com/vmafsink/vmafsink/vmaf/internal/onnx"
)

// A learned model is a Model whose score comes from a small neural
// network run by ONNX Runtime rather than from libvmaf's SVM: either a
// full-reference regressor over the engine's own integer features
// (adm2, vif_scale0..3, motion2), or a no-reference model reading the
// distorted picture alone. It loads from a .onnx file with ModelSpec's
// path=, and plans, predicts and describes itself behind Model's methods.

// canonicalInputs maps the feature names the models' cards use to the
// libvmaf features the engine computes for them.
var canonicalInputs = map[string]string{
	"adm2":       "VMAF_integer_feature_adm2_score",
	"vif_scale0": "VMAF_integer_feature_vif_scale0_score",
	"vif_scale1": "VMAF_integer_feature_vif_scale1_score",
	"vif_scale2": "VMAF_integer_feature_vif_scale2_score",
	"vif_scale3": "VMAF_integer_feature_vif_scale3_score",
	"motion2":    "VMAF_integer_feature_motion2_score",
}

var canonicalOrder = []string{"adm2", "vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3", "motion2"}

// learnedConfig is what a spec's options say about a learned model.
type learnedConfig struct {
	name    string
	threads int
	device  string
	strict  bool
	codec   codecSpec
	// streamCodec: the caller learns the encoder from the distorted
	// stream (ParseStreamModelSpec), so a codec block that options alone
	// cannot fill waits for it instead of refusing the load.
	streamCodec bool
}

// IsLearnedModelPath reports whether path names a learned (ONNX) model.
func IsLearnedModelPath(path string) bool {
	return strings.EqualFold(filepath.Ext(path), ".onnx")
}

// parseLearnedOptions reads a learned model's spec options.
func parseLearnedOptions(opts []string, name string) (learnedConfig, error) {
	cfg := learnedConfig{name: name, threads: 1, device: "cpu"}
	for _, part := range opts {
		key, val, hasVal := strings.Cut(part, "=")
		var err error
		switch key {
		case "threads":
			cfg.threads, err = strconv.Atoi(val)
			if err == nil && (cfg.threads < 1 || cfg.threads > 256) {
				err = fmt.Errorf("outside 1..256")
			}
		case "device":
			cfg.device = strings.ToLower(val)
		case "verify":
			switch val {
			case "strict", "true", "":
				cfg.strict = true
			case "registry", "false":
				cfg.strict = false
			default:
				err = fmt.Errorf("want strict or registry")
			}
		case "codec", "preset", "crf", "preset_norm", "crf_norm":
			err = cfg.codec.set(key, val)
		case "version", "path", "name":
			err = fmt.Errorf("given as an option")
		default:
			return cfg, fmt.Errorf("unknown key %q for a learned model (want name, threads, device, verify, codec, preset, crf, preset_norm or crf_norm)", key)
		}
		if err == nil && !hasVal && key != "verify" {
			err = fmt.Errorf("no value")
		}
		if err != nil {
			return cfg, fmt.Errorf("%s=%s: %w", key, val, err)
		}
	}
	return cfg, nil
}

// learnedModel is the learned half of a Model.
type learnedModel struct {
	files  *onnx.Files
	sess   *onnx.Session
	id     string
	kind   string // "fr" or "nr"
	cfg    learnedConfig
	order  []string  // the card's feature names, the model's input order
	mean   []float64 // standardisation; nil when the model takes raw values
	std    []float64
	codec  []float32 // the codec block; nil for a model without one
	layout []string
	// codecErr, when set, is why no codec block is known yet: every
	// frame is refused with it until WithStreamCodec gives one.
	codecErr error
	picture  featureSpec // nr: the picture stage
	outRank  int         // the output's rank: 1 ([N]) or 2 ([N,1])

	mu   sync.Mutex
	free []*onnx.Buffers
}

// loadLearnedModel opens the model's session. A Model has no Close, so
// a loaded model holds its session for the process's life; one refused
// here releases it.
func loadLearnedModel(path string, cfg learnedConfig) (_ *Model, err error) {
	lf, err := onnx.ReadFiles(path, cfg.strict)
	if err != nil {
		return nil, err
	}
	sess, err := onnx.Open(path, lf.SHA256, onnx.Options{Threads: cfg.threads, Device: cfg.device})
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			sess.Release()
		}
	}()
	lm := &learnedModel{files: lf, sess: sess, cfg: cfg}
	lm.id = strings.TrimSuffix(filepath.Base(path), ".onnx")
	if s := lf.Card; s != nil && s.ONNX == filepath.Base(path) && s.ID != "" {
		lm.id = s.ID
	}
	if err := lm.checkGraph(); err != nil {
		return nil, err
	}
	m := &Model{Name: cfg.name, Version: path, learned: lm}
	if m.Name == "" {
		m.Name = strings.ReplaceAll(lm.id, ".", "_")
	}
	m.names = []string{m.Name}
	switch lm.kind {
	case "fr":
		if err := lm.setupFR(m); err != nil {
			return nil, err
		}
	case "nr":
		if err := lm.setupNR(); err != nil {
			return nil, err
		}
	}
	if err := lm.probe(); err != nil {
		return nil, err
	}
	return m, nil
}

// checkGraph decides what the model is from its inputs and outputs, and
// checks them against its card.
func (lm *learnedModel) checkGraph() error {
	ins, outs := lm.sess.Inputs, lm.sess.Outputs
	if len(outs) != 1 || !outs[0].Float || !isBatchVector(outs[0].Shape) {
		return fmt.Errorf("outputs %s: want one float score per picture ([N] or [N,1])", tensorList(outs))
	}
	lm.outRank = len(outs[0].Shape)
	side := lm.files.Card
	if side != nil {
		want := side.InputNames
		if len(want) == 0 && side.InputName != "" && len(ins) == 1 {
			want = []string{side.InputName}
		}
		if len(want) > 0 {
			if len(want) != len(ins) {
				return fmt.Errorf("inputs %s: its card %s names %d inputs (%s)", tensorList(ins), filepath.Base(lm.files.CardFile), len(want), strings.Join(want, ", "))
			}
			for i, w := range want {
				if ins[i].Name != w {
					return fmt.Errorf("input %d is %q, its card %s says %q", i, ins[i].Name, filepath.Base(lm.files.CardFile), w)
				}
			}
		}
	}
	for _, in := range ins {
		if !in.Float {
			return fmt.Errorf("input %s: want float32", in)
		}
	}
	switch {
	case len(ins) >= 1 && len(ins) <= 2 && len(ins[0].Shape) == 2 && ins[0].Shape[1] == 6 && batchDim(ins[0].Shape[0]) &&
		(len(ins) == 1 || len(ins[1].Shape) == 2 && ins[1].Shape[1] > 0 && batchDim(ins[1].Shape[0])):
		lm.kind = "fr"
	case len(ins) == 1 && len(ins[0].Shape) == 4 && batchDim(ins[0].Shape[0]) && ins[0].Shape[1] == 1 &&
		ins[0].Shape[2] > 0 && ins[0].Shape[2] == ins[0].Shape[3]:
		lm.kind = "nr"
	case len(ins) == 2 && len(ins[0].Shape) == 4 && ins[0].Shape[1] == 3:
		return fmt.Errorf("inputs %s: a picture-pair distance (LPIPS-like), which runs as a feature (--feature lpips=model_path=FILE), not a model", tensorList(ins))
	default:
		return fmt.Errorf("inputs %s: not a model this engine runs (want features[N,6], with a codec block [N,K] for a codec-aware one, for a full-reference regressor, or frame[N,1,S,S] for a no-reference model)", tensorList(ins))
	}
	if side != nil && side.Kind != "" && side.Kind != lm.kind {
		return fmt.Errorf("its card says kind %q, but its inputs %s are those of a %s model", side.Kind, tensorList(ins), lm.kind)
	}
	return nil
}

func batchDim(d int64) bool { return d == -1 || d == 1 }

func isBatchVector(s []int64) bool {
	return len(s) == 1 && batchDim(s[0]) || len(s) == 2 && batchDim(s[0]) && s[1] == 1
}

func tensorList(ts []onnx.Tensor) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

// setupFR lays out the regressor's inputs: the card's features, in its
// order, as the engine's integer features; standardisation; codec block.
func (lm *learnedModel) setupFR(m *Model) error {
	side := lm.files.Card
	lm.order = canonicalOrder
	if side != nil {
		switch {
		case len(side.Features) > 0:
			lm.order = side.Features
		case len(side.FeatureOrder) > 0:
			lm.order = side.FeatureOrder
		}
	}
	if len(lm.order) != 6 {
		return fmt.Errorf("its card lists %d features; the model takes 6", len(lm.order))
	}
	for _, f := range lm.order {
		feat, ok := canonicalInputs[f]
		if !ok {
			return fmt.Errorf("its card asks for feature %q; the engine gives learned models adm2, vif_scale0..3 and motion2", f)
		}
		m.addInput(feat, nil)
	}
	if side != nil && (len(side.FeatureMean) > 0 || len(side.FeatureStd) > 0) {
		if len(side.FeatureMean) != 6 || len(side.FeatureStd) != 6 {
			return fmt.Errorf("its card's feature_mean and feature_std have %d and %d values, want 6 each", len(side.FeatureMean), len(side.FeatureStd))
		}
		for i, s := range side.FeatureStd {
			if !(s > 0) {
				return fmt.Errorf("its card's feature_std[%d] is %g, not positive", i, s)
			}
		}
		lm.mean, lm.std = side.FeatureMean, side.FeatureStd
	}
	ins := lm.sess.Inputs
	if len(ins) == 1 {
		if lm.cfg.codec.given() {
			return errors.New("codec options given, but the model takes no codec block")
		}
		return nil
	}
	if side == nil || len(side.CodecBlockLayout) == 0 {
		return fmt.Errorf("input %s is a codec block, but no card beside the model lays it out (codec_block_layout)", ins[1])
	}
	if int64(len(side.CodecBlockLayout)) != ins[1].Shape[1] {
		return fmt.Errorf("input %s: its card lays out %d values", ins[1], len(side.CodecBlockLayout))
	}
	var err error
	lm.layout = side.CodecBlockLayout
	lm.codec, err = lm.cfg.codec.block(side.CodecBlockLayout)
	if err != nil && lm.cfg.streamCodec && lm.cfg.codec.encoder == "" {
		lm.codecErr = fmt.Errorf("%w, or score a distorted stream whose tags name its encoder (none has so far)", err)
		lm.codec = make([]float32, len(side.CodecBlockLayout))
		return nil
	}
	return err
}

// setupNR makes the picture stage's settings: the extractor that
// area-scales each distorted luma and runs the model on it.
func (lm *learnedModel) setupNR() error {
	s := nrmodel.Kind.Defaults()
	size := lm.sess.Inputs[0].Shape[2]
	var err error
	for _, kv := range [][2]string{
		{"model_path", lm.files.Path}, {"model_sha256", lm.files.SHA256},
		{"threads", strconv.Itoa(lm.sess.Threads)}, {"device", lm.sess.Device}, {"size", strconv.FormatInt(size, 10)},
	} {
		if s, err = s.With(kv[0], kv[1]); err != nil {
			return err
		}
	}
	lm.picture = featureSpec{settings: s, name: nrmodel.Kind.Outputs(feature.Format{}, s)[0]}
	return nil
}

// probe runs the model once on typical inputs, so that a model whose
// outputs are not finite numbers is refused when it loads rather than
// failing a stream.
func (lm *learnedModel) probe() error {
	if lm.kind == "nr" {
		n := lm.sess.Inputs[0].Shape[2]
		b, err := lm.sess.NewBuffers([][]int64{{1, 1, n, n}}, [][]int64{lm.outShape()})
		if err != nil {
			return err
		}
		defer b.Close()
		for i := range b.In(0) {
			b.In(0)[i] = 0.5
		}
		return lm.sess.Run(b)
	}
	x := []float64{0.93, 0.45, 0.8, 0.88, 0.92, 4}
	var out [1]float64
	return lm.run(x, out[:])
}

func (lm *learnedModel) outShape() []int64 {
	if lm.outRank == 2 {
		return []int64{1, 1}
	}
	return []int64{1}
}

// predict scores one frame. features are the model's inputs in order
// (fr) or the picture stage's score (nr).
func (lm *learnedModel) predict(features, out []float64) error {
	if lm.kind == "nr" {
		out[0] = features[0]
		return nil
	}
	if lm.codecErr != nil {
		return lm.codecErr
	}
	return lm.run(features, out)
}

// run feeds a regressor one frame's features and its codec block.
func (lm *learnedModel) run(features, out []float64) error {
	b, err := lm.buffers()
	if err != nil {
		return err
	}
	defer lm.release(b)
	in := b.In(0)
	for i, v := range features[:6] {
		if lm.mean != nil {
			v = (v - lm.mean[i]) / lm.std[i]
		}
		in[i] = float32(v)
	}
	if lm.codec != nil {
		copy(b.In(1), lm.codec)
	}
	if err := lm.sess.Run(b); err != nil {
		return err
	}
	out[0] = float64(b.Out(0)[0])
	return nil
}

func (lm *learnedModel) buffers() (*onnx.Buffers, error) {
	lm.mu.Lock()
	if n := len(lm.free); n > 0 {
		b := lm.free[n-1]
		lm.free = lm.free[:n-1]
		lm.mu.Unlock()
		return b, nil
	}
	lm.mu.Unlock()
	in := [][]int64{{1, 6}}
	if lm.codec != nil {
		in = append(in, []int64{1, int64(len(lm.codec))})
	}
	return lm.sess.NewBuffers(in, [][]int64{lm.outShape()})
}

func (lm *learnedModel) release(b *onnx.Buffers) {
	lm.mu.Lock()
	defer lm.mu.Unlock()
	if len(lm.free) < 8 {
		lm.free = append(lm.free, b)
		return
	}
	b.Close()
}

// loadLearnedSpec loads the learned model a spec names; text is the spec
// as written, for errors.
func loadLearnedSpec(s ModelSpec, text string, streamCodec bool) (*Model, error) {
	cfg, err := parseLearnedOptions(s.Options, s.Name)
	cfg.streamCodec = streamCodec
	if err != nil {
		return nil, fmt.Errorf("vmaf: model spec %q: %w", text, err)
	}
	m, err := loadLearnedModel(s.Path, cfg)
	if err != nil {
		return nil, fmt.Errorf("vmaf: learned model %s: %w", s.Path, err)
	}
	return m, nil
}

// featureSpecs are the regressor's integer features, or the no-reference
// model's picture stage.
func (lm *learnedModel) featureSpecs(m *Model) ([]featureSpec, error) {
	if lm.kind == "nr" {
		return []featureSpec{lm.picture}, nil
	}
	specs := make([]featureSpec, len(m.inputs))
	for i, in := range m.inputs {
		src := lookupFeature(in.feature)
		specs[i] = featureSpec{settings: src.ext.Defaults(), name: in.name}
	}
	return specs, nil
}

// NoReference reports whether the model scores the distorted picture
// alone, so that a stream without a reference can be scored with it.
func (m *Model) NoReference() bool { return m.learned != nil && m.learned.kind == "nr" }

// Learned reports whether the model is a learned (ONNX) model.
func (m *Model) Learned() bool { return m.learned != nil }

// UseONNXRuntime names the ONNX Runtime library learned models run on,
// instead of the one found beside the program ($VMAF_ORT_LIBRARY, then
// beside the program or plugin, then the system's). It must come before
// the first learned model loads.
func UseONNXRuntime(path string) error { return onnx.SetLibrary(path) }

// LearnedRuntime names what runs the learned models among models,
// "onnxruntime <version>", or "" when there are none.
func LearnedRuntime(models []*Model) string {
	for _, m := range models {
		if m.learned != nil {
			if v, err := onnx.Version(); err == nil {
				return "onnxruntime " + v
			}
		}
	}
	return ""
}

// MaxLearnedModelBytes bounds a learned model: its .onnx file and its
// external weights (.onnx.data) together.
const MaxLearnedModelBytes = onnx.MaxModelBytes
