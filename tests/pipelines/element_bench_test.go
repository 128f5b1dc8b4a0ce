package pipelines

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
	"github.com/vmafsink/vmafsink/vmaf"
)

// BenchmarkElementVsEngine scores the same frame pairs of I420 (the
// golden flower pair as raw files: 480 at 576x324, and scaled up, 192 at
// 1280x720 and at 1920x1080, enough for the first-use costs of a run to
// fade) two ways, with 2 scoring threads each:
//
//   - engine: a Go loop that reads the frames from the raw files and
//     submits them to vmaf.Context directly, recycling its frame buffers;
//   - element: gst-launch-1.0, filesrc (one read a frame) ! rawvideoparse
//     on each file into vmafsink (frame messages posted, a results file
//     written), less gst-launch's start-up and shutdown (the same pipeline
//     with one frame). gst-launch runs without -m: printing every message
//     is gst-launch's cost, not the element's (2-3% of the run at
//     576x324); the results file says how many frames were scored.
//
// Each iteration runs both, alternately, so a shared machine's changing
// load hits both alike. On a loaded machine wall time measures the
// scheduler's share as much as the work (the element's process has more
// threads), so the CPU time per frame (user+system) is reported too;
// "sources" is the CPU the same sources cost into fakesink (start-up
// left out likewise), which the element-minus-sources figure leaves out.
// element-fps-overhead-% is how much longer the element's run took.
//
//	go test -run XXX -bench ElementVsEngine -benchtime 5x ./tests/pipelines
func BenchmarkElementVsEngine(b *testing.B) {
	const threads = 2
	model, err := vmaf.ParseModelSpec("vmaf_v0.6.1")
	if err != nil {
		b.Fatal(err)
	}
	var scenarios []benchScenario
	// filesrc ! rawvideoparse allocates every buffer afresh. The larger
	// sizes are the flower pair scaled up, played fewer times, so every
	// run stays a few seconds long.
	for _, sz := range []struct{ w, h, repeat int }{{576, 324, 10}, {1280, 720, 4}, {1920, 1080, 4}} {
		ref, dist := gsttest.Clip(b, "flower_576x324_ref"), gsttest.Clip(b, "flower_576x324_x264_crf22")
		if sz.w != 576 {
			ref, dist = gsttest.ScaledClip(b, "flower_576x324_ref", sz.w, sz.h), gsttest.ScaledClip(b, "flower_576x324_x264_crf22", sz.w, sz.h)
		}
		refSrc, n := gsttest.RepeatedSource(b, ref, sz.repeat)
		distSrc, _ := gsttest.RepeatedSource(b, dist, sz.repeat)
		scenarios = append(scenarios, benchScenario{fmt.Sprintf("rawfiles-%dx%d", sz.w, sz.h), sz.w, sz.h,
			refSrc, distSrc, gsttest.RawPath(refSrc), gsttest.RawPath(distSrc), n, false})
	}
	for _, sc := range scenarios {
		b.Run(sc.name, func(b *testing.B) {
			benchElementVsEngine(b, sc, model, threads, "")
		})
	}
}

// benchScenario is one of BenchmarkElementVsEngine's inputs.
type benchScenario struct {
	name            string
	width, height   int
	refSrc, distSrc string // gst-launch fragments producing the frames
	refRaw, distRaw string // the same frames as raw files
	frames          int
	noRef           bool // the distorted stream alone (no-reference=true)
}

// benchElementVsEngine is one scenario of BenchmarkElementVsEngine (and
// of BenchmarkElementNoReference): the engine scoring model on the raw
// files against the element; props are the element's further properties.
// In no-reference mode the engine is given the distorted frames as both
// sides, as the element's no-reference mode gives them.
func benchElementVsEngine(b *testing.B, sc benchScenario, model *vmaf.Model, threads int, props string) {
	// identity's eos-after counts the buffer it ends on.
	pipeline := func(frames int, sink string) string {
		dist := fmt.Sprintf("%s ! identity eos-after=%d ! %s", sc.distSrc, frames+1, strings.ReplaceAll(sink, "ref", "dist"))
		if sc.noRef {
			return dist
		}
		return fmt.Sprintf("%s ! identity eos-after=%d ! %s %s", sc.refSrc, frames+1, sink, dist)
	}
	const vmafsink = "v.ref_sink"
	results := filepath.Join(b.TempDir(), "scores.json")
	tail := fmt.Sprintf(" vmafsink name=v threads=%d results-filename=%s results-format=json%s", threads, results, props)
	// quickest is the shortest wall and CPU time of three runs.
	quickest := func(desc string) (wall, cpu time.Duration) {
		wall, cpu = time.Hour, time.Hour
		for range 3 {
			t0 := time.Now()
			run := gsttest.LaunchQuiet(b, time.Minute, desc)
			wall = min(wall, time.Since(t0))
			run.MustSucceed(b)
			cpu = min(cpu, run.CPU)
		}
		return wall, cpu
	}
	startup, startupCPU := quickest(pipeline(1, vmafsink) + tail)
	// The sources' own CPU per frame, less gst-launch's start-up
	// (the same pipeline with one frame), as for the element.
	_, sourcesStartup := quickest(pipeline(1, "fakesink name=ref"))
	sources := gsttest.LaunchQuiet(b, time.Minute, pipeline(sc.frames, "fakesink name=ref"))
	sources.MustSucceed(b)
	sourcesCPU := max(sources.CPU-sourcesStartup, 0)

	var engWall, engCPU, elWall, elCPU time.Duration
	b.ResetTimer()
	for range b.N {
		cpu0, t0 := selfCPU(b), time.Now()
		if got := scoreRawFiles(b, sc.refRaw, sc.distRaw, sc.width, sc.height, model, threads); got != sc.frames {
			b.Fatalf("engine scored %d frames, want %d", got, sc.frames)
		}
		engWall += time.Since(t0)
		engCPU += selfCPU(b) - cpu0

		t0 = time.Now()
		run := gsttest.LaunchQuiet(b, 10*time.Minute, pipeline(sc.frames, vmafsink)+tail)
		elWall += time.Since(t0) - startup
		run.MustSucceed(b)
		if got := len(gsttest.ReadResults(b, results, "json")); got != sc.frames {
			b.Fatalf("element scored %d frames, want %d", got, sc.frames)
		}
		elCPU += run.CPU - startupCPU
	}
	frames := float64(sc.frames * b.N)
	engFPS, elFPS := frames/engWall.Seconds(), frames/elWall.Seconds()
	perFrame := func(d time.Duration) float64 { return float64(d.Microseconds()) / frames }
	b.ReportMetric(engFPS, "engine-frames/s")
	b.ReportMetric(elFPS, "element-frames/s")
	b.ReportMetric(perFrame(engCPU), "engine-cpu-µs/frame")
	b.ReportMetric(perFrame(elCPU), "element-cpu-µs/frame")
	b.ReportMetric(perFrame(sourcesCPU*time.Duration(b.N)), "sources-cpu-µs/frame")
	b.ReportMetric(100*(perFrame(elCPU-sourcesCPU*time.Duration(b.N))/perFrame(engCPU)-1), "element-cpu-overhead-%")
	b.ReportMetric(100*(engFPS/elFPS-1), "element-fps-overhead-%")
}

// scoreRawFiles is the engine-alone side of BenchmarkElementVsEngine: it
// reads 8-bit 4:2:0 frames from two raw files and scores them.
func scoreRawFiles(b *testing.B, refPath, distPath string, w, h int, model *vmaf.Model, threads int) int {
	open := func(p string) *bufio.Reader {
		f, err := os.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { f.Close() })
		return bufio.NewReaderSize(f, 1<<20)
	}
	refIn, distIn := open(refPath), open(distPath)
	n := 0
	ctx, err := vmaf.NewContext(vmaf.Config{Models: []*vmaf.Model{model}, Threads: threads,
		OnResult: func(*vmaf.Result) { n++ }})
	if err != nil {
		b.Fatal(err)
	}
	// Frame buffers go back to free when the engine releases them.
	free := make(chan [2]*vmaf.Picture, threads+8)
	for range cap(free) {
		r, _ := vmaf.NewPicture(w, h, 8, vmaf.Chroma420)
		d, _ := vmaf.NewPicture(w, h, 8, vmaf.Chroma420)
		free <- [2]*vmaf.Picture{r, d}
	}
	read := func(in *bufio.Reader, p *vmaf.Picture) bool {
		for _, plane := range p.Planes {
			if _, err := io.ReadFull(in, plane); err != nil {
				return false
			}
		}
		return true
	}
	for {
		pair := <-free
		if !read(refIn, pair[0]) || !read(distIn, pair[1]) {
			break
		}
		if err := ctx.Submit(pair[0], pair[1], func() { free <- pair }); err != nil {
			b.Fatal(err)
		}
	}
	if err := ctx.Flush(); err != nil {
		b.Fatal(err)
	}
	return n
}

// selfCPU is the user and system time this process has used.
func selfCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
