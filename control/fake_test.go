package control

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/vmaf"
)

// fakeTarget is a scripted measurement: tests push frames with frame()
// and commands apply at the next frame boundary, as in the pipeline.
type fakeTarget struct {
	mu       sync.Mutex
	state    string
	mode     string
	model    string
	frames   int64
	records  []Record
	queue    []*Command
	cmds     map[uint64]*Command
	nextID   uint64
	capacity int
	swaps    []SwapEvent
	applied  chan struct{}      // closed and replaced whenever commands apply
	feat     map[string]float64 // extra features for every record
	chanSize int                // Records channel capacity
	keep     int                // records Scores can return (0: all)
	models   func(context.Context) (ModelList, error)
	mon      *analytics.Monitor // set before Start to configure analytics

	subMu sync.Mutex
	subs  []chan Record
	lost  uint64 // records a subscriber channel had no room for
}

func newFake() *fakeTarget {
	mon, _ := analytics.New(analytics.Config{})
	return &fakeTarget{state: StateRunning, mode: PauseSkip, model: "vmaf", cmds: map[uint64]*Command{}, capacity: 4, applied: make(chan struct{}), mon: mon}
}

func (f *fakeTarget) Analytics() *analytics.Monitor { return f.mon }

func (f *fakeTarget) Range(from, to int64, limit int) []Record {
	f.mu.Lock()
	defer f.mu.Unlock()
	kept := f.records
	if f.keep > 0 && len(kept) > f.keep {
		kept = kept[len(kept)-f.keep:]
	}
	var out []Record
	for _, r := range kept {
		if r.Frame >= from && r.Frame <= to && len(out) < limit {
			out = append(out, r)
		}
	}
	return out
}

func (f *fakeTarget) Status() Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := Status{State: f.state, PauseMode: f.mode, Model: f.model, Engine: "native", Width: 576, Height: 324, Format: "I420",
		FramesReceived: uint64(f.frames), FramesScored: uint64(len(f.records)), LastFrame: f.frames - 1,
		CommandsPending: len(f.queue), Swaps: append([]SwapEvent(nil), f.swaps...)}
	if n := len(f.records); n > 0 {
		v := f.records[n-1].Score
		st.LastScore = &v
	}
	return st
}

func (f *fakeTarget) Features() Features {
	return Features{
		Extractors: []Extractor{{Name: "integer_adm", Outputs: []string{"integer_adm2"}},
			{Name: "cambi", Outputs: []string{"cambi", "cambi_full_reference"}, Options: map[string]float64{"full_ref": 1}, Request: "cambi=full_ref=true"}},
		Extra: []string{"psnr", "cambi=full_ref=true"},
		Requests: []FeatureRequest{{Request: "psnr", Extractor: "psnr"},
			{Request: "cambi=full_ref=true", Extractor: "cambi", Options: map[string]string{"full_ref": "true"}}},
	}
}

func (f *fakeTarget) Scores(last, worst int) Scores {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := min(last, len(f.records))
	if f.keep > 0 {
		n = min(n, f.keep)
	}
	sc := Scores{Records: append([]Record(nil), f.records[len(f.records)-n:]...)}
	sc.Pooled = []Pooled{{Name: "vmaf", Count: len(f.records)}}
	return sc
}

func (f *fakeTarget) Models(ctx context.Context) (ModelList, error) {
	if f.models != nil {
		return f.models(ctx)
	}
	return ModelList{Models: []ModelInfo{{Name: "vmaf_v0.6.1", Source: "builtin"}, {Name: "vmaf_v0.6.1neg", Source: "builtin"}}}, nil
}

func (f *fakeTarget) enqueue(kind, model string) (Command, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.state == StateFinished {
		return Command{}, Errorf(CodeFinished, "the stream has ended")
	}
	if len(f.queue) >= f.capacity {
		return Command{}, Errorf(CodeQueueFull, "%d commands pending", len(f.queue))
	}
	f.nextID++
	c := &Command{ID: f.nextID, Kind: kind, Status: CommandEnqueued, Frame: -1, Model: model}
	f.queue = append(f.queue, c)
	f.cmds[c.ID] = c
	return *c, nil
}

func (f *fakeTarget) RequestSwap(_ context.Context, model, name string) (Command, error) {
	switch model {
	case "vmaf_v0.6.1", "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1":
	case "/etc/passwd":
		return Command{}, Errorf(CodeForbiddenPath, "%s is outside the allowed model directories", model)
	default:
		return Command{}, Errorf(CodeUnknownModel, "no built-in model or file named %q", model)
	}
	if name == "" {
		name = model
	}
	c, err := f.enqueue("swap", name)
	if err == nil && model == "vmaf_4k_v0.6.1" {
		c.MismatchedModelWarning = "a 4K model on 576x324 frames"
	}
	return c, err
}

// DescribeModel describes the built-in models RequestSwap takes, with
// its refusals.
func (f *fakeTarget) DescribeModel(_ context.Context, model string) (ModelDescription, error) {
	switch model {
	case "vmaf_v0.6.1", "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1":
		m, err := vmaf.BuiltinModel(model)
		if err != nil {
			return ModelDescription{}, err
		}
		return DescribeModel(m), nil
	case "/etc/passwd":
		return ModelDescription{}, Errorf(CodeForbiddenPath, "%s is outside the allowed model directories", model)
	}
	return ModelDescription{}, Errorf(CodeUnknownModel, "no built-in model or file named %q", model)
}

func (f *fakeTarget) Pause(context.Context) (Command, error)  { return f.enqueue("pause", "") }
func (f *fakeTarget) Resume(context.Context) (Command, error) { return f.enqueue("resume", "") }

func (f *fakeTarget) Wait(ctx context.Context, id uint64) (Command, error) {
	for {
		f.mu.Lock()
		c, ok := f.cmds[id]
		if !ok {
			f.mu.Unlock()
			return Command{}, fmt.Errorf("no command %d", id)
		}
		cur, ch := *c, f.applied
		f.mu.Unlock()
		if cur.Status != CommandEnqueued {
			return cur, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return cur, ctx.Err()
		}
	}
}

func (f *fakeTarget) Records(ctx context.Context) <-chan Record {
	ch := make(chan Record, max(f.chanSize, 64))
	f.subMu.Lock()
	f.subs = append(f.subs, ch)
	f.subMu.Unlock()
	return ch
}

// frame applies pending commands at the boundary, then scores one frame
// (unless paused) and publishes it without blocking.
func (f *fakeTarget) frame(score float64) Record {
	f.mu.Lock()
	idx := f.frames
	f.frames++
	for _, c := range f.queue {
		c.Status, c.Frame = CommandApplied, idx
		switch c.Kind {
		case "swap":
			f.swaps = append(f.swaps, SwapEvent{Command: c.ID, FirstFrame: idx, Time: time.Now(), From: f.model, To: c.Model})
			f.model = c.Model
		case "pause":
			f.state = StatePaused
		case "resume":
			f.state = StateRunning
		}
	}
	if len(f.queue) > 0 {
		f.queue = f.queue[:0]
		close(f.applied)
		f.applied = make(chan struct{})
	}
	if f.state == StatePaused {
		f.mu.Unlock()
		return Record{Frame: -1}
	}
	r := Record{Frame: idx, PTS: idx * 40e6, Model: f.model, Score: score, Features: map[string]float64{"integer_adm2": score / 100}}
	for k, v := range f.feat {
		r.Features[k] = v
	}
	f.records = append(f.records, r)
	f.mu.Unlock()
	f.mon.Add(analytics.Sample{Index: int(idx), RunningTime: time.Duration(idx) * 40 * time.Millisecond, Model: r.Model, Score: score})

	f.subMu.Lock()
	for _, ch := range f.subs {
		select {
		case ch <- r:
		default:
			f.lost++
		}
	}
	f.subMu.Unlock()
	return r
}
