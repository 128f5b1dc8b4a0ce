package pipelines

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/trace"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/internal/spareprocs"
	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
	"github.com/vmafsink/vmafsink/vmaf"
)

// frames1080 tiles a golden pair's frames into 1920x1080 pictures: real
// texture and distortion at the size the latency target is set for.
func frames1080(t testing.TB) (ref, dist []*vmaf.Picture) {
	t.Helper()
	tile := func(src *vmaf.Picture) *vmaf.Picture {
		p, err := vmaf.NewPicture(1920, 1080, 8, vmaf.Chroma420)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			w, h := p.PlaneSize(i)
			sw, sh := src.PlaneSize(i)
			for y := range h {
				row := p.Planes[i][y*p.Strides[i]:]
				srow := src.Planes[i][(y%sh)*src.Strides[i]:]
				for x := 0; x < w; x += sw {
					copy(row[x:min(x+sw, w)], srow[:sw])
				}
			}
		}
		return p
	}
	r, d := mcpFrames(t, "flower_576x324_ref"), mcpFrames(t, "flower_576x324_x264_crf22")
	for i := range 12 {
		ref, dist = append(ref, tile(r[i])), append(dist, tile(d[i]))
	}
	return ref, dist
}

// statusRoundTrips calls vmaf_status every 2 ms while a pipeline scores
// 1080p flat out with threads workers, and returns the round-trip times
// and the frames scored per second meanwhile. With inProcess the client
// shares the server's process (and Go scheduler); otherwise it runs in a
// child process, as vmafctl or an agent would.
func statusRoundTrips(t testing.TB, calls int, inProcess bool, threads int) ([]time.Duration, float64) {
	ref, dist := frames1080(t)
	run := mcpStart(t, mcpConfig{threads: threads})
	done := run.feed(ref, dist, 0, 1000)
	defer func() {
		run.stopFeed()
		<-done
	}()
	// Let scoring get going.
	for len(run.records()) < 2 {
		time.Sleep(10 * time.Millisecond)
	}
	before, t0 := len(run.records()), time.Now()
	var rtts []time.Duration
	if inProcess {
		cs, _ := mcpConnect(t, run.sock)
		rtts = pollStatus(t, cs, calls)
	} else {
		rtts = pollStatusProcess(t, run.sock, calls)
	}
	n, elapsed := len(run.records())-before, time.Since(t0)
	if calls >= 100 && n < 2 {
		t.Fatalf("only %d frames scored during the measurement: not under load", n)
	}
	return rtts, float64(n) / elapsed.Seconds()
}

// pollStatus calls vmaf_status calls times, 2 ms apart, and returns the
// round-trip times.
func pollStatus(t testing.TB, cs *mcp.ClientSession, calls int) []time.Duration {
	rtts := make([]time.Duration, 0, calls)
	ctx := context.Background()
	for range calls {
		t0 := time.Now()
		// The region marks each call in a runtime trace (go test -trace),
		// so that slow calls can be found and taken apart.
		region := trace.StartRegion(ctx, "vmaf_status")
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "vmaf_status"})
		region.End()
		if err != nil || res.IsError {
			t.Fatalf("vmaf_status: %v %v", err, res)
		}
		rtts = append(rtts, time.Since(t0))
		time.Sleep(2 * time.Millisecond) // a polling agent, not a flood
	}
	return rtts
}

// pollerEnv names the socket a child process polls (see
// TestMCPStatusPollerProcess) and how many calls it makes.
const (
	pollerSocket = "VMAFSINK_TEST_POLL_SOCKET"
	pollerCalls  = "VMAFSINK_TEST_POLL_CALLS"
)

// pollStatusProcess runs pollStatus in a child process (this test binary
// again) and reads its round-trip times back.
func pollStatusProcess(t testing.TB, sock string, calls int) []time.Duration {
	cmd := exec.Command(os.Args[0], "-test.run=^TestMCPStatusPollerProcess$", "-test.v")
	cmd.Env = append(os.Environ(), pollerSocket+"="+sock, pollerCalls+"="+strconv.Itoa(calls))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("poller process: %v\n%s", err, out)
	}
	var rtts []time.Duration
	for _, line := range strings.Split(string(out), "\n") {
		if ns, ok := strings.CutPrefix(line, "rtt-ns "); ok {
			v, err := strconv.ParseInt(ns, 10, 64)
			if err != nil {
				t.Fatalf("poller process: %q: %v", line, err)
			}
			rtts = append(rtts, time.Duration(v))
		}
	}
	if len(rtts) != calls {
		t.Fatalf("poller process reported %d round trips, want %d\n%s", len(rtts), calls, out)
	}
	return rtts
}

// TestMCPStatusPollerProcess is the child half of pollStatusProcess: it
// polls the socket named in its environment and prints each round trip.
// Run directly, it has nothing to poll and skips.
func TestMCPStatusPollerProcess(t *testing.T) {
	sock := os.Getenv(pollerSocket)
	if sock == "" {
		t.Skip("run by the vmaf_status latency benchmark as its client process")
	}
	calls, err := strconv.Atoi(os.Getenv(pollerCalls))
	if err != nil {
		t.Fatalf("%s: %v", pollerCalls, err)
	}
	cs, _ := mcpConnect(t, sock)
	for _, d := range pollStatus(t, cs, calls) {
		fmt.Printf("rtt-ns %d\n", d.Nanoseconds())
	}
}

// TestMCPStatusWhileScoring1080p: vmaf_status answers every call while
// the pipeline scores 1080p flat out, and scoring goes on meanwhile. The
// latency target (p99 < 5 ms) is a benchmark's to measure
// (BenchmarkMCPStatusWhileScoring1080p); the figures are logged here.
func TestMCPStatusWhileScoring1080p(t *testing.T) {
	if testing.Short() {
		t.Skip("scores 1080p flat out")
	}
	before := loadAverage()
	rtts, _ := statusRoundTrips(t, 500, true, 2)
	after := loadAverage()
	p50, p99, worst := percentile(rtts, 0.5), percentile(rtts, 0.99), percentile(rtts, 1)
	t.Logf("vmaf_status round trip while scoring 1080p flat out (%d calls): p50 %v, p99 %v, max %v (load average %.1f..%.1f on %d CPUs)",
		len(rtts), p50, p99, worst, before, after, runtime.NumCPU())
}

// loadAverage reads the one-minute load average (0 where unknown).
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	var l float64
	fmt.Sscan(string(b), &l)
	return l
}

// BenchmarkMCPStatusWhileScoring1080p reports the round-trip percentiles
// as metrics, for a client in the server's process (sharing its Go
// scheduler) and for one in a process of its own (as vmafctl or an agent
// is), with the frames scored per second meanwhile and the one-minute load
// average at the end. Scoring runs one worker per CPU, and also one
// worker fewer, which leaves the control plane a CPU:
//
//	go test -run '^$' -bench MCPStatus -benchtime 500x ./tests/pipelines
func BenchmarkMCPStatusWhileScoring1080p(b *testing.B) {
	type setup struct {
		name      string
		inProcess bool
		threads   int
	}
	var setups []setup
	for _, threads := range []int{runtime.NumCPU(), max(runtime.NumCPU()-1, 1)} {
		setups = append(setups,
			setup{fmt.Sprintf("threads=%d/client=in-process", threads), true, threads},
			setup{fmt.Sprintf("threads=%d/client=process", threads), false, threads})
	}
	for _, c := range setups {
		b.Run(c.name, func(b *testing.B) {
			// The benchmark harness sets GOMAXPROCS for every run (the
			// -cpu list), undoing the spare processors control/attach asks
			// for; ask again, as a host running the element would have it.
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
			spareprocs.Reserve(2) // as control/attach does
			rtts, fps := statusRoundTrips(b, b.N, c.inProcess, c.threads)
			b.ReportMetric(float64(percentile(rtts, 0.5).Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(percentile(rtts, 0.99).Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(percentile(rtts, 1).Microseconds())/1000, "max-ms")
			b.ReportMetric(fps, "frames/s")
			b.ReportMetric(loadAverage(), "load1")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkMCPSwap swaps the model back and forth over the socket while a
// pipeline scores 576x324 at 25 frames/s, and reports how long preparing
// a swap takes (request to reply: resolve, load, engine check, queue),
// how many frame boundaries passed between the model being ready and the
// swap taking effect (0: the first one), and the longest gap between
// frames within 3 frames of a swap relative to the median frame interval,
// beside the same figure for the frames away from any swap, and the
// duration of the push that applied a swap beside the median push:
//
//	go test -run '^$' -bench MCPSwap -benchtime 10x ./tests/pipelines
func BenchmarkMCPSwap(b *testing.B) {
	const interval = 40 * time.Millisecond
	ref, dist := mcpFrames(b, "flower_576x324_ref"), mcpFrames(b, "flower_576x324_x264_crf22")
	run := mcpStart(b, mcpConfig{})
	cs, _ := mcpConnect(b, run.sock)
	done := run.feed(ref, dist, interval, 1000)
	type swapTimes struct {
		ready time.Time
		frame int
	}
	var swaps []swapTimes
	var prepare []time.Duration
	models := []string{"vmaf_v0.6.1neg", "vmaf_v0.6.1"}
	for i := 0; b.Loop(); i++ {
		mcpWaitStatus(b, cs, time.Minute, "frames", func(st control.Status) bool { return st.FramesScored >= uint64(5*(i+1)) })
		t0 := time.Now()
		var cmd control.Command
		if msg := mcpCall(b, cs, "vmaf_request_model_swap", map[string]any{"model": models[i%2]}, &cmd); msg != "" {
			b.Fatal(msg)
		}
		ready := time.Now()
		prepare = append(prepare, ready.Sub(t0))
		// The status keeps the latest swaps; find this one by its command.
		first := -1
		mcpWaitStatus(b, cs, time.Minute, "swap applied", func(st control.Status) bool {
			for _, sw := range st.Swaps {
				if sw.Command == cmd.ID && sw.FirstFrame >= 0 {
					first = int(sw.FirstFrame)
				}
			}
			return first >= 0
		})
		swaps = append(swaps, swapTimes{ready, first})
	}
	run.stopFeed()
	fs := <-done
	var gaps []time.Duration
	for i := 1; i < len(fs.start); i++ {
		gaps = append(gaps, fs.start[i].Sub(fs.start[i-1]))
	}
	med := median(gaps)
	lateBoundaries, worstGap := 0, time.Duration(0)
	near := map[int]bool{}
	for _, s := range swaps {
		lateBoundaries = max(lateBoundaries, s.frame-firstStartedAfter(fs.start, s.ready))
		for i := max(s.frame-3, 1); i <= min(s.frame+3, len(gaps)); i++ {
			worstGap = max(worstGap, gaps[i-1])
			near[i-1] = true
		}
	}
	// The same measure away from any swap: what the machine does anyway.
	var worstElsewhere time.Duration
	for i, g := range gaps {
		if !near[i] {
			worstElsewhere = max(worstElsewhere, g)
		}
	}
	b.ReportMetric(float64(worstElsewhere)/float64(med), "no-swap-gap/interval")
	// The boundary's own cost: the push that applied a swap against the
	// median push (both push the pair; the former also swaps the model).
	var swapPush time.Duration
	for _, s := range swaps {
		if s.frame < len(fs.pushed) {
			swapPush = max(swapPush, fs.pushed[s.frame])
		}
	}
	b.ReportMetric(float64(swapPush.Microseconds()), "swap-push-µs")
	b.ReportMetric(float64(median(fs.pushed).Microseconds()), "median-push-µs")
	b.ReportMetric(float64(percentile(prepare, 0.5).Microseconds())/1000, "prepare-ms")
	b.ReportMetric(float64(lateBoundaries), "late-boundaries")
	b.ReportMetric(float64(worstGap)/float64(med), "swap-gap/interval")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkMCPStatusElement1080p is BenchmarkMCPStatusWhileScoring1080p
// against the element itself, in gst-launch, with a client process:
// besides the scoring workers, the host's own streaming threads compete
// for the CPUs (here videotestsrc drawing 1080p frames, standing for the
// decoders of a real pipeline). Frames per second are the element's:
//
//	go test -run '^$' -bench MCPStatusElement -benchtime 500x ./tests/pipelines
func BenchmarkMCPStatusElement1080p(b *testing.B) {
	if _, err := exec.LookPath("gst-launch-1.0"); err != nil {
		b.Skip("gst-launch-1.0 is not installed")
	}
	sock := filepath.Join(b.TempDir(), "vmaf.sock")
	p := gsttest.Start(b, "videotestsrc pattern=ball num-buffers=1000000 ! video/x-raw,width=1920,height=1080,format=I420 ! "+
		"tee name=t ! queue ! v.ref_sink t. ! queue ! v.dist_sink vmafsink name=v mcp-uds="+sock)
	waitSocket(b, p, sock)
	cs, _ := mcpConnect(b, sock)
	st := mcpWaitStatus(b, cs, time.Minute, "scoring", func(st control.Status) bool { return st.FramesScored >= 2 })
	t0 := time.Now()
	rtts := pollStatusProcess(b, sock, b.N)
	var end control.Status
	if msg := mcpCall(b, cs, "vmaf_status", nil, &end); msg != "" {
		b.Fatal(msg)
	}
	b.ReportMetric(float64(percentile(rtts, 0.5).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(percentile(rtts, 0.99).Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(percentile(rtts, 1).Microseconds())/1000, "max-ms")
	b.ReportMetric(float64(end.FramesScored-st.FramesScored)/time.Since(t0).Seconds(), "frames/s")
	b.ReportMetric(loadAverage(), "load1")
	b.ReportMetric(0, "ns/op")
}
