package metrics

import (
	"io"
	"net/http"
	"testing"

	"github.com/vmafsink/vmafsink/analytics"
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

// BenchmarkScrape is one scrape's cost to the host: gathering every
// metric (the Runner's status, the analytics, the histogram of one
// model, the Go runtime and process collectors) and encoding it as
// Prometheus's text format, as /metrics does.
func BenchmarkScrape(b *testing.B) {
	m, err := vmaf.BuiltinModel("vmaf_v0.6.1")
	if err != nil {
		b.Fatal(err)
	}
	r, err := pipeline.New(pipeline.Config{
		Scorer:    vmaf.Config{Models: []*vmaf.Model{m}, Engine: "native", Threads: 1},
		Analytics: analytics.Config{WindowFrames: 30, AlertThreshold: 80},
	})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	e, err := Start(Config{Addr: "127.0.0.1:0", Element: "bench", Runner: r, Clients: func() int { return 1 }})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	for i := range 1000 {
		e.scores.observe(&pipeline.Record{Index: i, Models: []*vmaf.Model{m}, Score: 60 + float64(i%400)/10})
	}
	url := "http://" + e.Addr() + "/metrics"
	b.ReportAllocs()
	for b.Loop() {
		resp, err := http.Get(url)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		b.ReportMetric(float64(n), "bytes/scrape")
	}
}
