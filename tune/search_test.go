package tune

import (
	"context"
	"errors"
	"math"
	"sort"
	"testing"
)

// Synthetic rate-quality curves: score as a function of CRF.
var syntheticCurves = map[string]func(float64) float64{
	// A logistic fall, the shape x264's VMAF takes over CRF.
	"logistic": func(c float64) float64 { return 100 / (1 + math.Exp((c-38)/5.5)) },
	// Gentler and nearly linear over the range, as AV1 encoders' CRF scales.
	"linear-ish": func(c float64) float64 { return 99 - 0.55*c - 0.004*c*c },
	// Steep at high quality, then flat.
	"convex": func(c float64) float64 { return 30 + 70*math.Exp(-c/18) },
}

// noisy adds a deterministic ripple of ±amp that makes the curve
// non-monotone between neighbouring CRFs.
func noisy(f func(float64) float64, amp float64) func(float64) float64 {
	return func(c float64) float64 { return f(c) + amp*math.Sin(c*2.7+1) }
}

func runSearch(t *testing.T, cfg SearchConfig, f func(float64) float64) (SearchResult, error) {
	t.Helper()
	return Search(context.Background(), cfg, func(_ context.Context, crf float64) (float64, error) {
		return f(crf), nil
	})
}

func baseConfig(target float64) SearchConfig {
	return SearchConfig{Target: target, Tolerance: 0.5, Min: 10, Max: 51, Step: 0.25, Start: 23, Growth: 0.15}
}

// TestSearchConvergence checks every answer on smooth curves: it meets
// the target, and the next grid CRF up does not (or the tolerance was
// met); and reports the median probes per search over the set.
func TestSearchConvergence(t *testing.T) {
	var counts []int
	for name, f := range syntheticCurves {
		for _, target := range []float64{80, 85, 90, 93, 95, 97} {
			if f(10) < target || f(51) >= target {
				continue
			}
			cfg := baseConfig(target)
			r, err := runSearch(t, cfg, f)
			if err != nil {
				t.Errorf("%s target %g: %v", name, target, err)
				continue
			}
			counts = append(counts, len(r.Probes))
			if r.Best.Score < target {
				t.Errorf("%s target %g: answer CRF %g scores %.3f, below target", name, target, r.CRF, r.Best.Score)
			}
			within := r.Best.Score <= target+cfg.Tolerance
			nextFails := f(r.CRF+cfg.Step) < target
			if !within && !nextFails {
				t.Errorf("%s target %g: CRF %g (%.3f) is neither within tolerance nor the largest passing", name, target, r.CRF, r.Best.Score)
			}
		}
	}
	sort.Ints(counts)
	median := counts[len(counts)/2]
	t.Logf("probes per search over %d searches: %v, median %d", len(counts), counts, median)
	if median > 4 {
		t.Errorf("median probes per search %d, want ≤ 4", median)
	}
}

func TestSearchNoisyCurve(t *testing.T) {
	for name, f := range syntheticCurves {
		g := noisy(f, 0.4)
		for _, target := range []float64{85, 90, 95} {
			if g(10) < target || g(51) >= target {
				continue
			}
			cfg := baseConfig(target)
			cfg.Tolerance = 0 // force the search to close the bracket
			r, err := runSearch(t, cfg, g)
			if err != nil {
				t.Errorf("%s target %g: %v", name, target, err)
				continue
			}
			if r.Best.Score < target {
				t.Errorf("%s target %g: answer %g scores %.3f < target", name, target, r.CRF, r.Best.Score)
			}
			// The answer is a probe that passed with a failing probe one
			// step above it: the bracket closed.
			if !hasProbe(r, r.CRF+cfg.Step, func(s float64) bool { return s < target }) {
				t.Errorf("%s target %g: bracket not closed at %g: %v", name, target, r.CRF, r.Probes)
			}
			if len(r.Probes) > 12 {
				t.Errorf("%s target %g: %d probes", name, target, len(r.Probes))
			}
		}
	}
}

func hasProbe(r SearchResult, crf float64, ok func(float64) bool) bool {
	for _, p := range r.Probes {
		if math.Abs(p.CRF-crf) < 1e-6 && ok(p.Score) {
			return true
		}
	}
	return false
}

func TestSearchOutOfRange(t *testing.T) {
	f := syntheticCurves["logistic"]
	// Unreachable: even CRF 10 scores below 99.9.
	r, err := runSearch(t, baseConfig(99.9), f)
	if !errors.Is(err, ErrTargetUnreachable) {
		t.Fatalf("target 99.9: error %v, want ErrTargetUnreachable", err)
	}
	if !hasProbe(r, 10, func(float64) bool { return true }) {
		t.Errorf("target 99.9: the lowest CRF was never probed: %v", r.Probes)
	}
	// Met everywhere: the answer is the top of the range, said bounded.
	r, err = runSearch(t, baseConfig(5), f)
	if err != nil {
		t.Fatal(err)
	}
	if r.CRF != 51 || !r.Bounded {
		t.Errorf("target 5: CRF %g bounded %v, want 51 bounded", r.CRF, r.Bounded)
	}
	// Far below the curve the deficit flattens out, and the steps to
	// the top of the range grow slowly.
	if len(r.Probes) > 6 {
		t.Errorf("target 5: %d probes", len(r.Probes))
	}
}

func TestSearchStopsOnProbeError(t *testing.T) {
	boom := errors.New("encoder failed")
	_, err := Search(context.Background(), baseConfig(90), func(context.Context, float64) (float64, error) { return 0, boom })
	if !errors.Is(err, boom) {
		t.Errorf("error %v, want the probe's", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Search(ctx, baseConfig(90), func(context.Context, float64) (float64, error) { return 95, nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled search: error %v", err)
	}
}

func TestSearchConfigRefusals(t *testing.T) {
	for _, cfg := range []SearchConfig{
		{Target: 90, Min: 10, Max: 51, Step: 0},
		{Target: 90, Min: 51, Max: 10, Step: 1},
		{Target: 90, Min: 10, Max: 51, Step: 1, Tolerance: -1},
		{Target: math.NaN(), Min: 10, Max: 51, Step: 1},
	} {
		if _, err := Search(context.Background(), cfg, nil); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}
