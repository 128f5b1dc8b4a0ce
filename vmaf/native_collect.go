package vmaf

import (
	"fmt"
	"slices"

	"github.com/vmafsink/vmafsink/internal/ring"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/motion"
)

// The collector's side of the native engine: one goroutine takes
// finished frames back in order, runs what needs frames in order (motion,
// the sequential extractors), predicts and reports; at the end it merges
// the aggregating extractors.

// collect is the collector's loop; n is the number of jobs.
func (s *nativeScorer) collect(n int) {
	var (
		arrived  = make([]*job, n)   // finished jobs waiting for their turn
		next     int                 // index of the next job to take in order
		pending  = ring.New[*job](n) // in order, waiting for temporal values
		prevBlur *motion.Frame       // the previous frame's, once there is one
		seq      motion.Seq
		em       emitter
		flushReq *flushRequest
	)
	// at finds a pending job by frame index.
	at := func(index int) *job {
		if pending.Len() > 0 {
			if i := index - (*pending.Front()).index; i >= 0 && i < pending.Len() {
				return *pending.At(i)
			}
		}
		return nil
	}
	emits := map[unitKey]feature.Emit{}
	emitFor := func(k unitKey) feature.Emit {
		if e, ok := emits[k]; ok {
			return e
		}
		e := func(index int, out []float64) {
			j := at(index)
			if j == nil || j.seqLeft == 0 {
				s.fail(fmt.Errorf("vmaf: internal error: extractor %s gave values for frame %d out of step", k.name, index))
				return
			}
			if off, ok := j.plan.seqOffset(k); ok {
				copy(j.values[off:], out)
			}
			j.seqLeft--
		}
		emits[k] = e
		return e
	}
	drain := func() {
		for {
			m, ok := seq.Next()
			if !ok {
				break
			}
			j := at(m.Index)
			if j == nil || j.motionDone {
				s.fail(fmt.Errorf("vmaf: internal error: motion values for frame %d out of step", m.Index))
				return
			}
			if mo := j.plan.motion; mo >= 0 {
				j.values[mo], j.values[mo+1], j.values[mo+2] = m.SAD, m.Motion2, m.Motion3
			}
			j.motionDone = true
		}
		for pending.Len() > 0 {
			j := *pending.Front()
			if !j.motionDone || j.seqLeft > 0 {
				break
			}
			pending.Pop()
			if j.scored && !s.closed.Load() && s.cfg.OnResult != nil && !em.failed {
				if r, err := em.result(j); err != nil {
					// A model that cannot score a frame ends the run there:
					// no later frame is reported as if the stream were whole.
					em.failed = true
					s.fail(fmt.Errorf("%w (frame %d)", err, j.index))
				} else {
					s.cfg.OnResult(r)
				}
			}
			s.free <- j
		}
	}
	for {
		if flushReq != nil && next == flushReq.count {
			seq.Flush()
			for _, x := range flushReq.seqs {
				if !s.closed.Load() {
					if err := x.x.Flush(emitFor(x.key)); err != nil {
						s.fail(fmt.Errorf("vmaf: feature %s: %w", x.key.name, err))
					}
				}
			}
			if !s.closed.Load() && s.err() == nil {
				drain()
			}
			flushReq.reply <- s.err()
			return
		}
		select {
		case j := <-s.done:
			arrived[j.index%n] = j
			for arrived[next%n] != nil && arrived[next%n].index == next {
				j := arrived[next%n]
				arrived[next%n] = nil
				sad := 0.0
				if prevBlur != nil {
					if j.blur != nil && !s.closed.Load() {
						sad = motion.SAD(j.blur, prevBlur)
					}
					s.blurs <- prevBlur
				}
				prevBlur, j.blur = j.blur, nil
				pending.Push(j)
				s.pushSeqs(j, emitFor)
				seq.Push(sad)
				drain()
				// Motion holds back one frame; a sequential extractor may
				// hold back no more, or the job pool would run dry.
				if pending.Len() > 1 && !s.closed.Load() && s.err() == nil {
					s.fail(fmt.Errorf("vmaf: internal error: frame %d still lacks temporal values after frame %d", (*pending.Front()).index, j.index))
				}
				next++
			}
		case r := <-s.flushed:
			flushReq = &r
		}
	}
}

// pushSeqs gives job j's frames to the sequential extractors, in frame
// order on the collector's goroutine, then releases them. Closed or failed,
// it only counts the values off so the job can complete.
func (s *nativeScorer) pushSeqs(j *job, emitFor func(unitKey) feature.Emit) {
	if len(j.seqs) == 0 {
		return
	}
	if s.closed.Load() || s.err() != nil {
		j.seqLeft = 0
		j.releasePictures()
		return
	}
	for _, x := range j.seqs {
		err := guard(func() error { return x.x.Push(j.index, &j.ref, &j.dist, emitFor(x.key)) })
		if err != nil {
			s.fail(fmt.Errorf("vmaf: feature %s: frame %d: %w", x.key.name, j.index, err))
			j.seqLeft = 0
			break
		}
	}
	j.releasePictures()
}

// addSeqs makes, on the caller's goroutine, an instance of each
// sequential extractor of p that this run does not have yet.
func (s *nativeScorer) addSeqs(p *plan) error {
	f := formatOf(s.format)
	var added []seqInstance
	for _, u := range p.seqs {
		if _, ok := s.seqKeys[u.key]; ok {
			continue
		}
		x, err := u.settings.Kind().NewSequential(f, u.settings)
		if err != nil {
			for _, a := range added {
				a.x.Close()
			}
			return fmt.Errorf("vmaf: %w", err)
		}
		added = append(added, seqInstance{u.key, x})
	}
	for _, a := range added {
		s.seqKeys[a.key] = len(s.seqs)
		// A new backing array, so jobs already submitted keep theirs.
		s.seqs = append(s.seqs[:len(s.seqs):len(s.seqs)], a)
	}
	return nil
}

func (s *nativeScorer) closeSeqs() {
	for _, x := range s.seqs {
		x.x.Close()
	}
	s.seqs = nil
}

func (j *job) releasePictures() {
	if j.release != nil {
		j.release()
	}
	j.ref, j.dist, j.release = feature.Frame{}, feature.Frame{}, nil
}

// emitter turns a finished job into the reused Result.
type emitter struct {
	r      Result
	failed bool // a model failed to score a frame
	in     []float64
	out    []float64
}

func (e *emitter) result(j *job) (*Result, error) {
	p := j.plan
	e.r.Index = j.index
	e.r.Models = p.models
	e.r.Metrics = e.r.Metrics[:0]
	for i, name := range p.features {
		if !p.hidden(i) {
			e.r.Metrics = append(e.r.Metrics, Metric{name, j.values[i]})
		}
	}
	for mi, m := range p.models {
		in := grow(&e.in, len(p.inputs[mi]))
		for i, off := range p.inputs[mi] {
			in[i] = j.values[off]
		}
		names := p.outputs[mi]
		out := grow(&e.out, len(names))
		if err := m.score(in, out); err != nil {
			return nil, err
		}
		for i, name := range names {
			e.r.Metrics = append(e.r.Metrics, Metric{name, out[i]})
		}
	}
	return &e.r, nil
}

func grow(buf *[]float64, n int) []float64 {
	if cap(*buf) < n {
		*buf = make([]float64, n)
	}
	return (*buf)[:n]
}

// keepAggregators takes a finishing worker's aggregating instances.
func (s *nativeScorer) keepAggregators(set *unitSet) {
	s.aggMu.Lock()
	defer s.aggMu.Unlock()
	for k, x := range set.units {
		if a, ok := x.(feature.Aggregator); ok {
			if s.aggs == nil {
				s.aggs = map[unitKey][]feature.Aggregator{}
			}
			s.aggs[k] = append(s.aggs[k], a)
			delete(set.units, k) // kept open for mergeAggregates
		}
	}
}

// mergeAggregates merges each extractor's instances and reads the
// stream's aggregate metrics, in the order of the extractor's names.
func (s *nativeScorer) mergeAggregates() {
	s.aggregates, s.aggStates = readAggregates(s.aggs)
	for _, all := range s.aggs {
		for _, a := range all {
			a.Close()
		}
	}
	s.aggs = nil
}

func (s *nativeScorer) aggregateMetrics() []Metric { return slices.Clone(s.aggregates) }
