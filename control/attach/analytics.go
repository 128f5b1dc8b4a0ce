package attach

import (
	"math"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/control"
)

// Analytics implements control.Target: the Runner's monitor.
func (t *Target) Analytics() *analytics.Monitor { return t.r.Analytics() }

// Range implements control.Target from the Runner's recent records
// (pipeline.Config.Recent of them).
func (t *Target) Range(from, to int64, limit int) []control.Record {
	clamp := func(v int64) int { return int(min(max(v, math.MinInt), math.MaxInt)) }
	var out []control.Record
	for _, r := range t.r.Range(clamp(from), clamp(to), limit) {
		out = append(out, convertRecord(r))
	}
	return out
}
