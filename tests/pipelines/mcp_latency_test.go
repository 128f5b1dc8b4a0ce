package pipelines

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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

// statusRoundTrips calls vmaf_status back to back while a pipeline scores
// 1080p flat out, and returns the round-trip times.
func statusRoundTrips(t testing.TB, calls int) []time.Duration {
	ref, dist := frames1080(t)
	run := mcpStart(t, mcpConfig{})
	cs, _ := mcpConnect(t, run.sock)
	done := run.feed(ref, dist, 0, 1000)
	defer func() {
		run.stopFeed()
		<-done
	}()
	// Let scoring get going.
	for len(run.records()) < 2 {
		time.Sleep(10 * time.Millisecond)
	}
	rtts := make([]time.Duration, 0, calls)
	ctx := context.Background()
	for range calls {
		t0 := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "vmaf_status"})
		if err != nil || res.IsError {
			t.Fatalf("vmaf_status: %v %v", err, res)
		}
		rtts = append(rtts, time.Since(t0))
		time.Sleep(2 * time.Millisecond) // a polling agent, not a flood
	}
	if n := len(run.records()); n < 4 {
		t.Fatalf("only %d frames scored during the measurement: not under load", n)
	}
	return rtts
}

// TestMCPStatusLatency1080p: a vmaf_status round trip stays under 5 ms at
// the 99th percentile while the pipeline scores 1080p flat out. The tail
// is set by the operating system's scheduler once other processes want
// the CPUs too, so on a machine already loaded beyond its CPUs the
// figures are logged but not judged.
func TestMCPStatusLatency1080p(t *testing.T) {
	if testing.Short() {
		t.Skip("latency under load")
	}
	before := loadAverage()
	rtts := statusRoundTrips(t, 500)
	after := loadAverage()
	p50, p99, worst := percentile(rtts, 0.5), percentile(rtts, 0.99), percentile(rtts, 1)
	t.Logf("vmaf_status round trip while scoring 1080p flat out (%d calls): p50 %v, p99 %v, max %v (load average %.1f..%.1f on %d CPUs)",
		len(rtts), p50, p99, worst, before, after, runtime.NumCPU())
	if p99 <= 5*time.Millisecond {
		return
	}
	// Our own scoring adds about two to the load average.
	if busy := min(before, after) - 2; busy > float64(runtime.NumCPU())/2 {
		t.Skipf("p99 %v over 5 ms, but other processes keep %.1f CPUs busy; not judged", p99, busy)
	}
	t.Errorf("p99 %v, want < 5ms", p99)
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

// BenchmarkMCPStatusWhileScoring1080p reports the same figures as metrics:
//
//	go test -run '^$' -bench MCPStatus -benchtime 200x ./tests/pipelines
func BenchmarkMCPStatusWhileScoring1080p(b *testing.B) {
	rtts := statusRoundTrips(b, b.N)
	b.ReportMetric(float64(percentile(rtts, 0.5).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(percentile(rtts, 0.99).Microseconds())/1000, "p99-ms")
	b.ReportMetric(0, "ns/op")
}
