package attach

import (
	"sort"
	"sync"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/pipeline"
)

// worstFrames keeps the lowest-scoring records seen, worst first. It is
// fed on the Runner's publishing goroutine and copies a record only when
// it enters the list.
type worstFrames struct {
	mu   sync.Mutex
	cap  int
	recs []control.Record // ascending by score
}

func (w *worstFrames) add(r *pipeline.Record) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.recs) == w.cap && r.Score >= w.recs[len(w.recs)-1].Score {
		return
	}
	i := sort.Search(len(w.recs), func(i int) bool { return w.recs[i].Score > r.Score })
	if len(w.recs) < w.cap {
		w.recs = append(w.recs, control.Record{})
	}
	copy(w.recs[i+1:], w.recs[i:])
	w.recs[i] = convertRecord(r)
}

func (w *worstFrames) list(n int) []control.Record {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]control.Record(nil), w.recs[:min(n, len(w.recs))]...)
}
