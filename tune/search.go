package tune

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
)

// SearchConfig bounds an interpolating search for the largest CRF whose
// score meets a target. Scores are expected to fall as CRF rises; the
// search does not rely on it beyond the bracket it keeps.
type SearchConfig struct {
	Target    float64
	Tolerance float64 // a passing probe within Tolerance above Target ends the search
	Min, Max  float64 // the CRF range searched
	Step      float64 // the CRF grid: probes are multiples of Step
	Start     float64 // the first probe
	// Growth is how fast the log of the score's distance below 101
	// rises per CRF unit, assumed until two probes measure it.
	Growth    float64
	MaxProbes int // 0: no limit besides the grid
}

// Sample is one measured point: a CRF and the score its encode got.
type Sample struct {
	CRF   float64
	Score float64
}

// SearchResult is where a search ended.
type SearchResult struct {
	// CRF is the largest probed CRF that met the target with no failing
	// probe below it; Best is its sample.
	CRF  float64
	Best Sample
	// Probes are the samples in the order they were measured.
	Probes []Sample
	// Bounded says the answer is the range's edge: the target is met even
	// at Max (higher CRFs were not tried).
	Bounded bool
}

// ErrTargetUnreachable is returned when even the lowest CRF of the
// range misses the target.
var ErrTargetUnreachable = errors.New("target not reached")

// Search probes CRFs until it finds the largest one whose score meets
// cfg.Target within the grid: first a guess, then a step from the
// assumed growth of the score's deficit until the target is bracketed, then guesses interpolated
// on the measured curve (linear with two points in play, monotone cubic
// with more), each inside the bracket. It stops when a passing probe lies
// within the tolerance, when the bracket closes to one grid step, or at
// MaxProbes.
func Search(ctx context.Context, cfg SearchConfig, probe func(context.Context, float64) (float64, error)) (SearchResult, error) {
	if err := cfg.check(); err != nil {
		return SearchResult{}, err
	}
	s := &searcher{cfg: cfg, seen: map[float64]float64{}}
	next := s.snap(cfg.Start)
	for {
		if err := ctx.Err(); err != nil {
			return s.result(), err
		}
		score, err := probe(ctx, next)
		if err != nil {
			return s.result(), err
		}
		s.add(next, score)
		if s.done() {
			break
		}
		var ok bool
		if next, ok = s.guess(); !ok {
			break
		}
	}
	res := s.result()
	if !s.hasPass() {
		best := s.probes[0]
		for _, p := range s.probes {
			if p.Score > best.Score {
				best = p
			}
		}
		return res, fmt.Errorf("%w: the best score is %.3f at CRF %g, below the target %g (lowest CRF searched: %g)",
			ErrTargetUnreachable, best.Score, best.CRF, cfg.Target, cfg.Min)
	}
	return res, nil
}

func (c SearchConfig) check() error {
	switch {
	case !(c.Step > 0):
		return fmt.Errorf("CRF step must be positive, got %g", c.Step)
	case !(c.Min <= c.Max):
		return fmt.Errorf("CRF range [%g, %g] is empty", c.Min, c.Max)
	case c.Tolerance < 0:
		return fmt.Errorf("tolerance must not be negative, got %g", c.Tolerance)
	case math.IsNaN(c.Target):
		return errors.New("target is not a number")
	}
	return nil
}

type searcher struct {
	cfg    SearchConfig
	probes []Sample
	seen   map[float64]float64
}

func (s *searcher) snap(crf float64) float64 {
	crf = math.Max(s.cfg.Min, math.Min(s.cfg.Max, crf))
	v := math.Round(crf/s.cfg.Step) * s.cfg.Step
	for v < s.cfg.Min-1e-9 {
		v += s.cfg.Step
	}
	for v > s.cfg.Max+1e-9 {
		v -= s.cfg.Step
	}
	return roundGrid(v)
}

// roundGrid drops the binary noise multiplying by the step leaves
// (23.400000000000002), so CRFs print and compare as written.
func roundGrid(v float64) float64 { return math.Round(v*1e6) / 1e6 }

func (s *searcher) add(crf, score float64) {
	s.probes = append(s.probes, Sample{crf, score})
	s.seen[crf] = score
}

func (s *searcher) pass(score float64) bool { return score >= s.cfg.Target }

// bracket is the search's state: lo the largest passing CRF below every
// failing one (ok false when none passes there), hi the smallest failing
// CRF (ok false when none fails).
func (s *searcher) bracket() (lo Sample, loOK bool, hi Sample, hiOK bool) {
	for _, p := range s.probes {
		if !s.pass(p.Score) && (!hiOK || p.CRF < hi.CRF) {
			hi, hiOK = p, true
		}
	}
	for _, p := range s.probes {
		if s.pass(p.Score) && (!hiOK || p.CRF < hi.CRF) && (!loOK || p.CRF > lo.CRF) {
			lo, loOK = p, true
		}
	}
	return
}

func (s *searcher) hasPass() bool {
	_, ok, _, _ := s.bracket()
	return ok
}

func (s *searcher) done() bool {
	if s.cfg.MaxProbes > 0 && len(s.probes) >= s.cfg.MaxProbes {
		return true
	}
	lo, loOK, hi, hiOK := s.bracket()
	switch {
	case loOK && lo.Score <= s.cfg.Target+s.cfg.Tolerance && lo.CRF == s.probes[len(s.probes)-1].CRF:
		return true // the last probe passed, close enough
	case loOK && hiOK && hi.CRF-lo.CRF <= s.cfg.Step+1e-9:
		return true
	case loOK && !hiOK && lo.CRF >= s.cfg.Max-1e-9:
		return true // met even at the top of the range
	case !loOK && hiOK && hi.CRF <= s.cfg.Min+1e-9:
		return true // missed even at the bottom
	}
	return false
}

// guess is the next CRF to probe; ok false when the grid leaves none.
func (s *searcher) guess() (float64, bool) {
	lo, loOK, hi, hiOK := s.bracket()
	var want float64
	switch {
	case loOK && hiOK:
		want = s.interpolate(lo, hi)
	default:
		// One side only: step along the measured growth of the deficit
		// (or the assumed one) to the middle of the accepted window.
		from := lo
		if !loOK {
			from = hi
		}
		want = from.CRF + (s.aim()-deficit(from.Score))/s.growth()
		// A little past the estimate, so that the next probe more
		// likely brackets the target than falls short of it again.
		if loOK {
			want += math.Max(s.cfg.Step, 0.5)
		} else {
			want -= math.Max(s.cfg.Step, 0.5)
		}
	}
	lower, upper := s.cfg.Min, s.cfg.Max
	if loOK {
		lower = lo.CRF + s.cfg.Step
	}
	if hiOK {
		upper = hi.CRF - s.cfg.Step
	}
	if lower > upper+1e-9 {
		return 0, false
	}
	next := s.snap(math.Max(lower, math.Min(upper, want)))
	if next < lower-1e-9 {
		next = roundGrid(next + s.cfg.Step)
	}
	if next > upper+1e-9 {
		next = roundGrid(next - s.cfg.Step)
	}
	if _, seen := s.seen[next]; seen || next < lower-1e-9 || next > upper+1e-9 {
		// Every grid point left is probed (the noise put passes above
		// failures); take the nearest unprobed one in the bracket.
		for c := lower; c <= upper+1e-9; c = roundGrid(c + s.cfg.Step) {
			if _, seen := s.seen[roundGrid(c)]; !seen {
				return roundGrid(c), true
			}
		}
		return 0, false
	}
	return next, true
}

// growth is how fast the log deficit rises per CRF unit between the two
// most recent distinct probes, or the configured prior; a measurement
// that falls with CRF (noise) falls back to the prior.
func (s *searcher) growth() float64 {
	prior := s.cfg.Growth
	if prior <= 0 {
		prior = 0.1
	}
	n := len(s.probes)
	if n < 2 {
		return prior
	}
	a, b := s.probes[n-2], s.probes[n-1]
	if a.CRF == b.CRF {
		return prior
	}
	m := (deficit(b.Score) - deficit(a.Score)) / (b.CRF - a.CRF)
	if !(m > 0) {
		return prior
	}
	return m
}

// deficit is the search's measure of a score: the log of its distance
// below 101. Over CRF the distance to a perfect score grows about
// geometrically (it doubles every few CRF steps), so in this measure the
// curve is nearly straight and interpolation lands close; it falls as
// the score rises.
func deficit(score float64) float64 { return math.Log(101 - math.Min(score, 100.9)) }

// aim is the deficit a probe is aimed at: the middle of the accepted
// window [Target, Target+Tolerance].
func (s *searcher) aim() float64 { return deficit(s.cfg.Target + s.cfg.Tolerance/2) }

// interpolate estimates the CRF whose deficit is the aim from the
// bracket and the probes around it: a monotone cubic through the probes
// when three or more of them rise in deficit with CRF, a line through the
// bracket otherwise.
func (s *searcher) interpolate(lo, hi Sample) float64 {
	aim := s.aim()
	pts := s.monotoneRun(lo, hi)
	if len(pts) >= 3 {
		sort.Slice(pts, func(i, j int) bool { return pts[i].CRF < pts[j].CRF })
		x := make([]float64, len(pts))
		y := make([]float64, len(pts))
		for i, p := range pts {
			x[i], y[i] = deficit(p.Score), p.CRF
		}
		return newPCHIP(x, y).at(aim)
	}
	dl, dh := deficit(lo.Score), deficit(hi.Score)
	if dl == dh {
		return (lo.CRF + hi.CRF) / 2
	}
	return lo.CRF + (aim-dl)*(hi.CRF-lo.CRF)/(dh-dl)
}

// monotoneRun is the bracket with the probes beside it that keep the
// scores strictly falling as CRF rises: the points a monotone cubic may
// pass through.
func (s *searcher) monotoneRun(lo, hi Sample) []Sample {
	sorted := append([]Sample(nil), s.probes...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].CRF < sorted[j].CRF })
	iLo := -1
	for i, p := range sorted {
		if p.CRF == lo.CRF {
			iLo = i
		}
	}
	if iLo < 0 || iLo+1 >= len(sorted) || sorted[iLo+1].CRF != hi.CRF || !(lo.Score > hi.Score) {
		return nil
	}
	run := []Sample{lo, hi}
	for i := iLo - 1; i >= 0 && sorted[i].Score > sorted[i+1].Score; i-- {
		run = append(run, sorted[i])
	}
	for i := iLo + 2; i < len(sorted) && sorted[i].Score < sorted[i-1].Score; i++ {
		run = append(run, sorted[i])
	}
	return run
}

func (s *searcher) result() SearchResult {
	r := SearchResult{Probes: append([]Sample(nil), s.probes...)}
	lo, loOK, _, hiOK := s.bracket()
	if loOK {
		r.CRF, r.Best = lo.CRF, lo
		r.Bounded = !hiOK && lo.CRF >= s.cfg.Max-1e-9
	}
	return r
}
