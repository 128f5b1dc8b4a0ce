package pipeline

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/vmaf"
)

// benchPair makes a 1920x1080 4:2:0 pair at depth bits: a textured
// reference and a distorted copy with noise of amplitude amp (in 8-bit
// codes), so that a larger amp scores lower.
func benchPair(tb testing.TB, depth int, seed uint64, amp int) (ref, dist *vmaf.Picture) {
	tb.Helper()
	ref, err := vmaf.NewPicture(1920, 1080, depth, vmaf.Chroma420)
	if err != nil {
		tb.Fatal(err)
	}
	dist, _ = vmaf.NewPicture(1920, 1080, depth, vmaf.Chroma420)
	rng := rand.New(rand.NewPCG(seed, 7))
	up := depth - 8
	for i := range 3 {
		w, h := ref.PlaneSize(i)
		for y := range h {
			for x := range w {
				v := 128 + int(60*float64((x*7+y*3+int(seed)*11)%97)/97) - 30 + rng.IntN(9)
				d := min(max(v+rng.IntN(2*amp+1)-amp, 0), 255)
				if depth > 8 {
					o := y*ref.Strides[i] + 2*x
					ref.Planes[i][o], ref.Planes[i][o+1] = byte(v<<up), byte(v<<up>>8)
					dist.Planes[i][o], dist.Planes[i][o+1] = byte(d<<up), byte(d<<up>>8)
				} else {
					ref.Planes[i][y*ref.Strides[i]+x], dist.Planes[i][y*dist.Strides[i]+x] = byte(v), byte(d)
				}
			}
		}
	}
	return ref, dist
}

// BenchmarkWorstFrameStoreMemory1080p fills a store of DefaultWorstFrames
// with 1920x1080 frames and reports the Go heap it holds: per frame and
// for the whole store.
//
//	go test -run '^$' -bench WorstFrameStoreMemory -benchtime 3x ./pipeline/
func BenchmarkWorstFrameStoreMemory1080p(b *testing.B) {
	for _, depth := range []int{8, 10} {
		b.Run(fmt.Sprintf("%dbit", depth), func(b *testing.B) {
			ref, dist := benchPair(b, depth, 1, 6)
			res := &vmaf.Result{Models: []*vmaf.Model{modelA}, Metrics: []vmaf.Metric{{Name: "vmaf", Value: 0}}}
			var perStore, kept float64
			for range b.N {
				w := newWorstStore(DefaultWorstFrames)
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				for i := range DefaultWorstFrames {
					// Each frame scores lower than the last, so each enters.
					res.Metrics[0].Value = float64(100 - i)
					w.offer(i, Untimed, res, res.Metrics[0].Value, &[2]Frame{{Picture: ref}, {Picture: dist}})
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				perStore = float64(after.HeapAlloc - before.HeapAlloc)
				kept = 0
				for _, f := range w.list(DefaultWorstFrames) {
					kept += float64(f.Images.Bytes())
				}
				runtime.KeepAlive(w)
			}
			b.ReportMetric(perStore, "heapB/store")
			b.ReportMetric(kept, "planeB/store")
			b.ReportMetric(perStore/DefaultWorstFrames, "heapB/frame")
		})
	}
}

// BenchmarkThumbs1080p is the cost of a frame entering the worst set: its
// reference, distorted and difference planes reduced to 640x360.
//
//	go test -run '^$' -bench Thumbs1080p ./pipeline/
func BenchmarkThumbs1080p(b *testing.B) {
	for _, depth := range []int{8, 10} {
		b.Run(fmt.Sprintf("%dbit", depth), func(b *testing.B) {
			ref, dist := benchPair(b, depth, 1, 6)
			b.ReportAllocs()
			c0 := cpuTime()
			b.ResetTimer()
			for range b.N {
				newThumbs(ref, dist, ThumbMaxWidth)
			}
			b.ReportMetric(float64((cpuTime()-c0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// BenchmarkRunnerWorstFrames scores 1920x1080 8-bit pairs with the native
// engine (2 threads) through a Runner, with the worst-frame store off; on
// with its places taken by worse frames, so that no frame enters (the
// cost every frame pays); on with scores in no order (over these 24
// frames about half enter, most while the set fills); and on with every
// frame scoring lower than the one before, so that every frame enters and
// is downscaled: the worst case. The bounded-pool cases give the frames a
// HoldLimit, as the element does for buffers from a pool with a maximum:
// with the store on, each scored pair is then copied rather than held.
//
//	go test -run '^$' -bench RunnerWorstFrames -benchtime 3x -count 2 ./pipeline/
func BenchmarkRunnerWorstFrames(b *testing.B) {
	const frames = 24
	m, err := vmaf.BuiltinModel("vmaf_v0.6.1")
	if err != nil {
		b.Fatal(err)
	}
	// Noise amplitudes: rising makes every frame worse than the last.
	rising := make([]int, frames)
	for i := range rising {
		rising[i] = 1 + i
	}
	shuffled := append([]int(nil), rising...)
	rand.New(rand.NewPCG(3, 3)).Shuffle(frames, func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	pairs := map[string][][2]*vmaf.Picture{}
	for _, order := range []struct {
		name string
		amps []int
	}{{"shuffled", shuffled}, {"rising", rising}} {
		for i, a := range order.amps {
			r, d := benchPair(b, 8, uint64(i), a)
			pairs[order.name] = append(pairs[order.name], [2]*vmaf.Picture{r, d})
		}
	}
	for _, tc := range []struct {
		name  string
		worst int
		order string
		pool  int // the frames' HoldLimit: from a bounded pool when positive
	}{
		{"off", 0, "shuffled", 0},
		{"on-none-enter", -DefaultWorstFrames, "shuffled", 0},
		{"off-bounded-pool", 0, "shuffled", 4},
		{"on-none-enter-bounded-pool", -DefaultWorstFrames, "shuffled", 4},
		{"on-shuffled", DefaultWorstFrames, "shuffled", 0},
		{"off-rising", 0, "rising", 0},
		{"on-rising", DefaultWorstFrames, "rising", 0},
	} {
		b.Run(tc.name, func(b *testing.B) {
			entered := 0
			c0 := cpuTime()
			for range b.N {
				r, err := New(Config{Scorer: vmaf.Config{Models: []*vmaf.Model{m}, Threads: 2, Engine: "native"},
					Pairing: PairByOrder, WorstFrames: max(tc.worst, -tc.worst)})
				if err != nil {
					b.Fatal(err)
				}
				if tc.worst < 0 {
					// Worse frames than any to come fill the images' places:
					// every frame costs the comparison and the later release
					// of its buffers, none a downscale.
					res := &vmaf.Result{Models: []*vmaf.Model{m}, Metrics: []vmaf.Metric{{Name: m.Name, Value: -1}}}
					for i := range -tc.worst {
						r.worst.offer(-1-i, Untimed, res, -1, &[2]Frame{})
					}
				}
				for _, p := range pairs[tc.order] {
					if err := r.Push(Ref, Frame{Picture: p[0], Timing: Untimed, HoldLimit: tc.pool}); err != nil {
						b.Fatal(err)
					}
					if err := r.Push(Dist, Frame{Picture: p[1], Timing: Untimed, HoldLimit: tc.pool}); err != nil {
						b.Fatal(err)
					}
				}
				if err := r.Finish(); err != nil {
					b.Fatal(err)
				}
				r.worst.mu.Lock()
				entered = r.worst.made
				r.worst.mu.Unlock()
				r.Close()
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*frames), "ms/frame")
			b.ReportMetric(float64((cpuTime()-c0).Microseconds())/1000/float64(b.N*frames), "cpu-ms/frame")
			b.ReportMetric(float64(entered)/frames, "downscaled/frame")
		})
	}
}

// cpuTime is the process's user and system time so far: on a machine
// shared with other work, a steadier measure than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
