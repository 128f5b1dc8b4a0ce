package pipeline

import (
	"errors"
	"slices"
	"sync"

	"github.com/vmafsink/vmafsink/vmaf"
)

// fakeScorer stands in for vmaf.Context: it scores a pair as the
// difference of the two pictures' first luma samples, in order, on its own
// goroutine, with at most depth pairs in flight like the real engine.
// Closing hold stalls it, to simulate a scorer slower than real time.
type fakeScorer struct {
	cfg    vmaf.Config
	models []*vmaf.Model
	jobs   chan fakeJob
	done   chan struct{}
	hold   chan struct{} // receive one token per pair when non-nil
	// atEnd makes it report every result at Flush, as libvmaf does.
	atEnd   bool
	pending []vmaf.Result
	mu      sync.Mutex
	closed  bool
	ended   bool
	format  *vmaf.Picture
	next    int
	result  vmaf.Result
	metrics []vmaf.Metric
}

type fakeJob struct {
	index     int
	models    []*vmaf.Model
	ref, dist byte
	release   func()
	skip      bool
}

// fakeEngine makes fake scorers and remembers them.
type fakeEngine struct {
	mu      sync.Mutex
	scorers []*fakeScorer
	hold    chan struct{}
	atEnd   bool
}

func (e *fakeEngine) newScorer(cfg vmaf.Config) (scorer, error) {
	s := &fakeScorer{
		cfg:    cfg,
		models: cfg.Models,
		jobs:   make(chan fakeJob, cfg.Threads+2),
		done:   make(chan struct{}),
		hold:   e.hold,
		atEnd:  e.atEnd,
	}
	go s.run()
	e.mu.Lock()
	e.scorers = append(e.scorers, s)
	e.mu.Unlock()
	return s, nil
}

func (e *fakeEngine) count() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.scorers)
}

func (s *fakeScorer) Submit(ref, dist *vmaf.Picture, release func()) error {
	return s.submit(ref, dist, release, false)
}

func (s *fakeScorer) Skip(ref, dist *vmaf.Picture, release func()) error {
	return s.submit(ref, dist, release, true)
}

func (s *fakeScorer) submit(ref, dist *vmaf.Picture, release func(), skip bool) error {
	if s.ended {
		return errors.New("fake: submit after end")
	}
	if s.format == nil {
		f := *ref
		s.format = &f
	} else if !sameFormat(s.format, ref) {
		return errors.New("fake: format changed")
	}
	s.jobs <- fakeJob{index: s.next, models: s.models, ref: ref.Planes[0][0], dist: dist.Planes[0][0], release: release, skip: skip}
	s.next++
	return nil
}

func (s *fakeScorer) run() {
	defer close(s.done)
	for j := range s.jobs {
		if s.hold != nil {
			<-s.hold
		}
		j.release()
		s.mu.Lock()
		closed := s.closed
		s.mu.Unlock()
		if closed || j.skip {
			continue
		}
		if s.cfg.Subsample > 1 && j.index%s.cfg.Subsample != 0 {
			continue
		}
		v := float64(int(j.ref) - int(j.dist))
		s.metrics = append(s.metrics[:0], vmaf.Metric{Name: "feature", Value: v})
		for _, m := range j.models {
			s.metrics = append(s.metrics, vmaf.Metric{Name: m.Name, Value: 100 - v})
		}
		s.result = vmaf.Result{Index: j.index, Models: j.models, Metrics: s.metrics}
		if s.atEnd {
			s.pending = append(s.pending, vmaf.Result{Index: j.index, Models: j.models, Metrics: slices.Clone(s.metrics)})
			continue
		}
		s.cfg.OnResult(&s.result)
	}
}

func (s *fakeScorer) SetModels(m []*vmaf.Model) error {
	if len(m) == 0 {
		return errors.New("fake: no model")
	}
	s.models = m
	return nil
}

func (s *fakeScorer) Flush() error {
	if s.ended {
		return nil
	}
	s.ended = true
	close(s.jobs)
	<-s.done
	for i := range s.pending {
		s.cfg.OnResult(&s.pending[i])
	}
	s.pending = nil
	return nil
}

func (s *fakeScorer) ResultsAsScored() bool { return !s.atEnd }

func (s *fakeScorer) Close() {
	if s.ended {
		return
	}
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.Flush()
}

func (s *fakeScorer) Aggregates() []vmaf.Metric { return nil }

func (s *fakeScorer) MetricNames() []string {
	names := []string{"feature"}
	for _, m := range s.models {
		names = append(names, m.Name)
	}
	return names
}
