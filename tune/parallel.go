package tune

import (
	"context"
	"runtime"
	"sync"
)

// DefaultJobs is how many probes run at once when SessionOptions.Jobs is
// 0: one per four CPUs, at least one. A probe keeps about two CPUs busy
// encoding and two scoring; more probes than that only share the same
// CPUs and hold more frames in memory.
func DefaultJobs() int { return max(1, runtime.NumCPU()/4) }

// each runs fn(ctx, i) for every i in [0, n), up to the session's jobs at
// once, and returns the first failure, if any, once every call has
// returned. A failure cancels the calls still running and skips those
// not started. With one job the calls run in order, one after another.
// Independent probes (a sweep's CRFs, a ladder's resolutions, a plan's
// shots) run this way; their results do not depend on the order, as each
// probe is its own encode of the same frames and its cache entry is keyed
// by what it measures.
func (s *Session) each(ctx context.Context, n int, fn func(ctx context.Context, i int) error) error {
	jobs := s.o.Jobs
	if jobs <= 0 {
		jobs = DefaultJobs()
	}
	if jobs == 1 || n <= 1 {
		for i := range n {
			if err := fn(ctx, i); err != nil {
				return err
			}
		}
		return nil
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	slots := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	for i := range n {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			if err := fn(ctx, i); err != nil {
				cancel(err) // the first cause stays
			}
		}()
	}
	wg.Wait()
	return context.Cause(ctx)
}

// tally sums the encodes and cache hits of searches (nil: not run).
func tally(searches []*CRFResult) (encodes, cacheHits int) {
	for _, cr := range searches {
		if cr != nil {
			encodes += cr.Encodes
			cacheHits += cr.CacheHits
		}
	}
	return encodes, cacheHits
}
