package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"

	"github.com/vmafsink/vmafsink/report"
	"github.com/vmafsink/vmafsink/vmaf"
)

// errInterrupted ends a run stopped by a signal; the output holds the
// frames scored until then.
var errInterrupted = errors.New("interrupted")

// errNoFrames reports inputs that hold no pair to score, which libvmaf's
// tool fails on too: a run that scored nothing is not a success.
var errNoFrames = errors.New("no frames to score: an input ends before the first frame to score")

// job is one scoring run.
type job struct {
	s      *settings
	models []*vmaf.Model
	stdout io.Writer
	stderr io.Writer

	ref, dist source
	out       *report.Writer // nil without -o
	outFile   *os.File       // the pipe or terminal -o names, if it does
	results   results
	plot      *plotData // nil without --plot
	live      *liveRun  // nil without the analytics options
	shard     *shardRun // a part of the run (--shard, --frames); nil for all of it
	prog      *progress
	// warnings are what the run found wrong with its inputs, printed on
	// stderr when found and written to the results.
	warnings []string
	// conformed are the inputs --fps converts, for their summary.
	conformed []*fpsSource
	// notes say what the run did to its inputs (--sync's offset).
	notes []string
	// sigs record the first frames of each input, for the hint that
	// they look offset; nil when not watched.
	sigs [2]*sigRecorder
}

// loadModels reads the -m specs; without any, libvmaf's default.
func (s *settings) loadModels() ([]*vmaf.Model, error) {
	specs := s.models
	if len(specs) == 0 {
		specs = []string{"version=vmaf_v0.6.1"}
	}
	if err := vmaf.UseONNXRuntime(s.tiny.library); err != nil {
		return nil, err
	}
	var models []*vmaf.Model
	names := map[string]bool{}
	for _, spec := range specs {
		m, err := vmaf.ParseModelSpec(s.learnedSpec(spec))
		if err != nil {
			return nil, err
		}
		if names[m.Name] {
			return nil, usagef("each model needs its own name; %q is used twice (set one with :name=...)", m.Name)
		}
		names[m.Name] = true
		models = append(models, m)
	}
	return models, s.prepareLearned(models)
}

// modelOutputs returns a test for the metric names models report, so
// that --no_prediction can leave them out: each model's score and, for a
// bootstrap collection, its members' scores (name_0001, ...) and
// statistics.
func modelOutputs(models []*vmaf.Model) func(string) bool {
	return func(name string) bool {
		for _, m := range models {
			if name == m.Name {
				return true
			}
			rest, ok := strings.CutPrefix(name, m.Name+"_")
			if !ok || !m.IsCollection() {
				continue
			}
			switch rest {
			case "bagging", "stddev", "ci_p95_lo", "ci_p95_hi":
				return true
			}
			if len(rest) == 4 && strings.Trim(rest, "0123456789") == "" {
				return true
			}
		}
		return false
	}
}

// notExtraFeature returns a test for the metric names that none of the
// --feature extractors reports.
func notExtraFeature(features []string) (func(string) bool, error) {
	if len(features) == 0 {
		return func(string) bool { return true }, nil
	}
	probe, err := vmaf.NewContext(vmaf.Config{Features: features})
	if err != nil {
		return nil, err
	}
	defer probe.Close()
	keep := map[string]bool{}
	for _, n := range probe.MetricNames() {
		keep[n] = true
	}
	return func(name string) bool { return !keep[name] }, nil
}

// results takes the engine's per-frame results, on the engine's goroutine.
type results struct {
	pool vmaf.Pool
	// keys pools each model's outputs apart when an agent swaps models,
	// under the names the output file gives them.
	keys    report.ModelKeys
	pooled  vmaf.Result // a result as pooled, reused
	out     *report.Writer
	hide    func(name string) bool // model outputs left out with --no_prediction
	metrics []vmaf.Metric          // the frame as written, reused for every frame
	scored  atomic.Int64
	err     error     // the first output error
	plot    *plotData // nil without --plot
	live    *liveRun  // fed the first model's score, when the job feeds it
}

func (rs *results) add(r *vmaf.Result) { rs.write(r, "") }

// write records one frame; model, when set, names the model that scored
// it in the output (runs an agent may steer, where models can change).
func (rs *results) write(r *vmaf.Result, model string) {
	rs.metrics = rs.metrics[:0]
	for _, m := range r.Metrics {
		if rs.hide != nil && rs.hide(m.Name) {
			continue
		}
		rs.metrics = append(rs.metrics, m)
	}
	metrics := rs.metrics
	pm, sw, swapped := rs.keys.Rename(r.Index, r.Models, r.Metrics)
	if rs.plot != nil {
		rs.plot.add(r.Index, r.Models, &rs.keys, pm, sw, swapped)
	}
	if rs.live != nil {
		rs.addLive(r, pm)
	}
	rs.pooled = vmaf.Result{Index: r.Index, Models: r.Models, Metrics: pm}
	rs.pool.Add(&rs.pooled)
	// A frame left with no metric is not written, as libvmaf writes
	// only frames that have some.
	if rs.out != nil && rs.err == nil && len(metrics) > 0 {
		rs.err = rs.out.WriteFrame(report.Frame{Num: r.Index, Model: model, Metrics: metrics, Models: r.Models})
	}
	rs.scored.Add(1)
}

// sink scores pairs: the engine itself, or a pipeline.Runner when an agent
// may steer the run over MCP. submit owns both frames whatever it returns.
type sink interface {
	submit(r, d frame) error
	finish() error
	close()
	// aggregates are the engine's aggregate metrics, after finish.
	aggregates() []vmaf.Metric
}

// engineSink hands pairs straight to a vmaf.Context.
type engineSink struct {
	eng   *vmaf.Context
	pairs pairPool
}

func (j *job) newEngineSink() (sink, error) {
	eng, err := vmaf.NewContext(j.engineConfig(j.results.add))
	if err != nil {
		return nil, err
	}
	return &engineSink{eng: eng, pairs: newPairPool(enginePairs(j.s.threads))}, nil
}

// enginePairs is how many pairs the engine is handed at once: one per
// worker and one queued for the next free worker. It holds more frames
// than that only after their pictures are released, so no input needs
// buffers for them; every extra buffer is a whole frame of resident memory.
func enginePairs(threads int) int { return max(threads, 1) + 1 }

func (j *job) engineConfig(onResult func(*vmaf.Result)) vmaf.Config {
	return vmaf.Config{
		Models:    j.models,
		Features:  j.s.features,
		Threads:   j.s.threads,
		Subsample: j.s.subsample,
		Engine:    j.s.engine,
		OnResult:  onResult,
	}
}

func (e *engineSink) submit(r, d frame) error { return e.hand(r, d, e.eng.Submit) }

// hand gives a pair to the engine through submit: its Submit, or its Skip
// for a pair read only for the frames around it.
func (e *engineSink) hand(r, d frame, submit func(ref, dist *vmaf.Picture, release func()) error) error {
	pr := <-e.pairs
	pr.ref, pr.dist = r.release, d.release
	if err := submit(r.pic, d.pic, pr.fn); err != nil {
		pr.fn()
		return err
	}
	return nil
}

func (e *engineSink) finish() error { return e.eng.Flush() }
func (e *engineSink) close()        { e.eng.Close() }

func (e *engineSink) aggregates() []vmaf.Metric { return e.eng.Aggregates() }

// pairRelease gives both frames of a pair back from the engine's single
// release callback; a fixed set of them is reused so submitting does not
// allocate.
type pairRelease struct {
	ref, dist func()
	fn        func()
}

type pairPool chan *pairRelease

func newPairPool(n int) pairPool {
	p := make(pairPool, n)
	for i := 0; i < n; i++ {
		pr := &pairRelease{}
		pr.fn = func() {
			pr.ref()
			pr.dist()
			pr.ref, pr.dist = nil, nil
			p <- pr
		}
		p <- pr
	}
	return p
}

// run scores every pair, then writes the output and prints the pooled
// scores. A read error or an interruption still flushes the engine and
// writes out the frames scored so far before it is returned.
func (j *job) run(ctx context.Context) error {
	s := j.s
	newSink := j.newEngineSink
	if s.useRunner() {
		newSink = j.newRunnerSink
	}
	if j.shard != nil {
		newSink = j.shard.newSink
	}
	sk, err := newSink()
	if err != nil {
		return err
	}
	defer sk.close()
	if err := j.startLiveFor(sk); err != nil {
		return err
	}

	al := &aligner{ref: j.ref, dist: j.dist, refName: s.ref, distName: s.dist, byPTS: s.align == "pts"}
	defer al.release()
	if err := al.skip(sideRef, s.skipRef); err != nil {
		return err
	}
	if err := al.skip(sideDist, s.skipDist); err != nil {
		return err
	}
	if !s.quiet {
		for _, n := range al.seekNotes {
			fmt.Fprintf(j.stderr, "vmaf-score: %s\n", n)
		}
	}

	prog := j.progress()
	j.prog = prog
	if j.live != nil && s.live.AlertThreshold > 0 {
		prog.note = j.live.activeAlert
	}
	var stopErr error
	n := 0
	for ; s.frameCnt == 0 || n < s.frameCnt; n++ {
		if ctx.Err() != nil {
			stopErr = errInterrupted
			break
		}
		r, d, err := al.next()
		if errors.Is(err, io.EOF) {
			if note := al.finish(); note != "" {
				prog.finish(n)
				fmt.Fprintf(j.stderr, "vmaf-score: %s\n", note)
				prog.w = nil
			}
			j.truncationWarnings(al, n)
			break
		}
		if err != nil {
			stopErr = err
			break
		}
		j.live.submitted(n, r)
		if err := sk.submit(r, d); err != nil {
			stopErr = err
			break
		}
		prog.update(n + 1)
	}
	if err := sk.finish(); err != nil && stopErr == nil {
		stopErr = err
	}
	if n == 0 && stopErr == nil {
		stopErr = errNoFrames
	}
	j.live.finish()
	prog.finish(n)
	j.reportConformed()
	j.offsetHint()
	if j.out != nil {
		for _, m := range sk.aggregates() {
			j.out.SetAggregate(m.Name, m.Value)
		}
	}
	if j.shard != nil {
		stopErr = j.shard.complete(n, stopErr)
	}
	return j.finish(n, stopErr)
}

func (j *job) progress() *progress {
	var w io.Writer
	if !j.s.quiet && (j.s.showProgress || isTerminal(j.stderr)) {
		w = j.stderr
	}
	total := 0
	if rt, dt := j.ref.total(), j.dist.total(); rt > 0 && dt > 0 {
		total = min(rt-j.s.skipRef, dt-j.s.skipDist)
		if j.s.subsample > 1 {
			total = (total + j.s.subsample - 1) / j.s.subsample * j.s.subsample
		}
	}
	if j.s.frameCnt > 0 && (total <= 0 || j.s.frameCnt < total) {
		total = j.s.frameCnt
	}
	p := newProgress(w, total)
	p.report = j.s.onProgress
	return p
}

// finish closes the output and prints the pooled scores, then reports
// why the run stopped early, if it did.
func (j *job) finish(pairs int, stopErr error) error {
	if j.out != nil {
		if err := j.out.Close(); err != nil && stopErr == nil {
			stopErr = err
		}
		if j.results.err != nil && stopErr == nil {
			stopErr = j.results.err
		}
	}
	if j.plot != nil && j.results.scored.Load() > 0 {
		if err := j.writePlot(); err != nil && stopErr == nil {
			stopErr = err
		}
	}
	if !j.s.noPrediction && (!j.s.quiet || j.s.output == "") {
		w := j.stdout
		if j.s.output == "-" {
			w = j.stderr
		}
		j.printPooled(w)
	}
	if stopErr != nil && pairs > 0 && j.s.output != "" {
		return fmt.Errorf("%w (the output holds the %d frames scored before)", stopErr, j.results.scored.Load())
	}
	return stopErr
}

// printPooled prints each model's mean score as libvmaf's tool does:
// "<version or path>: <mean>", and for a bootstrap collection a second
// line with the bagged score, its 95% interval and deviation. After a
// swap every model that scored frames has its lines, each over its own
// frames.
func (j *job) printPooled(w io.Writer) {
	mean := func(name string) float64 {
		p, _ := j.results.pool.Get(name)
		return p.Mean
	}
	models := j.results.keys.Seen()
	key := func(m *vmaf.Model) string {
		k, _ := j.results.keys.Key(m)
		return k
	}
	// Every model's line comes first, then the collections' intervals,
	// in libvmaf's order.
	for _, m := range models {
		if _, ok := j.results.pool.Get(key(m)); ok {
			fmt.Fprintf(w, "%s: %f\n", m.Version, mean(key(m)))
		}
	}
	for _, m := range models {
		k := key(m)
		if _, ok := j.results.pool.Get(k + "_bagging"); ok {
			fmt.Fprintf(w, "%s: %f, ci.p95: [%f, %f], stddev: %f\n", m.Version, mean(k+"_bagging"),
				mean(k+"_ci_p95_lo"), mean(k+"_ci_p95_hi"), mean(k+"_stddev"))
		}
	}
}
