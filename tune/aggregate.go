package tune

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/vmafsink/vmafsink/analytics"
)

// Aggregate pools a probe's per-frame scores into the one the target is
// compared with: "mean" (libvmaf's pooled mean), "harmonic_mean"
// (libvmaf's: n / Σ 1/(x+1) − 1) or "pN", the nearest-rank N-th
// percentile (p5: the score 95 % of frames reach).
type Aggregate struct {
	name string
	perc float64
}

// ParseAggregate reads an aggregate's name; "" is the mean.
func ParseAggregate(s string) (Aggregate, error) {
	switch s {
	case "", "mean":
		return Aggregate{name: "mean"}, nil
	case "harmonic_mean", "harmonic-mean":
		return Aggregate{name: "harmonic_mean"}, nil
	}
	if rest, ok := strings.CutPrefix(s, "p"); ok {
		if p, err := strconv.ParseFloat(rest, 64); err == nil && p >= 0 && p <= 100 {
			return Aggregate{name: s, perc: p}, nil
		}
	}
	return Aggregate{}, fmt.Errorf("unknown aggregate %q (want mean, harmonic_mean or pN with N from 0 to 100, such as p5)", s)
}

func (a Aggregate) String() string {
	if a.name == "" {
		return "mean"
	}
	return a.name
}

// Of pools scores.
func (a Aggregate) Of(scores []float64) float64 {
	if len(scores) == 0 {
		return math.NaN()
	}
	switch a.String() {
	case "mean":
		sum := 0.0
		for _, s := range scores {
			sum += s
		}
		return sum / float64(len(scores))
	case "harmonic_mean":
		sum := 0.0
		for _, s := range scores {
			sum += 1 / (s + 1)
		}
		return float64(len(scores))/sum - 1
	}
	sorted := slices.Clone(scores)
	slices.Sort(sorted)
	return analytics.PercentileOf(sorted, a.perc)
}
