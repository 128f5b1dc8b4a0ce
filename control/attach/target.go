package attach

import (
	"context"
	"errors"
	"sync"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/swap"
	"github.com/vmafsink/vmafsink/vmaf"
)

const (
	maxWorst   = 100 // worst frames kept, the most vmaf_score returns
	maxTickets = 256 // pause/resume tickets kept for Wait
	feedBuffer = 1024
)

// Target is a pipeline.Runner seen through control.Target.
type Target struct {
	r        *pipeline.Runner
	swaps    *swap.Manager
	engine   string
	features []string
	model    modelParts // describe, engine_used, version

	mu      sync.Mutex
	tickets map[uint64]*pipeline.Ticket // pause and resume, by id
	order   []uint64                    // tickets' ids, oldest first
}

// Close stops following the Runner.
// The Target follows nothing of its own (the worst frames are the
// Runner's), so there is nothing to stop.
func (t *Target) Close() {}

// Status implements control.Target.
func (t *Target) Status() control.Status {
	st := t.r.Status()
	out := convertStatus(st, t.engine)
	out.EngineUsed = t.model.engines.get(t.engine, t.features, st.Models)
	out.Version = t.model.version
	return out
}

// Features implements control.Target.
func (t *Target) Features() control.Features {
	st := t.r.Status()
	names := st.Metrics
	// The latest record has what the current models compute, after a swap too.
	if recent := t.r.Recent(1); len(recent) > 0 {
		names = names[:0:0]
		for _, m := range recent[0].Metrics {
			names = append(names, m.Name)
		}
	}
	if len(names) == 0 { // before the first frame: what the models will need
		for _, m := range st.Models {
			names = append(names, m.FeatureNames()...)
		}
	}
	reqs := requests(t.features)
	return control.Features{Extractors: withRequests(extractors(names), reqs), Extra: append([]string{}, t.features...), Requests: reqs}
}

// Scores implements control.Target.
func (t *Target) Scores(last, worst int) control.Scores {
	sc := control.Scores{Records: []control.Record{}}
	for _, r := range t.r.Recent(last) {
		sc.Records = append(sc.Records, convertRecord(r))
	}
	if worst > 0 {
		sc.Worst = t.worstRecords(worst)
	}
	for _, p := range t.r.Pooled() {
		sc.Pooled = append(sc.Pooled, control.Pooled{Name: p.Name, Count: p.Count, Min: p.Min, Max: p.Max, Mean: p.Mean, HarmonicMean: p.HarmonicMean})
	}
	return sc
}

// Models implements control.Target.
func (t *Target) Models(ctx context.Context) (control.ModelList, error) {
	reg := t.swaps.Registry()
	l := control.ModelList{Models: []control.ModelInfo{}, Dirs: reg.Dirs()}
	entries, err := reg.List(ctx)
	if err != nil {
		return control.ModelList{}, control.Errorf(control.CodeTimeout, "listing the model directories: %v", err)
	}
	for _, e := range entries {
		mi := control.ModelInfo{Name: e.Name, Source: "file", Path: e.Path, Features: e.Features}
		if e.Builtin {
			mi.Source = "builtin"
		}
		if e.Err != nil {
			mi.Error = e.Err.Error()
		}
		l.Models = append(l.Models, mi)
	}
	return l, nil
}

// RequestSwap implements control.Target: prepare (resolve, load, engine
// check) here, on the caller's goroutine, then queue the ready model.
func (t *Target) RequestSwap(_ context.Context, model, name string) (control.Command, error) {
	var warning string
	s, err := t.swaps.Request(model, name, func(m *vmaf.Model) (uint64, swap.Ticket, error) {
		if f := t.r.Status().Format; f != nil {
			warning = mismatch(m, f.Width, f.Height)
		}
		tk, err := t.r.RequestSwap(m)
		if err != nil {
			return 0, nil, err
		}
		return tk.ID, tk, nil
	})
	if err != nil {
		return control.Command{}, commandError(err)
	}
	c := swapCommand(s)
	c.MismatchedModelWarning = warning
	return c, nil
}

// Pause implements control.Target.
func (t *Target) Pause(context.Context) (control.Command, error) { return t.enqueue(t.r.Pause) }

// Resume implements control.Target.
func (t *Target) Resume(context.Context) (control.Command, error) { return t.enqueue(t.r.Resume) }

func (t *Target) enqueue(do func() (*pipeline.Ticket, error)) (control.Command, error) {
	tk, err := do()
	if err != nil {
		return control.Command{}, commandError(err)
	}
	t.mu.Lock()
	t.tickets[tk.ID] = tk
	t.order = append(t.order, tk.ID)
	if len(t.order) > maxTickets {
		delete(t.tickets, t.order[0])
		t.order = t.order[1:]
	}
	t.mu.Unlock()
	return ticketCommand(tk), nil
}

// Wait implements control.Target.
func (t *Target) Wait(ctx context.Context, id uint64) (control.Command, error) {
	if _, ok := t.swaps.Get(id); ok {
		s, err := t.swaps.Wait(ctx, id)
		return swapCommand(s), err
	}
	t.mu.Lock()
	tk, ok := t.tickets[id]
	t.mu.Unlock()
	if !ok {
		return control.Command{}, control.Errorf(control.CodeBadRequest, "no command %d", id)
	}
	select {
	case <-tk.Done():
	case <-ctx.Done():
		return ticketCommand(tk), ctx.Err()
	}
	return ticketCommand(tk), nil
}

// Records implements control.Target. The Runner calls the subscriber on
// its publishing goroutine; converting and handing over without blocking
// keeps that goroutine (and so scoring) free of slow readers, which lose
// the oldest records beyond feedBuffer.
func (t *Target) Records(ctx context.Context) <-chan control.Record {
	ch := make(chan control.Record)
	f := newFeed(feedBuffer)
	cancel := t.r.Subscribe(func(r *pipeline.Record) { f.push(convertRecord(r)) })
	context.AfterFunc(ctx, cancel)
	go f.run(ctx, ch)
	return ch
}

// commandError gives the Runner's and the swap manager's errors the codes
// clients branch on.
func commandError(err error) error {
	code := ""
	switch {
	case errors.Is(err, pipeline.ErrQueueFull):
		code = control.CodeQueueFull
	case errors.Is(err, pipeline.ErrFinished):
		code = control.CodeFinished
	case errors.Is(err, swap.ErrUnknownModel):
		code = control.CodeUnknownModel
	case errors.Is(err, swap.ErrInvalidModel):
		code = control.CodeInvalidModel
	case errors.Is(err, swap.ErrUnsupported):
		code = control.CodeUnsupportedModel
	case errors.Is(err, swap.ErrForbidden):
		code = control.CodeForbiddenPath
	case errors.Is(err, swap.ErrBadSpec):
		code = control.CodeBadRequest
	case errors.Is(err, swap.ErrBusy):
		code = control.CodeBusy
	default:
		return err
	}
	return &control.Error{Code: code, Msg: err.Error()}
}

func swapCommand(s swap.Swap) control.Command {
	c := control.Command{ID: s.ID, Kind: "swap", Frame: int64(s.FirstFrame), Model: vmaf.ModelLabel(s.Name, s.Version)}
	switch s.State {
	case swap.Applied:
		c.Status = control.CommandApplied
	case swap.Failed:
		c.Status = control.CommandFailed
		if s.Err != nil {
			c.Error = s.Err.Error()
		}
	default:
		c.Status = control.CommandEnqueued
	}
	return c
}

func ticketCommand(tk *pipeline.Ticket) control.Command {
	c := control.Command{ID: tk.ID, Kind: tk.Kind.String(), Status: control.CommandEnqueued, Frame: -1}
	select {
	case <-tk.Done():
		if err := tk.Err(); err != nil {
			c.Status, c.Error = control.CommandFailed, err.Error()
		} else {
			c.Status, c.Frame = control.CommandApplied, int64(tk.FirstIndex())
		}
	default:
	}
	return c
}

var _ control.Target = (*Target)(nil)
