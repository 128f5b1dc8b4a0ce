package metrics

import (
	"math"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/report"
	"github.com/vmafsink/vmafsink/vmaf"
)

// ScoreBuckets are vmaf_score's upper bounds: every 10 points up to 60,
// then every point up to 100, where encodes worth watching score, so that
// histogram_quantile resolves a percentile there to about a point. 47
// buckets (48 series with +Inf) a model.
var ScoreBuckets = func() []float64 {
	b := prometheus.LinearBuckets(0, 10, 7) // 0, 10, ..., 60
	return append(b, prometheus.LinearBuckets(61, 1, 40)...)
}()

// maxModels bounds the model label's values; the models past it share
// otherModel.
const (
	maxModels  = 16
	otherModel = "other"
)

// scores is what is fed per frame: the histogram and the last score.
// observe runs on the Runner's publishing goroutine only, so the model
// cache needs no lock.
type scores struct {
	hist *prometheus.HistogramVec

	// Read and written by observe only.
	keys  report.ModelKeys
	model *vmaf.Model
	obs   prometheus.Observer

	key      string              // the label of model
	seenKeys map[string]struct{} // label values handed out

	// The last score and its label, read by scrapes: one lock, so that a
	// scrape at a swap never pairs one model's score with the other's label.
	lastMu   sync.Mutex
	last     float64
	lastKey  string
	lastSeen bool
}

func newScores() *scores {
	return &scores{
		hist: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "vmaf_score",
			Help:    "Per-frame VMAF score of the first model (buckets every 10 points to 60, every point from 60 to 100).",
			Buckets: ScoreBuckets,
		}, []string{"model"}),
		seenKeys: map[string]struct{}{},
	}
}

// observe counts one published record. A record's model changes only at a
// swap, so the label lookup runs once a swap, not once a frame.
func (s *scores) observe(rec *pipeline.Record) {
	m := rec.Model()
	if m == nil || math.IsNaN(rec.Score) || math.IsInf(rec.Score, 0) {
		return
	}
	if m != s.model {
		s.switchModel(rec)
	}
	s.obs.Observe(rec.Score)
	s.lastMu.Lock()
	s.last, s.lastKey, s.lastSeen = rec.Score, s.key, true
	s.lastMu.Unlock()
}

// switchModel finds the label of rec's model, as the results file keys
// it, and caches its histogram.
func (s *scores) switchModel(rec *pipeline.Record) {
	s.keys.Rename(rec.Index, rec.Models, nil)
	key, ok := s.keys.Key(rec.Model())
	if !ok {
		key = rec.Model().Name
	}
	if _, seen := s.seenKeys[key]; !seen {
		if len(s.seenKeys) >= maxModels {
			key = otherModel
		}
		s.seenKeys[key] = struct{}{}
	}
	s.model, s.key = rec.Model(), key
	s.obs = s.hist.WithLabelValues(key)
}

// lastScore returns the last observed score and its model label.
func (s *scores) lastScore() (score float64, model string, ok bool) {
	s.lastMu.Lock()
	defer s.lastMu.Unlock()
	return s.last, s.lastKey, s.lastSeen
}
