package vmaf

import (
	"fmt"
	"math"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkContext scores 8-bit 4:2:0 frames through a Context with the
// default model, as vmaf-score does, at the sizes of the README's speed table
// (golden frames, resampled where no golden pair has the size):
//
//	go test -run '^$' -bench Context -benchtime 60x ./vmaf
func BenchmarkContext(b *testing.B) {
	for _, s := range []struct {
		width, height int
		clips         []string // golden pairs to take frames from, first found
	}{
		{576, 324, []string{"flower_576x324_x264_crf22"}},
		{1280, 720, []string{"rain_1280x720_x265_crf30"}},
		{1920, 1080, []string{"dune_1920x1080_x264_crf38", "rain_1280x720_x265_crf30"}},
		{3840, 2160, []string{"dune_1920x1080_x264_crf38", "rain_1280x720_x265_crf30"}},
	} {
		var ref, dist []*Picture // made once a size, on first use
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%dx%d/threads=%d", s.width, s.height, threads), func(b *testing.B) {
				if ref == nil {
					ref, dist = benchPair(b, s.width, s.height, 4, s.clips...)
				}
				benchContext(b, ref, dist, threads)
			})
		}
	}
}

// benchContext times b.N pairs through one Context after a warm-up, so that
// allocs/op counts steady-state allocations only, not every worker's first
// frame. The models are vmaf_v0.6.1 unless given.
func benchContext(b *testing.B, ref, dist []*Picture, threads int, models ...*Model) {
	if len(models) == 0 {
		m, err := BuiltinModel("vmaf_v0.6.1")
		if err != nil {
			b.Fatal(err)
		}
		models = []*Model{m}
	}
	var results atomic.Int64
	ctx, err := NewContext(Config{Models: models, Threads: threads, Engine: "native",
		OnResult: func(*Result) { results.Add(1) }})
	if err != nil {
		b.Fatal(err)
	}
	defer ctx.Close()
	// A frame's result waits for the next frame (motion2), so the warm-up
	// is over when all but its last frame have been delivered.
	warm := 2*threads + 2
	for i := 0; i < warm; i++ {
		if err := ctx.Submit(ref[i%len(ref)], dist[i%len(dist)], nil); err != nil {
			b.Fatal(err)
		}
	}
	for deadline := time.Now().Add(time.Minute); results.Load() < int64(warm-1); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			b.Fatalf("warm-up: %d of %d results after a minute", results.Load(), warm-1)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := warm; i < warm+b.N; i++ {
		if err := ctx.Submit(ref[i%len(ref)], dist[i%len(dist)], nil); err != nil {
			b.Fatal(err)
		}
	}
	if err := ctx.Flush(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
}

// BenchmarkFrameLatency submits 1920x1080 frames one at a time, each only
// once the previous one is scored, as a live source slower than the engine
// does, and reports the time a frame takes: with two threads a frame's
// extractors run side by side.
//
//	go test -run '^$' -bench FrameLatency -benchtime 40x ./vmaf
func BenchmarkFrameLatency(b *testing.B) {
	ref, dist := benchPair(b, 1920, 1080, 4, "dune_1920x1080_x264_crf38", "rain_1280x720_x265_crf30")
	m, err := BuiltinModel("vmaf_v0.6.1")
	if err != nil {
		b.Fatal(err)
	}
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			results := make(chan int, 4)
			ctx, err := NewContext(Config{Models: []*Model{m}, Threads: threads, Engine: "native",
				OnResult: func(r *Result) { results <- r.Index }})
			if err != nil {
				b.Fatal(err)
			}
			defer ctx.Close()
			// Frame i's result needs frame i+1's motion, so submitting
			// frame i+1 and waiting for result i times frame i+1.
			submit := func(i int) {
				if err := ctx.Submit(ref[i%len(ref)], dist[i%len(dist)], nil); err != nil {
					b.Fatal(err)
				}
			}
			submit(0)
			var total time.Duration
			least := time.Duration(math.MaxInt64)
			for i := 1; i <= b.N; i++ {
				t0 := time.Now()
				submit(i)
				if got := <-results; got != i-1 {
					b.Fatalf("result %d, want %d", got, i-1)
				}
				d := time.Since(t0)
				total += d
				least = min(least, d)
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/frame")
			// On a shared machine the mean carries every wait for a
			// core; the least frame is the latency when both cores
			// were free for it.
			b.ReportMetric(float64(least.Microseconds())/1000, "min-ms/frame")
		})
	}
}
