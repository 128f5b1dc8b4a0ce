package metrics

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/vmafsink/vmafsink/pipeline"
)

// runnerCollector reads the Runner when Prometheus scrapes: what it
// exports costs nothing per frame.
type runnerCollector struct {
	r       *pipeline.Runner
	scores  *scores
	rate    *rate
	clients func() int

	// swaps counts the swap events seen in Status.Swaps, by ID: the
	// history keeps the last 64, so a run that swaps more often than that
	// between two scrapes is undercounted.
	swapMu  sync.Mutex
	swaps   uint64
	swapMax uint64
}

var (
	descScored = prometheus.NewDesc("vmaf_frames_scored_total",
		"Frame pairs scored (published).", nil, nil)
	descSkipped = prometheus.NewDesc("vmaf_frames_skipped_total",
		"Frame pairs not scored because scoring was paused (pause-mode=skip).", nil, nil)
	descUnpaired = prometheus.NewDesc("vmaf_frames_unpaired_total",
		"Frames released without a partner from the other stream, by side (reference, distorted).", []string{"side"}, nil)
	descDropped = prometheus.NewDesc("vmaf_frames_dropped_total",
		"Frame pairs not scored because the scorer was saturated (backpressure=drop).", nil, nil)
	descSwaps = prometheus.NewDesc("vmaf_model_swaps_total",
		"Model swaps that took effect.", nil, nil)
	descPaused = prometheus.NewDesc("vmaf_paused",
		"1 while scoring is paused, else 0.", nil, nil)
	descClients = prometheus.NewDesc("vmaf_control_clients",
		"Clients connected to the MCP control plane.", nil, nil)
	descFPS = prometheus.NewDesc("vmaf_scoring_fps",
		"Frame pairs scored per second over the last 5 to 6 seconds.", nil, nil)
	descLast = prometheus.NewDesc("vmaf_last_score",
		"VMAF score of the last scored frame (first model).", []string{"model"}, nil)
)

func (c *runnerCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descScored, descSkipped, descUnpaired, descDropped, descSwaps, descPaused, descFPS, descLast} {
		ch <- d
	}
	if c.clients != nil {
		ch <- descClients
	}
}

func (c *runnerCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.r.Status()
	now := time.Now()
	k := st.Counters
	ch <- prometheus.MustNewConstMetric(descScored, prometheus.CounterValue, float64(k.Scored))
	ch <- prometheus.MustNewConstMetric(descSkipped, prometheus.CounterValue, float64(k.Skipped))
	ch <- prometheus.MustNewConstMetric(descDropped, prometheus.CounterValue, float64(k.Dropped))
	ch <- prometheus.MustNewConstMetric(descUnpaired, prometheus.CounterValue, float64(k.Unpaired[pipeline.Ref]), "reference")
	ch <- prometheus.MustNewConstMetric(descUnpaired, prometheus.CounterValue, float64(k.Unpaired[pipeline.Dist]), "distorted")
	ch <- prometheus.MustNewConstMetric(descSwaps, prometheus.CounterValue, float64(c.countSwaps(st.Swaps)))
	ch <- prometheus.MustNewConstMetric(descPaused, prometheus.GaugeValue, boolValue(st.State == pipeline.Paused))
	ch <- prometheus.MustNewConstMetric(descFPS, prometheus.GaugeValue, c.rate.fps(now, k.Scored))
	if c.clients != nil {
		ch <- prometheus.MustNewConstMetric(descClients, prometheus.GaugeValue, float64(c.clients()))
	}
	if score, model, ok := c.scores.lastScore(); ok {
		ch <- prometheus.MustNewConstMetric(descLast, prometheus.GaugeValue, score, model)
	}
}

// countSwaps adds the swaps of history not counted yet (scrapes may run
// concurrently).
func (c *runnerCollector) countSwaps(history []pipeline.SwapEvent) uint64 {
	c.swapMu.Lock()
	defer c.swapMu.Unlock()
	for _, s := range history {
		if s.ID > c.swapMax {
			c.swapMax = s.ID
			c.swaps++
		}
	}
	return c.swaps
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
