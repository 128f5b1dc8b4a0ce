package pipelines

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// analyticsOn is the element's windows, percentiles and alerts at their
// dearest: a window of 30 frames with four percentiles posted after
// every frame (window-step=1), and a threshold the flower pair crosses
// often (it scores 95.3 to 99.1), so drops begin and end all along; and
// the Prometheus exporter, whose score histogram is fed every frame.
const analyticsOn = " window-frames=30 window-step=1 percentiles=1,5,10,50 alert-threshold=98.6 alert-frames=1 metrics-addr=127.0.0.1:0"

// BenchmarkElementAnalyticsOverhead runs the element on 192 frames of
// 1280x720 I420 (the flower pair scaled up, played 4 times) with 2
// scoring threads, frame messages and a results file, with the analytics
// off and on (analyticsOn), alternately in each iteration so that a
// shared machine's load hits both alike. The CPU time (user+system) of
// the whole gst-launch process is measured; gst-launch's start-up and
// shutdown (the same pipeline with one frame) is left out. Reported:
// each side's CPU per frame, the lowest of the iterations (the run least
// disturbed by other processes), and the difference in percent.
//
//	go test -run XXX -bench ElementAnalyticsOverhead -benchtime 5x ./tests/pipelines
func BenchmarkElementAnalyticsOverhead(b *testing.B) {
	ref := gsttest.ScaledClip(b, "flower_576x324_ref", 1280, 720)
	dist := gsttest.ScaledClip(b, "flower_576x324_x264_crf22", 1280, 720)
	refSrc, frames := gsttest.RepeatedSource(b, ref, 4)
	distSrc, _ := gsttest.RepeatedSource(b, dist, 4)
	results := filepath.Join(b.TempDir(), "scores.json")
	pipeline := func(n int, props string) string {
		return fmt.Sprintf("%s ! identity eos-after=%d ! v.ref_sink %s ! identity eos-after=%d ! v.dist_sink "+
			"vmafsink name=v threads=2 results-filename=%s results-format=json%s", refSrc, n+1, distSrc, n+1, results, props)
	}
	startup := time.Hour
	for range 3 {
		run := gsttest.LaunchQuiet(b, time.Minute, pipeline(1, analyticsOn))
		run.MustSucceed(b)
		startup = min(startup, run.CPU)
	}
	cpu := func(props string) time.Duration {
		run := gsttest.LaunchQuiet(b, 10*time.Minute, pipeline(frames, props))
		run.MustSucceed(b)
		if got := len(gsttest.ReadResults(b, results, "json")); got != frames {
			b.Fatalf("element scored %d frames, want %d", got, frames)
		}
		return run.CPU - startup
	}
	off, on := time.Hour, time.Hour
	b.ResetTimer()
	for i := range b.N {
		if i%2 == 0 {
			off = min(off, cpu(""))
			on = min(on, cpu(analyticsOn))
		} else {
			on = min(on, cpu(analyticsOn))
			off = min(off, cpu(""))
		}
	}
	perFrame := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(frames) }
	b.ReportMetric(perFrame(off), "off-cpu-µs/frame")
	b.ReportMetric(perFrame(on), "on-cpu-µs/frame")
	b.ReportMetric(100*(perFrame(on)/perFrame(off)-1), "analytics-cpu-overhead-%")
}

// BenchmarkAnalyticsPerFrame is the analytics' own share of the above,
// free of a whole process's noise: a Monitor configured as analyticsOn
// (a 30-frame window with 4 percentiles every frame, alerts) and a
// subscriber, per frame, on scores shaped like the flower pair's.
//
//	go test -run XXX -bench AnalyticsPerFrame ./tests/pipelines
func BenchmarkAnalyticsPerFrame(b *testing.B) {
	m, err := analytics.New(analytics.Config{WindowFrames: 30, WindowStep: 1, Percentiles: []float64{1, 5, 10, 50},
		AlertThreshold: 98.6, AlertFrames: 1})
	if err != nil {
		b.Fatal(err)
	}
	events := 0
	defer m.Subscribe(func(analytics.Event) { events++ })()
	b.ReportAllocs()
	for i := range b.N {
		score := 98.6 + float64(i%13-6)*0.1
		m.Add(analytics.Sample{Index: i, RunningTime: time.Duration(i) * time.Second / 24, Model: "vmaf", Score: score})
	}
	if b.N > 30 && events < b.N-30 {
		b.Fatalf("%d events for %d frames", events, b.N)
	}
}
