package pipelines

import (
	"context"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vmafsink/vmafsink/internal/spareprocs"
	"github.com/vmafsink/vmafsink/vmaf"
)

// BenchmarkMCPHeavyReadsScoring scores 1280x720 10-bit flat out for a few
// seconds with the control plane attached (worst frames kept, workers
// lowered, as the element and vmaf-score run them), undisturbed and under
// the attacks that took scoring from 50 to 4-26 frames/s: four sessions
// with four vmaf_worst_frames {n:32, images:all} each in flight, again and
// again; and a mixed flood of score ranges, long score lists, diagnoses
// and status. It reports frames/s, the expensive reads answered and those
// refused as busy:
//
//	flock /tmp/bench.lock go test -run '^$' -bench MCPHeavyReadsScoring -benchtime 1x ./tests/pipelines
func BenchmarkMCPHeavyReadsScoring(b *testing.B) {
	ref, dist := mcpFrames(b, "rain_1280x720_ref"), mcpFrames(b, "rain_1280x720_x265_crf30")
	const runFor = 8 * time.Second
	for _, attack := range []string{"none", "worst-images", "mixed"} {
		b.Run("attack="+attack, func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
			spareprocs.Reserve(2) // as control/attach does
			var fps, answered, busy float64
			for range b.N {
				f, a, bz := heavyRun(b, ref, dist, attack, runFor)
				fps, answered, busy = fps+f, answered+a, busy+bz
			}
			n := float64(b.N)
			b.ReportMetric(fps/n, "frames/s")
			b.ReportMetric(answered/n, "heavy-answered")
			b.ReportMetric(busy/n, "heavy-busy")
			b.ReportMetric(loadAverage(), "load1")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// heavyRun scores for d under an attack and returns frames/s and the
// attackers' expensive reads answered and refused as busy.
func heavyRun(b *testing.B, ref, dist []*vmaf.Picture, attack string, d time.Duration) (fps, answered, busy float64) {
	m := mcpStart(b, mcpConfig{threads: 2, worstFrames: 8, background: true})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var ok, refused atomic.Int64
	call := func(cs *mcp.ClientSession, tool string, args map[string]any) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		switch {
		case err != nil:
		case res.IsError && strings.Contains(mcpText(res), "busy"):
			refused.Add(1)
		case !res.IsError:
			ok.Add(1)
		}
	}
	if attack != "none" {
		for range 4 {
			cs, _ := mcpConnect(b, m.sock)
			for k := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; ctx.Err() == nil; i++ {
						switch {
						case attack == "worst-images":
							call(cs, "vmaf_worst_frames", map[string]any{"n": 32, "images": "all"})
						case (i+k)%4 == 0:
							call(cs, "vmaf_score", map[string]any{"from": 0, "to": 9999})
						case (i+k)%4 == 1:
							call(cs, "vmaf_score", map[string]any{"last": 1000, "worst": 100})
						case (i+k)%4 == 2:
							call(cs, "vmaf_diagnose", map[string]any{"from": 0, "to": 200})
						default:
							call(cs, "vmaf_worst_frames", map[string]any{"n": 32, "images": "all"})
							cs.CallTool(ctx, &mcp.CallToolParams{Name: "vmaf_status"})
						}
					}
				}()
			}
		}
	}
	// Scoring runs for d once the attackers are under way; the first
	// frames (the engine starting) are left out.
	feed := m.feed(ref, dist, 0, 1000)
	time.Sleep(time.Second)
	n0, t0 := len(m.records()), time.Now()
	time.Sleep(d)
	n1, t1 := len(m.records()), time.Now()
	m.stopFeed()
	cancel()
	wg.Wait()
	if st := <-feed; st.err != nil {
		b.Fatal(st.err)
	}
	return float64(n1-n0) / t1.Sub(t0).Seconds(), float64(ok.Load()), float64(refused.Load())
}

// mcpText is a tool result's text blocks, joined.
func mcpText(res *mcp.CallToolResult) string {
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return strings.Join(texts, " ")
}
