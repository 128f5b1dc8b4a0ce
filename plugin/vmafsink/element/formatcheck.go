package element

import (
	"sync"

	"github.com/vmafsink/vmafsink/vmaf"
)

// formatChecks remembers which formats the run's engine configuration
// can score, so that caps sent again (with every buffer a refused
// upstream tries, or by both pads) build the extractors once.
type formatChecks struct {
	mu   sync.Mutex
	seen map[formatKey]error
}

type formatKey struct {
	width, height int
	sample        sampleFormat
}

// checkFormat reports why the engine cannot score f's frames with the
// run's model and features (a picture too small for a feature's filters
// or scales), before any frame arrives.
func (st *runState) checkFormat(f *videoFormat) error {
	p := f.picture()
	c := &st.checks
	c.mu.Lock()
	defer c.mu.Unlock()
	key := formatKey{p.Width, p.Height, f.sample}
	if err, ok := c.seen[key]; ok {
		return err
	}
	err := vmaf.CheckFormat(st.scorer, &p)
	if c.seen == nil {
		c.seen = map[formatKey]error{}
	}
	c.seen[key] = err
	return err
}
