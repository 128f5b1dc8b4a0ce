package pipeline

import (
	"math"
	"sort"
	"sync"

	"github.com/vmafsink/vmafsink/vmaf"
)

// Worst-frame store: the lowest-scoring frames seen so far, the first
// Config.WorstFrames of them with small copies of their pictures.
//
// A frame's score is known only when its result comes back, and the
// native engine gives the pictures back before that (motion waits for the
// next frame). So with WorstFrames on, a scored pair's frames are given
// back to the host when its result arrives rather than when the engine is
// done reading them: one frame later. A frame from a bounded pool is
// copied instead, then (scoring.keepForResult): the pool may have no
// buffer for the next frame while it is held. deliver then compares the
// score with the store's worst-N bound, and only a frame that enters the
// set is downscaled (newThumbs); the others cost that one comparison. The
// store never keeps the host's memory.

const (
	// DefaultWorstFrames is the worst frames kept with images by the
	// element and vmaf-score unless told otherwise.
	DefaultWorstFrames = 8
	// MaxWorstRecords is how many worst records (without images beyond
	// WorstFrames) the Runner keeps for Worst; WorstFrames may not exceed it.
	MaxWorstRecords = 100
	// ThumbMaxWidth is the widest a kept picture is stored.
	ThumbMaxWidth = 640
)

// WorstFrame is one of the lowest-scoring frames so far. Its images are
// immutable once made, so copies of a WorstFrame may share them.
type WorstFrame struct {
	Record *Record
	// Images holds the pair's pictures, downscaled; nil when the frame
	// is beyond Config.WorstFrames or its pictures were gone by the time
	// its score was known (the libvmaf engine copies them at submission).
	Images *Thumbs
}

type worstStore struct {
	images int // how many of the worst keep their images

	mu   sync.Mutex
	recs []WorstFrame // ascending by score; ties keep the earlier frame first
	made int          // pictures downscaled so far (for the benchmarks)
}

func newWorstStore(images int) *worstStore {
	return &worstStore{images: images, recs: make([]WorstFrame, 0, MaxWorstRecords)}
}

// enters reports whether a frame scoring score would be kept, and whether
// with images. Only deliver's goroutine changes recs.
func (w *worstStore) enters(score float64) (ok, images bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(w.recs)
	if n == cap(w.recs) && !(score < w.recs[n-1].Record.Score) {
		return false, false
	}
	i := w.rank(score)
	return true, i < w.images
}

// rank is where a frame scoring score goes; called with mu held.
func (w *worstStore) rank(score float64) int {
	return sort.Search(len(w.recs), func(i int) bool { return w.recs[i].Record.Score > score })
}

// offer files a scored frame. frames are its pictures when still held
// (Picture nil otherwise); the caller releases them afterwards. The cost
// for a frame that does not enter is one comparison under the lock. A
// score that is not finite is no ranking (NaN compares with nothing, so it
// would hold its place for good), as the analytics ignore it too.
func (w *worstStore) offer(index int, t Timing, res *vmaf.Result, score float64, frames *[2]Frame) {
	if math.IsNaN(score) || math.IsInf(score, 0) {
		return
	}
	ok, withImages := w.enters(score)
	if !ok {
		return
	}
	var rec Record // fill appends to nil slices: nothing shared with res
	rec.fill(index, t, res)
	var th *Thumbs
	if withImages && frames[Ref].Picture != nil && frames[Dist].Picture != nil {
		th = newThumbs(frames[Ref].Picture, frames[Dist].Picture, ThumbMaxWidth)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if th != nil {
		w.made++
	}
	i := w.rank(score)
	if len(w.recs) < cap(w.recs) {
		w.recs = append(w.recs, WorstFrame{})
	}
	copy(w.recs[i+1:], w.recs[i:])
	w.recs[i] = WorstFrame{Record: &rec, Images: th}
	// The frame pushed past the image limit lets its images go.
	if w.images < len(w.recs) {
		w.recs[w.images].Images = nil
	}
}

func (w *worstStore) list(n int) []WorstFrame {
	w.mu.Lock()
	defer w.mu.Unlock()
	n = min(max(n, 0), len(w.recs))
	out := make([]WorstFrame, n)
	for i := range out {
		out[i] = WorstFrame{Record: w.recs[i].Record.Clone(), Images: w.recs[i].Images}
	}
	return out
}

// Worst returns copies of the n lowest-scoring records so far (at most
// MaxWorstRecords), worst first; the first Config.WorstFrames of them
// carry their images.
func (r *Runner) Worst(n int) []WorstFrame { return r.worst.list(n) }

// WorstFrames is Config.WorstFrames as the Runner applies it.
func (r *Runner) WorstFrames() int { return r.cfg.WorstFrames }
