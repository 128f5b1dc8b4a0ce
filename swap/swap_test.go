package swap

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/vmaf"
)

// smallModel is a two-input ν-SVR model in libvmaf's format, written for
// these tests; %s is the feature family ("integer_feature" or "feature").
const smallModel = `{"model_dict": {
  "model_type": "LIBSVMNUSVR",
  "norm_type": "linear_rescale",
  "feature_names": ["VMAF_%[1]s_adm2_score", "VMAF_%[1]s_motion2_score"],
  "slopes": [0.02, 1.0, 0.25],
  "intercepts": [-1.0, 0.0, 0.0],
  "score_clip": [0.0, 100.0],
  "model": "svm_type nu_svr\nkernel_type rbf\ngamma 0.25\nnr_class 2\ntotal_sv 2\nrho -1\nSV\n2 1:0.75 2:0.5 \n-1 1:0.2 2:0.1 \n"
}}`

// modelDir makes an allowed directory with a good integer model, a float
// model, a broken file, and a good model outside it.
func modelDir(t *testing.T) (dir, outside string) {
	t.Helper()
	root := t.TempDir()
	dir = filepath.Join(root, "models")
	os.Mkdir(dir, 0o755)
	write := func(path, body string) {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "house.json"), fmt.Sprintf(smallModel, "integer_feature"))
	write(filepath.Join(dir, "floaty.json"), fmt.Sprintf(smallModel, "feature"))
	write(filepath.Join(dir, "broken.json"), `{"model_dict": {"model_type": "LIBSVMNUSVR"`)
	write(filepath.Join(dir, "notes.txt"), "not a model")
	outside = filepath.Join(root, "elsewhere.json")
	write(outside, fmt.Sprintf(smallModel, "integer_feature"))
	// A link inside the directory that leads out of it.
	os.Symlink(outside, filepath.Join(dir, "sneaky.json"))
	return dir, outside
}

func TestResolve(t *testing.T) {
	dir, outside := modelDir(t)
	reg, err := NewRegistry(dir)
	if err != nil {
		t.Fatal(err)
	}
	realDir, _ := filepath.EvalSymlinks(dir)
	house := filepath.Join(realDir, "house.json")
	tests := []struct {
		model, name string
		want        string // resolved spec
		err         error
	}{
		{"vmaf_v0.6.1", "", "version=vmaf_v0.6.1", nil},
		{"vmaf_v0.6.1neg", "vmaf_neg", "version=vmaf_v0.6.1neg:name=vmaf_neg", nil},
		{"version=vmaf_4k_v0.6.1:name=k", "", "version=vmaf_4k_v0.6.1:name=k", nil},
		{"version=vmaf_4k_v0.6.1:name=k", "k", "version=vmaf_4k_v0.6.1:name=k", nil},
		{"house", "", "path=" + house, nil},
		{"house.json", "h", "path=" + house + ":name=h", nil},
		{filepath.Join(dir, "house.json"), "", "path=" + house, nil},
		{"path=" + filepath.Join(dir, "..", "models", "house.json") + ":name=x", "", "path=" + house + ":name=x", nil},
		{"  vmaf_v0.6.1 ", "", "version=vmaf_v0.6.1", nil},
		{"", "", "", ErrBadSpec},
		{"version=vmaf_v9", "", "", ErrUnknownModel},
		{"vmaf_v9", "", "", ErrUnknownModel},
		{"nothing.json", "", "", ErrUnknownModel},
		{outside, "", "", ErrForbidden},
		{"path=" + filepath.Join(dir, "..", "elsewhere.json"), "", "", ErrForbidden},
		{"sneaky", "", "", ErrForbidden},
		{"/etc/passwd", "", "", ErrForbidden},
		{dir, "", "", ErrForbidden}, // the directory itself is not inside it
		{"version=vmaf_v0.6.1:name=a", "b", "", ErrBadSpec},
		{"vmaf_v0.6.1", "a:b", "", ErrBadSpec},
	}
	for _, tt := range tests {
		got, err := reg.Resolve(tt.model, tt.name)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("Resolve(%q, %q) = %q, %v; want %v", tt.model, tt.name, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Resolve(%q, %q) = %q, %v; want %q", tt.model, tt.name, got, err, tt.want)
		}
	}

	// Without model directories, no file is allowed, and the error says how to allow one.
	none, _ := NewRegistry()
	if _, err := none.Resolve(outside, ""); !errors.Is(err, ErrForbidden) || !strings.Contains(err.Error(), "model-dirs") {
		t.Errorf("no dirs: %v", err)
	}
	if _, err := NewRegistry(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing model directory was accepted")
	}
}

func TestLoad(t *testing.T) {
	dir, _ := modelDir(t)
	reg, _ := NewRegistry(dir)
	tests := []struct {
		model string
		err   error
		name  string
	}{
		{"house", nil, "vmaf"},
		{"version=vmaf_v0.6.1neg:name=neg", nil, "neg"},
		{"broken", ErrInvalidModel, ""},
		{"version=vmaf_v0.6.1:bogus=1", ErrBadSpec, ""},
	}
	for _, tt := range tests {
		spec, err := reg.Resolve(tt.model, "")
		if err != nil {
			t.Fatalf("Resolve(%q): %v", tt.model, err)
		}
		m, err := Load(spec)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("Load(%q) err = %v, want %v", spec, err, tt.err)
			}
			continue
		}
		if err != nil || m.Name != tt.name {
			t.Errorf("Load(%q) = %v, %v; want name %s", spec, m, err, tt.name)
		}
	}
	// The parser's reason reaches the caller.
	spec, _ := reg.Resolve("broken", "")
	if _, err := Load(spec); err == nil || !strings.Contains(err.Error(), "JSON") {
		t.Errorf("broken model error lacks the parser's reason: %v", err)
	}
}

func TestList(t *testing.T) {
	dir, _ := modelDir(t)
	reg, _ := NewRegistry(dir, dir) // a repeated directory counts once
	got := map[string]Entry{}
	var order []string
	list, err := reg.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range list {
		got[e.Name] = e
		order = append(order, e.Name)
	}
	builtins := vmaf.BuiltinModelVersions()
	if strings.Join(order[:len(builtins)], ",") != strings.Join(builtins, ",") {
		t.Errorf("list starts %v, want the built-ins %v", order, builtins)
	}
	if e := got["vmaf_v0.6.1"]; !e.Builtin || len(e.Features) != 6 {
		t.Errorf("vmaf_v0.6.1 entry %+v", e)
	}
	if e := got["house"]; e.Builtin || e.Err != nil || strings.Join(e.Features, ",") != "integer_adm2,integer_motion2" {
		t.Errorf("house entry %+v", e)
	}
	if e := got["broken"]; e.Err == nil {
		t.Error("broken model listed without its error")
	}
	if _, ok := got["notes"]; ok {
		t.Error("a .txt file was listed")
	}
	if _, ok := got["sneaky"]; ok {
		t.Error("a link leading out of the directory was listed")
	}
	if len(order) != len(builtins)+3 { // house, floaty, broken
		t.Errorf("%d entries: %v", len(order), order)
	}
}

// fakeTicket completes when the test says so.
type fakeTicket struct {
	done  chan struct{}
	first int
	err   error
}

func (f *fakeTicket) Done() <-chan struct{} { return f.done }
func (f *fakeTicket) FirstIndex() int       { return f.first }
func (f *fakeTicket) Err() error            { return f.err }

type fakeQueue struct {
	mu      sync.Mutex
	tickets []*fakeTicket
	models  []*vmaf.Model
	full    bool
}

func (q *fakeQueue) queue(m *vmaf.Model) (uint64, Ticket, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.full {
		return 0, nil, errors.New("command queue full")
	}
	t := &fakeTicket{done: make(chan struct{}), first: -1}
	q.tickets = append(q.tickets, t)
	q.models = append(q.models, m)
	return uint64(100 + len(q.tickets)), t, nil
}

func (q *fakeQueue) apply(i, first int, err error) {
	q.mu.Lock()
	t := q.tickets[i]
	q.mu.Unlock()
	t.first, t.err = first, err
	close(t.done)
}

// integerOnly stands in for the engine's check: it refuses float features.
func integerOnly(m *vmaf.Model) error {
	for _, f := range m.FeatureNames() {
		if !strings.HasPrefix(f, "integer_") {
			return fmt.Errorf("input %s needs an extractor the native engine lacks", f)
		}
	}
	return nil
}

func TestManagerStates(t *testing.T) {
	dir, _ := modelDir(t)
	reg, _ := NewRegistry(dir)
	m := NewManager(reg, Options{Check: integerOnly})
	q := &fakeQueue{}

	s, err := m.Request("vmaf_v0.6.1neg", "vmaf_neg", q.queue)
	if err != nil || s.State != Ready || s.ID != 101 || s.Name != "vmaf_neg" || s.Version != "vmaf_v0.6.1neg" || s.FirstFrame != -1 {
		t.Fatalf("request = %+v, %v", s, err)
	}
	if q.models[0].Name != "vmaf_neg" {
		t.Errorf("queued model named %q", q.models[0].Name)
	}

	// Wait returns when the ticket completes, with the first frame.
	got := make(chan Swap)
	go func() {
		s, _ := m.Wait(context.Background(), 101)
		got <- s
	}()
	select {
	case s := <-got:
		t.Fatalf("Wait returned before the boundary: %+v", s)
	case <-time.After(20 * time.Millisecond):
	}
	q.apply(0, 17, nil)
	if s := <-got; s.State != Applied || s.FirstFrame != 17 || s.AppliedAt.IsZero() {
		t.Errorf("after apply: %+v", s)
	}

	// Refusals before the queue, each with its error and a Failed entry.
	for _, tt := range []struct {
		model string
		err   error
	}{
		{"floaty", ErrUnsupported},
		{"broken", ErrInvalidModel},
		{"nope", ErrUnknownModel},
		{"/etc/passwd", ErrForbidden},
	} {
		s, err := m.Request(tt.model, "", q.queue)
		if !errors.Is(err, tt.err) || s.State != Failed {
			t.Errorf("Request(%s) = %+v, %v; want %v", tt.model, s, err, tt.err)
		}
	}
	if len(q.tickets) != 1 {
		t.Errorf("%d swaps reached the queue, want 1", len(q.tickets))
	}

	// A full queue fails the swap; so does a boundary that rejects it.
	q.full = true
	if _, err := m.Request("house", "", q.queue); err == nil || !strings.Contains(err.Error(), "queue full") {
		t.Errorf("full queue: %v", err)
	}
	q.full = false
	s, _ = m.Request("house", "", q.queue)
	q.apply(1, -1, errors.New("engine said no"))
	if s, _ := m.Wait(context.Background(), s.ID); s.State != Failed || !strings.Contains(s.Err.Error(), "engine said no") {
		t.Errorf("rejected at the boundary: %+v", s)
	}

	// The swaps that reached the queue are still found by id once
	// finished; a refusal before it has no id. The history of the swaps
	// that took effect is the scorer's (pipeline's TestStatusSwapHistory).
	if s, ok := m.Get(101); !ok || s.State != Applied || s.FirstFrame != 17 {
		t.Errorf("Get(101) after it applied = %+v, %v", s, ok)
	}
	if s, ok := m.Get(0); ok {
		t.Errorf("Get(0) found %+v", s)
	}

	// Wait gives up with ctx.
	s, _ = m.Request("house", "", q.queue)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if s, err := m.Wait(ctx, s.ID); !errors.Is(err, context.DeadlineExceeded) || s.State != Ready {
		t.Errorf("Wait with a deadline: %+v, %v", s, err)
	}
	if _, err := m.Wait(context.Background(), 999); err == nil {
		t.Error("Wait on an unknown id succeeded")
	}
}

func TestManagerBounds(t *testing.T) {
	reg, _ := NewRegistry()
	block := make(chan struct{})
	entered := make(chan struct{}, 4)
	slow := func(*vmaf.Model) error {
		select {
		case entered <- struct{}{}:
		default: // past the first two: block is closed
		}
		<-block
		return nil
	}
	m := NewManager(reg, Options{Check: slow, MaxPreparing: 2, Keep: 3})
	q := &fakeQueue{}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m.Request("vmaf_v0.6.1", "", q.queue)
		}()
	}
	<-entered
	<-entered
	if _, err := m.Request("vmaf_v0.6.1", "", q.queue); !errors.Is(err, ErrBusy) {
		t.Errorf("third concurrent preparation: %v, want ErrBusy", err)
	}
	close(block)
	wg.Wait()
	// Swaps 101 and 102 stay queued; 103 to 107 each apply before the next
	// is queued.
	for i := 2; i < 7; i++ {
		if _, err := m.Request("vmaf_v0.6.1", "", q.queue); err != nil {
			t.Fatal(err)
		}
		q.apply(i, i, nil)
	}
	// Unfinished swaps are never forgotten; the oldest finished ones
	// beyond the bound are.
	for _, tc := range []struct {
		id    uint64
		found bool
		state State
	}{
		{101, true, Ready}, {102, true, Ready},
		{103, false, 0}, {104, false, 0}, {105, false, 0}, {106, false, 0},
		{107, true, Applied},
	} {
		s, ok := m.Get(tc.id)
		if ok != tc.found || (ok && s.State != tc.state) {
			t.Errorf("Get(%d) = %v, %v; want %v, %v", tc.id, s.State, ok, tc.state, tc.found)
		}
	}
	if _, err := m.Request("nope", "", q.queue); !errors.Is(err, ErrUnknownModel) {
		t.Errorf("unknown model: %v", err)
	}
	if len(m.swaps) != 3 {
		t.Errorf("%d swaps followed after a refusal, want 3", len(m.swaps))
	}
}

func TestEngineCheck(t *testing.T) {
	dir, _ := modelDir(t)
	reg, _ := NewRegistry(dir)
	m := NewManager(reg, Options{Check: EngineCheck(vmaf.Config{Engine: "native"})})
	q := &fakeQueue{}
	if _, err := m.Request("house", "", q.queue); err != nil {
		t.Errorf("integer model: %v", err)
	}
	if _, err := m.Request("vmaf_v0.6.1neg", "", q.queue); err != nil {
		t.Errorf("built-in NEG model: %v", err)
	}
	if _, err := m.Request("floaty", "", q.queue); err != nil {
		t.Errorf("float model: %v", err)
	}
	// A model input no extractor reports.
	body := strings.Replace(fmt.Sprintf(smallModel, "feature"), "VMAF_feature_adm2_score", "Banding_feature_bands_score", 1)
	if err := os.WriteFile(filepath.Join(dir, "banding.json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := m.Request("banding", "", q.queue)
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "lacks") {
		t.Errorf("model with an unknown input: %v, want ErrUnsupported naming what the engine lacks", err)
	}
}
