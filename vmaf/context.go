package vmaf

import (
	"errors"
	"fmt"
)

// Config configures a Context.
type Config struct {
	// Models score every frame; each reports under its Name, which must
	// be unique. At least one is required unless Features asks for
	// something: features alone are libvmaf's --no_prediction.
	Models []*Model
	// Features adds metrics beyond the models' inputs, each named as
	// libvmaf's --feature takes it: NAME or NAME=opt=val:opt=val, such as
	// "psnr", "float_ssim" or "psnr=enable_chroma=false". ExtractorNames
	// lists the names; CheckFeature checks one.
	Features []string
	// Threads is the number of worker goroutines; 0 means 1.
	Threads int
	// Subsample scores every Nth frame (0 means every frame). The frames
	// in between are still read for motion, as libvmaf does.
	Subsample int
	// Engine picks the implementation: "native" (the Go extractors),
	// "libvmaf" (only in builds with the libvmaf tag), or "" / "auto":
	// native, or libvmaf when the build has it and the models need
	// features only libvmaf computes (such as the float models).
	Engine string
	// OnResult receives each scored frame's Result in frame order, from
	// one goroutine at a time. The Result is reused after the call returns.
	OnResult func(*Result)
	// WorkerSetup, if set, is called first by each native-engine worker,
	// on an OS thread the worker then keeps to itself if it reports that
	// it changed the thread: the thread ends with the worker, so a change
	// to its attributes (such as its scheduling priority) reaches no other
	// goroutine, nor another Context. A host that must answer requests
	// promptly while scoring keeps every CPU busy uses it to mark the
	// workers as background work. The libvmaf engine ignores it.
	WorkerSetup func() bool
}

// Context scores a stream of picture pairs.
type Context struct {
	s scorer
}

// scorer is an engine implementation behind a Context.
type scorer interface {
	submit(ref, dist *Picture, release func(), skip bool) error
	setModels(models []*Model) error
	flush() error
	close()
	metricNames() []string
	aggregateMetrics() []Metric
}

// NewContext checks the configuration and returns a Context ready for
// its first Submit. The stream's geometry and format are fixed by the
// first pair submitted.
func NewContext(cfg Config) (*Context, error) {
	if cfg.Threads < 0 {
		return nil, fmt.Errorf("vmaf: threads must not be negative, got %d", cfg.Threads)
	}
	if cfg.Subsample < 0 {
		return nil, fmt.Errorf("vmaf: subsample must not be negative, got %d", cfg.Subsample)
	}
	var (
		s   scorer
		err error
	)
	switch cfg.Engine {
	case "native":
		s, err = newNativeScorer(cfg)
	case "libvmaf":
		s, err = newLibvmafScorer(cfg)
	case "", "auto":
		// Native first: it reports every frame as it is scored, while
		// libvmaf holds results until the end of the stream. libvmaf is
		// the fallback for models whose features only it has.
		s, err = newNativeScorer(cfg)
		if err != nil {
			if ls, lerr := newLibvmafScorer(cfg); lerr == nil {
				s, err = ls, nil
			}
		}
	default:
		return nil, fmt.Errorf("vmaf: unknown engine %q (want auto, native or libvmaf)", cfg.Engine)
	}
	if err != nil {
		return nil, err
	}
	return &Context{s: s}, nil
}

// ErrNoLibvmaf reports a build without the libvmaf backend.
var ErrNoLibvmaf = errors.New("vmaf: this build has no libvmaf backend (build with -tags libvmaf)")

// Submit queues one pair. The engine reads the pictures' memory until it
// calls release, once, from another goroutine; release may be nil when the
// memory outlives Flush. Submit blocks while the workers are all busy and
// a few pairs wait. The first pair fixes the stream's geometry and format;
// a pair that differs from it, or whose pictures differ from each other,
// is an error and is not queued (release is then not called).
func (c *Context) Submit(ref, dist *Picture, release func()) error {
	return c.s.submit(ref, dist, release, false)
}

// Skip queues a pair that is not to be scored but is part of the stream:
// the frames around it must score as if it had been, and their motion
// compares consecutive reference frames. It counts as a frame, as Submit's
// do (Subsample and Result indices count it), and produces no Result.
// With the native engine it costs the motion filter's pass over the
// reference luma and one SAD; the distorted picture is not read, so dist
// may be ref. Memory and errors are as for Submit.
func (c *Context) Skip(ref, dist *Picture, release func()) error {
	return c.s.submit(ref, dist, release, true)
}

// SetModels changes the models for the pairs submitted after the call: a
// frame boundary. The models are checked before anything changes.
func (c *Context) SetModels(models []*Model) error { return c.s.setModels(models) }

// Aggregates are libvmaf's aggregate metrics, values over the whole
// stream that some extractor options ask for (psnr's enable_apsnr gives
// apsnr_y, apsnr_cb, apsnr_cr); known once Flush has returned, and only
// from the native engine.
func (c *Context) Aggregates() []Metric { return c.s.aggregateMetrics() }

// Flush ends the stream: it returns after every remaining Result has been
// delivered. The Context accepts no more pairs afterwards.
func (c *Context) Flush() error { return c.s.flush() }

// Close abandons the stream: pending pairs are released unscored and no
// more results are delivered. Close after Flush does nothing.
func (c *Context) Close() { c.s.close() }

// MetricNames lists the metrics each Result carries under the current
// models, in order.
func (c *Context) MetricNames() []string { return c.s.metricNames() }
