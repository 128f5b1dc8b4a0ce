package vmaf

import (
	"fmt"
	"runtime"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/motion"
)

// The workers' side of the native engine: each worker takes tasks (one
// extractor or the motion blur of one frame) and runs them with its own
// extractor instances.

// work1 is one worker's loop.
func (s *nativeScorer) work1(set *unitSet) {
	defer s.workers.Done()
	defer set.close()
	defer s.keepAggregators(set)
	setupWorker(s.cfg.WorkerSetup)
	for t := range s.work {
		j := t.j
		if !s.closed.Load() {
			if err := guard(func() error { return set.run(j, t.part) }); err != nil {
				s.fail(err)
			}
		}
		if j.remaining.Add(-1) > 0 {
			continue
		}
		if len(j.seqs) == 0 {
			j.releasePictures()
		}
		s.done <- j
	}
}

// unitSet is one worker's extractors, built on first use for each key.
type unitSet struct {
	format *Picture
	units  map[unitKey]feature.Extractor
	blur   *motion.Blur
}

func newUnitSet(format *Picture, p *plan) (*unitSet, error) {
	set := &unitSet{format: format, units: map[unitKey]feature.Extractor{},
		blur: motion.NewBlur(format.Width, format.Height, format.BitDepth)}
	for _, u := range p.units {
		if _, err := set.get(u); err != nil {
			set.close()
			return nil, err
		}
	}
	return set, nil
}

func (set *unitSet) get(u unitSpec) (feature.Extractor, error) {
	if x, ok := set.units[u.key]; ok {
		return x, nil
	}
	x, err := u.settings.Kind().New(formatOf(set.format), u.settings)
	if err != nil {
		return nil, fmt.Errorf("vmaf: %w", err)
	}
	set.units[u.key] = x
	return x, nil
}

func (set *unitSet) close() {
	for _, x := range set.units {
		x.Close()
	}
	clear(set.units)
}

// run does one task of job j with this worker's extractors.
func (set *unitSet) run(j *job, part int) error {
	switch part {
	case partBlur:
		if j.blur != nil {
			set.blur.Blur(j.ref.Planes[0], j.blur)
		}
		return nil
	case partAll:
		if j.scored {
			for i := range j.plan.units {
				if err := set.computeUnit(j, i); err != nil {
					return err
				}
			}
		}
		if j.blur != nil {
			set.blur.Blur(j.ref.Planes[0], j.blur)
		}
		return nil
	}
	return set.computeTask(j, j.plan.tasks[part])
}

// computeTask runs one unit of job j, or one part of it.
func (set *unitSet) computeTask(j *job, t unitTask) error {
	if t.part < 0 {
		return set.computeUnit(j, t.unit)
	}
	spec := j.plan.units[t.unit]
	x, err := set.get(spec)
	if err != nil {
		return err
	}
	px, ok := x.(feature.Parted)
	if !ok {
		return fmt.Errorf("vmaf: feature %s declares parts but cannot extract them", spec.key.name)
	}
	if err := px.ExtractPart(t.part, j.index, &j.ref, &j.dist, j.values[spec.offset:]); err != nil {
		return fmt.Errorf("vmaf: feature %s: frame %d: %w", spec.key.name, j.index, err)
	}
	return nil
}

func (set *unitSet) computeUnit(j *job, i int) error {
	spec := j.plan.units[i]
	x, err := set.get(spec)
	if err != nil {
		return err
	}
	if err := x.Extract(j.index, &j.ref, &j.dist, j.values[spec.offset:]); err != nil {
		return fmt.Errorf("vmaf: feature %s: frame %d: %w", spec.key.name, j.index, err)
	}
	return nil
}

// setupWorker runs Config.WorkerSetup on the worker's thread.
func setupWorker(f func() bool) {
	if f == nil {
		return
	}
	runtime.LockOSThread()
	if !f() {
		runtime.UnlockOSThread()
	}
	// Otherwise never unlocked: Go ends a locked thread when its goroutine
	// exits, so what f set dies with this worker.
}

// guard runs f, turning a panic into an error: an extractor's bug ends
// the run with a message instead of taking down the process the engine
// lives in (a GStreamer host, a server).
func guard(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("vmaf: internal error in an extractor: %v", r)
		}
	}()
	return f()
}
