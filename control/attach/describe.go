package attach

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/swap"
	"github.com/vmafsink/vmafsink/vmaf"
)

// maxDescribing bounds concurrent vmaf_describe_model loads: a model file
// may be up to vmaf.MaxModelFileBytes, as for swaps.
const maxDescribing = 2

// DescribeModel implements control.Target: resolved, loaded and checked
// against the engine as a swap is, so that it refuses what a swap would;
// then described, with the running stream's fit.
func (t *Target) DescribeModel(ctx context.Context, model string) (control.ModelDescription, error) {
	select {
	case t.model.describing <- struct{}{}:
		defer func() { <-t.model.describing }()
	case <-ctx.Done():
		return control.ModelDescription{}, ctx.Err()
	default:
		return control.ModelDescription{}, control.Errorf(control.CodeBusy, "%d model descriptions already being prepared; retry", maxDescribing)
	}
	spec, err := t.swaps.Registry().Resolve(model, "")
	if err != nil {
		return control.ModelDescription{}, commandError(err)
	}
	m, err := swap.Load(spec)
	if err != nil {
		return control.ModelDescription{}, commandError(err)
	}
	if err := t.model.check(m); err != nil {
		return control.ModelDescription{}, commandError(fmt.Errorf("%w: %w", swap.ErrUnsupported, err))
	}
	d := control.DescribeModel(m)
	if f := t.r.Status().Format; f != nil {
		d.MismatchedModelWarning = mismatch(m, f.Width, f.Height)
	}
	return d, nil
}

// modelParts are the Target's means for describing models and naming
// the engine and build in replies.
type modelParts struct {
	check      func(*vmaf.Model) error // the engine check swaps get
	describing chan struct{}           // vmaf_describe_model loads running
	engines    engineCache
	version    string // the build's, for status replies
}

// engineFor is the engine a Context for models and the run's extra
// metrics runs on: the engine asked for, or for auto the one
// vmaf.NewContext picks (native, unless only libvmaf computes a feature).
// Building a Context starts no workers.
func engineFor(engine string, features []string, models []*vmaf.Model) string {
	if engine == "native" || engine == "libvmaf" {
		return engine
	}
	if len(models) == 0 {
		return ""
	}
	for _, e := range []string{"native", "libvmaf"} {
		c, err := vmaf.NewContext(vmaf.Config{Models: models, Features: features, Engine: e})
		if err == nil {
			c.Close()
			return e
		}
	}
	return ""
}

// engineCache remembers engineFor's answer for the models last asked
// about: status replies ask on every call, and the answer changes only
// with the models.
type engineCache struct {
	mu     sync.Mutex
	models []*vmaf.Model
	engine string
}

func (c *engineCache) get(engine string, features []string, models []*vmaf.Model) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.engine == "" || !slices.Equal(c.models, models) {
		c.models, c.engine = slices.Clone(models), engineFor(engine, features, models)
		if rt := vmaf.LearnedRuntime(models); rt != "" && c.engine != "" {
			c.engine += " + " + rt
		}
	}
	return c.engine
}
