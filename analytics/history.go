package analytics

import "sort"

// entry is one scored frame in the history: 8 bytes.
type entry struct {
	index int32
	score float32
}

// modelRun says that the frames from index on were scored by model
// (its key and label).
type modelRun struct {
	from         int
	model, label string
}

// history keeps every scored frame's score, up to limit, in a ring that
// grows as needed (never past limit) rather than being reserved up front.
// Indices only grow, so a range is found by binary search.
type history struct {
	limit  int
	buf    []entry
	head   int // index in buf of the oldest entry
	n      int
	models []modelRun // model changes, oldest first; the first covers the oldest entry
}

func (h *history) add(s Sample) {
	if s.Index < 0 || s.Index > maxIndex || h.limit <= 0 {
		return
	}
	if h.n > 0 && s.Index <= int(h.at(h.n-1).index) {
		return // out of order: cannot happen with a Runner's records
	}
	if h.n == len(h.buf) && h.n < h.limit {
		h.grow()
	}
	e := entry{index: int32(s.Index), score: float32(s.Score)}
	if h.n < len(h.buf) {
		h.buf[(h.head+h.n)%len(h.buf)] = e
		h.n++
	} else {
		h.buf[h.head] = e
		h.head = (h.head + 1) % len(h.buf)
	}
	if last := len(h.models) - 1; last < 0 || h.models[last].model != s.Model || h.models[last].label != s.Label {
		h.models = append(h.models, modelRun{from: s.Index, model: s.Model, label: s.Label})
	}
	// Forget the model runs that end before the oldest entry.
	oldest := int(h.at(0).index)
	drop := 0
	for drop+1 < len(h.models) && h.models[drop+1].from <= oldest {
		drop++
	}
	if drop > 0 {
		h.models = append(h.models[:0], h.models[drop:]...)
	}
}

// grow doubles the buffer (up to limit), unrolling the ring.
func (h *history) grow() {
	c := min(max(2*len(h.buf), 1024), h.limit)
	nb := make([]entry, c)
	for i := range h.n {
		nb[i] = h.at(i)
	}
	h.buf, h.head = nb, 0
}

func (h *history) at(i int) entry { return h.buf[(h.head+i)%len(h.buf)] }

func (h *history) get(from, to int) (out []Sample, have [2]int) {
	if h.n == 0 {
		return nil, [2]int{-1, -1}
	}
	have = [2]int{int(h.at(0).index), int(h.at(h.n - 1).index)}
	lo := sort.Search(h.n, func(i int) bool { return int(h.at(i).index) >= from })
	mi := 0
	for i := lo; i < h.n; i++ {
		e := h.at(i)
		if int(e.index) > to {
			break
		}
		for mi+1 < len(h.models) && h.models[mi+1].from <= int(e.index) {
			mi++
		}
		run := &h.models[mi]
		out = append(out, Sample{Index: int(e.index), RunningTime: NoTime, Model: run.model, Label: run.label, Score: float64(e.score)})
	}
	return out, have
}
