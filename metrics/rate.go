package metrics

import (
	"sync"
	"time"

	"github.com/vmafsink/vmafsink/pipeline"
)

// vmaf_scoring_fps is the frames scored per second over the last
// rateSpan to rateSpan+rateStep (5 to 6 s): the scored count is sampled
// every rateStep, off the frame path, and a scrape compares the count now
// with the oldest sample kept. Right after the start the span is shorter
// (since the exporter began). A paused or ended run reads 0 once its last
// frames are out of the span.
const (
	rateStep    = time.Second
	rateSpan    = 5 * time.Second
	rateSamples = int(rateSpan/rateStep) + 1
)

type rateSample struct {
	at     time.Time
	scored uint64
}

type rate struct {
	r    *pipeline.Runner
	mu   sync.Mutex
	ring [rateSamples]rateSample
	n    int // samples taken
	quit chan struct{}
	done chan struct{}
	once sync.Once
}

func newRate(r *pipeline.Runner) *rate {
	t := &rate{r: r, quit: make(chan struct{}), done: make(chan struct{})}
	t.sample(time.Now(), r.Status().Counters.Scored)
	go t.run()
	return t
}

func (t *rate) run() {
	defer close(t.done)
	tick := time.NewTicker(rateStep)
	defer tick.Stop()
	for {
		select {
		case <-t.quit:
			return
		case now := <-tick.C:
			t.sample(now, t.r.Status().Counters.Scored)
		}
	}
}

func (t *rate) sample(at time.Time, scored uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.ring[t.n%rateSamples] = rateSample{at, scored}
	t.n++
}

// fps returns the rate from the oldest sample kept to (now, scored).
func (t *rate) fps(now time.Time, scored uint64) float64 {
	t.mu.Lock()
	oldest := t.ring[0]
	if t.n > rateSamples {
		oldest = t.ring[t.n%rateSamples]
	}
	t.mu.Unlock()
	dt := now.Sub(oldest.at).Seconds()
	if dt <= 0 || scored < oldest.scored {
		return 0
	}
	return float64(scored-oldest.scored) / dt
}

func (t *rate) stop() {
	t.once.Do(func() { close(t.quit) })
	<-t.done
}
