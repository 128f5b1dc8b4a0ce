package analytics

import (
	"math"
)

// histBins is one bin per 1/1000 of a score over [0,100].
const histBins = 100*1000 + 1

// Histogram is the bounded whole-stream percentile structure: counts of
// the score rounded to 1/1000 over [0,100] (100001 uint32 counters,
// 391 KiB, allocated on the first Add). Scores below 0 count as 0 and
// above 100 as 100; NaN is not counted. Percentile is nearest-rank (the
// ⌈p/100·n⌉-th smallest, p=0 → the smallest): since rounding is monotonic,
// it equals the exact nearest-rank percentile of the unrounded scores
// rounded to 0.001, so it is exact to the printed resolution (3 decimals).
// Add is O(1); Percentile scans the bins. A bin overflows past 2^32-1
// equal scores (two years at 60 fps).
type Histogram struct {
	bins []uint32
	n    int
}

// Add counts x.
func (h *Histogram) Add(x float64) {
	if math.IsNaN(x) {
		return
	}
	if h.bins == nil {
		h.bins = make([]uint32, histBins)
	}
	h.bins[bin(x)]++
	h.n++
}

func bin(x float64) int {
	switch {
	case x <= 0:
		return 0
	case x >= 100:
		return histBins - 1
	}
	return int(math.Round(x * 1000))
}

// Count is how many scores were added.
func (h *Histogram) Count() int { return h.n }

// Percentile returns the nearest-rank p-th percentile, NaN when empty.
func (h *Histogram) Percentile(p float64) float64 {
	if h.n == 0 {
		return math.NaN()
	}
	k := rank(p, h.n)
	seen := 0
	for i, c := range h.bins {
		seen += int(c)
		if seen >= k {
			return float64(i) / 1000
		}
	}
	return 100
}

// rank is the 1-based nearest rank of the p-th percentile among n values.
// p·n is computed before dividing, so that 10% of 30 is rank 3, not 4.
func rank(p float64, n int) int {
	k := int(math.Ceil(p * float64(n) / 100))
	return min(max(k, 1), n)
}

// PercentileOf is the nearest-rank p-th percentile of sorted values (the
// ⌈p/100·n⌉-th smallest, p=0 → the smallest); NaN when empty.
func PercentileOf(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	return sorted[rank(p, len(sorted))-1]
}
