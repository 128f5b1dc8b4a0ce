package onnx

import (
	"fmt"
	"math"
	"runtime/debug"
	"strings"
	"sync"

	ort "github.com/yalue/onnxruntime_go"
)

// Options are how a model's session runs.
type Options struct {
	// Threads is ONNX Runtime's intra-op thread count; 0 means 1, so a
	// model never competes with the engine's own workers unasked.
	Threads int
	// Device is the execution provider: "cpu" (or ""), "cuda", "tensorrt"
	// or "openvino". Any but cpu must be in the library, or the session is
	// refused: there is no silent fallback to the CPU.
	Device string
}

// Devices lists the devices Options.Device takes.
var Devices = []string{"cpu", "cuda", "tensorrt", "openvino"}

// Tensor describes one of a model's inputs or outputs.
type Tensor struct {
	Name  string
	Shape []int64 // -1 for a dimension the model leaves free
	Float bool    // float32 elements
	Type  string  // the element type as ONNX Runtime names it
}

func (t Tensor) String() string {
	dims := make([]string, len(t.Shape))
	for i, d := range t.Shape {
		dims[i] = fmt.Sprint(d)
		if d < 0 {
			dims[i] = "N"
		}
	}
	return fmt.Sprintf("%s %s[%s]", t.Name, t.Type, strings.Join(dims, ","))
}

// Session is one model opened in ONNX Runtime, ready to run; it is safe
// for concurrent use (ONNX Runtime's Run is).
type Session struct {
	Inputs, Outputs []Tensor
	Device          string
	Threads         int
	s               *ort.DynamicAdvancedSession
	id              string
	users           int // Opens not yet released; under sessions' lock
}

var sessions struct {
	sync.Mutex
	m map[string]*Session
}

// Open returns the session of the model file at path under opts, made
// the first time and shared by every user until the last releases it:
// one session per model. key identifies the file's content (its sha256),
// so a file changed in place gets a new session.
func Open(path, key string, opts Options) (*Session, error) {
	if err := Init(); err != nil {
		return nil, err
	}
	threads := max(opts.Threads, 1)
	device := strings.ToLower(opts.Device)
	if device == "" {
		device = "cpu"
	}
	id := fmt.Sprintf("%s|%s|%d|%s", path, key, threads, device)
	sessions.Lock()
	defer sessions.Unlock()
	if s, ok := sessions.m[id]; ok {
		s.users++
		return s, nil
	}
	s, err := open(path, threads, device)
	if err != nil {
		return nil, err
	}
	if sessions.m == nil {
		sessions.m = map[string]*Session{}
	}
	s.id, s.users = id, 1
	sessions.m[id] = s
	return s, nil
}

// Release ends one Open's use of the session. When no user is left the
// session is destroyed: ONNX Runtime keeps the memory a network's
// activations needed (gigabytes for LPIPS on 1080p pictures) for the
// session's life, and a host that has stopped using the model gets it
// back. A user that never releases keeps the session for the process's
// life.
func (s *Session) Release() {
	sessions.Lock()
	defer sessions.Unlock()
	if s.users == 0 {
		return
	}
	if s.users--; s.users > 0 {
		return
	}
	delete(sessions.m, s.id)
	// Releasing an ONNX Runtime session cannot fail; the binding's error
	// is always nil.
	_ = s.s.Destroy()
}

func open(path string, threads int, device string) (s *Session, err error) {
	defer recoverTo(&err)
	ins, outs, err := ort.GetInputOutputInfo(path)
	if err != nil {
		return nil, refusal(err)
	}
	so, err := ort.NewSessionOptions()
	if err != nil {
		return nil, fmt.Errorf("ONNX Runtime: %w", err)
	}
	defer so.Destroy()
	if err := so.SetIntraOpNumThreads(threads); err != nil {
		return nil, fmt.Errorf("ONNX Runtime: threads %d: %w", threads, err)
	}
	if err := so.SetInterOpNumThreads(1); err != nil {
		return nil, fmt.Errorf("ONNX Runtime: %w", err)
	}
	if err := appendDevice(so, device); err != nil {
		return nil, err
	}
	names := func(info []ort.InputOutputInfo) []string {
		out := make([]string, len(info))
		for i, n := range info {
			out[i] = n.Name
		}
		return out
	}
	ds, err := ort.NewDynamicAdvancedSession(path, names(ins), names(outs), so)
	if err != nil {
		return nil, refusal(err)
	}
	s = &Session{Device: device, Threads: threads, s: ds}
	for _, in := range ins {
		s.Inputs = append(s.Inputs, tensorOf(in))
	}
	for _, o := range outs {
		s.Outputs = append(s.Outputs, tensorOf(o))
	}
	return s, nil
}

func appendDevice(so *ort.SessionOptions, device string) error {
	var err error
	switch device {
	case "cpu":
		return nil
	case "cuda":
		var o *ort.CUDAProviderOptions
		if o, err = ort.NewCUDAProviderOptions(); err == nil {
			defer o.Destroy()
			err = so.AppendExecutionProviderCUDA(o)
		}
	case "tensorrt":
		var o *ort.TensorRTProviderOptions
		if o, err = ort.NewTensorRTProviderOptions(); err == nil {
			defer o.Destroy()
			err = so.AppendExecutionProviderTensorRT(o)
		}
	case "openvino":
		err = so.AppendExecutionProviderOpenVINO(map[string]string{})
	default:
		return fmt.Errorf("device %q: unknown (want one of %s)", device, strings.Join(Devices, ", "))
	}
	if err != nil {
		return fmt.Errorf("device %s: the ONNX Runtime library in use (%s) cannot run on it: %s", device, state.loaded, firstLine(err.Error()))
	}
	return nil
}

func tensorOf(info ort.InputOutputInfo) Tensor {
	t := Tensor{Name: info.Name, Type: strings.ToLower(strings.TrimPrefix(info.DataType.String(), "ONNX_TENSOR_ELEMENT_DATA_TYPE_"))}
	if info.OrtValueType != ort.ONNXTypeTensor {
		t.Type = info.OrtValueType.String()
		return t
	}
	t.Float = info.DataType == ort.TensorElementDataTypeFloat
	t.Shape = append([]int64(nil), info.Dimensions...)
	return t
}

// Buffers are one caller's input and output tensors for a session, made
// once and reused for every run; not safe for concurrent use.
type Buffers struct {
	in, out   []*ort.Tensor[float32]
	inV, outV []ort.Value
}

// NewBuffers makes tensors of the given shapes, one per input and output
// in the session's order.
func (s *Session) NewBuffers(in, out [][]int64) (*Buffers, error) {
	b := &Buffers{}
	for _, sh := range in {
		t, err := ort.NewEmptyTensor[float32](ort.NewShape(sh...))
		if err != nil {
			b.Close()
			return nil, fmt.Errorf("ONNX Runtime: input of shape %v: %w", sh, err)
		}
		b.in, b.inV = append(b.in, t), append(b.inV, t)
	}
	for _, sh := range out {
		t, err := ort.NewEmptyTensor[float32](ort.NewShape(sh...))
		if err != nil {
			b.Close()
			return nil, fmt.Errorf("ONNX Runtime: output of shape %v: %w", sh, err)
		}
		b.out, b.outV = append(b.out, t), append(b.outV, t)
	}
	return b, nil
}

// In is input i's data, to fill before Run.
func (b *Buffers) In(i int) []float32 { return b.in[i].GetData() }

// Out is output i's data after Run.
func (b *Buffers) Out(i int) []float32 { return b.out[i].GetData() }

// Close frees the tensors.
func (b *Buffers) Close() {
	for _, t := range b.in {
		t.Destroy()
	}
	for _, t := range b.out {
		t.Destroy()
	}
	b.in, b.out, b.inV, b.outV = nil, nil, nil, nil
}

// Run runs the model on b's inputs into b's outputs and checks that every
// output value is finite.
func (s *Session) Run(b *Buffers) (err error) {
	defer recoverTo(&err)
	if err := s.s.Run(b.inV, b.outV); err != nil {
		return fmt.Errorf("ONNX Runtime: %s", firstLine(err.Error()))
	}
	for i, t := range b.out {
		for _, v := range t.GetData() {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("the model's output %s is %v, not a finite number", s.Outputs[i].Name, v)
			}
		}
	}
	return nil
}

// recoverTo turns a panic in the binding into an error, so that a fault
// in a model's run ends the run, never the host process.
func recoverTo(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("ONNX Runtime failed: %v\n%s", r, debug.Stack())
	}
}

// refusal says why ONNX Runtime would not open a model.
func refusal(err error) error {
	msg := firstLine(err.Error())
	switch {
	case strings.Contains(msg, "No Op registered") || strings.Contains(msg, "Could not find an implementation"):
		return fmt.Errorf("it uses an operator this ONNX Runtime (%s) does not have: %s", state.version, msg)
	case strings.Contains(msg, "INVALID_PROTOBUF") || strings.Contains(msg, "Protobuf parsing failed") || strings.Contains(msg, "protobuf"):
		return fmt.Errorf("ONNX Runtime cannot read it: not an ONNX model, or cut short: %s", msg)
	}
	return fmt.Errorf("ONNX Runtime cannot load it: %s", msg)
}
