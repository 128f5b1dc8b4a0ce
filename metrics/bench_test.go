package metrics

import (
	"testing"

	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/vmaf"
)

// BenchmarkObserve is the exporter's cost per scored frame: what its
// subscription does with one record (everything else is read at scrape
// time).
func BenchmarkObserve(b *testing.B) {
	s := newScores()
	m := &vmaf.Model{Name: "vmaf"}
	recs := make([]pipeline.Record, 1024)
	for i := range recs {
		recs[i] = pipeline.Record{Index: i, Models: []*vmaf.Model{m}, Score: 40 + float64(i%600)/10}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s.observe(&recs[i%len(recs)])
	}
}
