package vmaf

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A few ONNX graphs written by hand (protobuf's wire format), so that
// each way a model can be wrong has a file to be refused.

type pb []byte

func (b pb) varint(field int, v uint64) pb {
	b = binary.AppendUvarint(b, uint64(field<<3))
	return binary.AppendUvarint(b, v)
}

func (b pb) bytes(field int, v []byte) pb {
	b = binary.AppendUvarint(b, uint64(field<<3|2))
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

func (b pb) str(field int, s string) pb { return b.bytes(field, []byte(s)) }

// valueInfo is a float tensor; a dim of -1 is the free batch dimension N.
func valueInfo(name string, dims ...int64) []byte {
	var shape pb
	for _, d := range dims {
		if d < 0 {
			shape = shape.bytes(1, pb(nil).str(2, "N"))
		} else {
			shape = shape.bytes(1, pb(nil).varint(1, uint64(d)))
		}
	}
	tensor := pb(nil).varint(1, 1).bytes(2, shape)
	return pb(nil).str(1, name).bytes(2, pb(nil).bytes(1, tensor))
}

func floatTensor(name string, dims []int64, vals []float32) []byte {
	var t pb
	for _, d := range dims {
		t = t.varint(1, uint64(d))
	}
	t = t.varint(2, 1)
	var data []byte
	for _, v := range vals {
		data = binary.LittleEndian.AppendUint32(data, math.Float32bits(v))
	}
	return t.bytes(4, data).str(8, name)
}

type node struct {
	op      string
	in, out []string
}

// onnxModel writes a graph of nodes over the inputs and initializers.
func onnxModel(nodes []node, inits [][]byte, inputs, outputs [][]byte) []byte {
	var g pb
	for i, n := range nodes {
		var nb pb
		for _, s := range n.in {
			nb = nb.str(1, s)
		}
		for _, s := range n.out {
			nb = nb.str(2, s)
		}
		nb = nb.str(3, "n"+string(rune('0'+i))).str(4, n.op)
		g = g.bytes(1, nb)
	}
	g = g.str(2, "g")
	for _, t := range inits {
		g = g.bytes(5, t)
	}
	for _, v := range inputs {
		g = g.bytes(11, v)
	}
	for _, v := range outputs {
		g = g.bytes(12, v)
	}
	return pb(nil).varint(1, 8).bytes(7, g).bytes(8, pb(nil).str(1, "").varint(2, 17))
}

// regressor is features[N,6] → MatMul(w) → score[N,1], after op (if
// any) on the features.
func regressor(input string, width int64, w []float32, op string) []byte {
	nodes := []node{{"MatMul", []string{input, "w"}, []string{"score"}}}
	if op != "" {
		nodes = []node{{op, []string{input}, []string{"t"}}, {"MatMul", []string{"t", "w"}, []string{"score"}}}
	}
	return onnxModel(nodes, [][]byte{floatTensor("w", []int64{width, 1}, w)},
		[][]byte{valueInfo(input, -1, width)}, [][]byte{valueInfo("score", -1, 1)})
}

var ones = []float32{1, 1, 1, 1, 1, 1}

func writeModel(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLearnedFixtureLoads(t *testing.T) {
	p := writeModel(t, t.TempDir(), "sum.onnx", regressor("features", 6, ones, ""))
	m, err := ParseModelSpec("path=" + p)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, 1)
	if err := m.score([]float64{1, 2, 3, 4, 5, 6}, out); err != nil || out[0] != 21 {
		t.Fatalf("sum model: %v, %v; want 21", out[0], err)
	}
}

func TestLearnedRefusals(t *testing.T) {
	tiny := tinyDir(t)
	real, err := os.ReadFile(filepath.Join(tiny, "vmaf_tiny_v2.onnx"))
	if err != nil {
		t.Fatal(err)
	}
	nan := float32(math.NaN())
	for _, tc := range []struct {
		name string
		make func(t *testing.T, dir string) string // returns the spec
		want string
	}{
		{"not onnx", func(t *testing.T, dir string) string {
			return "path=" + writeModel(t, dir, "m.onnx", []byte(`{"model_dict": {}}`))
		}, "cannot read it"},
		{"empty", func(t *testing.T, dir string) string {
			return "path=" + writeModel(t, dir, "m.onnx", nil)
		}, "empty"},
		{"truncated", func(t *testing.T, dir string) string {
			return "path=" + writeModel(t, dir, "m.onnx", real[:len(real)/2])
		}, "cannot read it"},
		{"wrong input name per card", func(t *testing.T, dir string) string {
			writeModel(t, dir, "m.json", []byte(`{"id": "m", "kind": "fr", "input_name": "features"}`))
			return "path=" + writeModel(t, dir, "m.onnx", regressor("feats", 6, ones, ""))
		}, `input 0 is "feats", its card m.json says "features"`},
		{"wrong input shape", func(t *testing.T, dir string) string {
			return "path=" + writeModel(t, dir, "m.onnx", regressor("features", 5, ones[:5], ""))
		}, "not a model this engine runs"},
		{"unsupported operator", func(t *testing.T, dir string) string {
			return "path=" + writeModel(t, dir, "m.onnx", regressor("features", 6, ones, "NoSuchOperator"))
		}, "uses an operator this ONNX Runtime"},
		{"nan output", func(t *testing.T, dir string) string {
			return "path=" + writeModel(t, dir, "m.onnx", regressor("features", 6, []float32{1, 1, nan, 1, 1, 1}, ""))
		}, "not a finite number"},
		{"many GB", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "m.onnx")
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(5 << 30); err != nil { // sparse: nothing is written
				t.Fatal(err)
			}
			return "path=" + p
		}, "is 5368709120 bytes, larger than 268435456 bytes"},
		{"registry sha256 mismatch", func(t *testing.T, dir string) string {
			writeModel(t, dir, "registry.json", []byte(`{"models": [{"id": "vmaf_tiny_v2", "onnx": "vmaf_tiny_v2.onnx", "sha256": "`+strings.Repeat("0", 64)+`"}]}`))
			return "path=" + writeModel(t, dir, "vmaf_tiny_v2.onnx", real)
		}, "does not match"},
		{"strict, not in a registry", func(t *testing.T, dir string) string {
			return "path=" + writeModel(t, dir, "vmaf_tiny_v2.onnx", real) + ":verify=strict"
		}, "not pinned"},
		{"a directory", func(t *testing.T, dir string) string {
			os.Mkdir(filepath.Join(dir, "d.onnx"), 0o755)
			return "path=" + filepath.Join(dir, "d.onnx")
		}, "not a regular file"},
		{"codec options for a model without a codec block", func(t *testing.T, dir string) string {
			return "path=" + filepath.Join(tiny, "vmaf_tiny_v2.onnx") + ":codec=libx264"
		}, "takes no codec block"},
		{"unknown device", func(t *testing.T, dir string) string {
			return "path=" + filepath.Join(tiny, "vmaf_tiny_v2.onnx") + ":device=abacus"
		}, "unknown"},
		{"a device the library lacks", func(t *testing.T, dir string) string {
			return "path=" + filepath.Join(tiny, "vmaf_tiny_v2.onnx") + ":device=cuda"
		}, "cannot run on it"},
		{"an encoder outside a vocabulary without an unknown slot", func(t *testing.T, dir string) string {
			return "path=" + filepath.Join(tiny, "fr_regressor_v3.onnx") + ":codec=mpeg2video"
		}, "not in the model's vocabulary"},
		{"an LPIPS model as a model", func(t *testing.T, dir string) string {
			return "path=" + filepath.Join(tiny, "lpips_sq.onnx")
		}, "runs as a feature"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := tc.make(t, t.TempDir())
			_, err := ParseModelSpec(spec)
			if err == nil {
				t.Fatalf("%s loaded", spec)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not say %q", err, tc.want)
			}
		})
	}
}

// TestLearnedStrictPinned loads the published models in strict mode: the
// registry pins them, and their int8 copies through their cards.
func TestLearnedStrictPinned(t *testing.T) {
	tiny := tinyDir(t)
	for _, f := range []string{"vmaf_tiny_v2.onnx", "vmaf_tiny_v4.int8.onnx", "fr_regressor_v1.onnx", "nr_metric_v1.int8.onnx", "fr_regressor_v3.onnx:codec=libx264"} {
		if _, err := ParseModelSpec("path=" + filepath.Join(tiny, f) + ":verify=strict"); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestLearnedRunError: a model that loads but fails on a frame (its
// score not a number) ends the run with an error naming the model and
// the frame; nothing panics.
func TestLearnedRunError(t *testing.T) {
	p := writeModel(t, t.TempDir(), "log.onnx", regressor("features", 6, ones, "Log"))
	m, err := ParseModelSpec("path=" + p + ":name=logsum")
	if err != nil {
		t.Fatal(err)
	}
	g := loadGolden(t, goldenNames(t)[0], 3)
	var got int
	ctx, err := NewContext(Config{Models: []*Model{m}, OnResult: func(*Result) { got++ }})
	if err != nil {
		t.Fatal(err)
	}
	for i := range g.ref {
		if err := ctx.Submit(g.ref[i], g.dist[i], nil); err != nil {
			break
		}
	}
	err = ctx.Flush()
	// Frame 0's motion2 is 0, whose log is -inf.
	if err == nil || !strings.Contains(err.Error(), "logsum") || !strings.Contains(err.Error(), "not a finite number") {
		t.Fatalf("flush: %v", err)
	}
	if got != 0 {
		t.Fatalf("%d results from a model that failed on frame 0", got)
	}
}
