package analytics

import (
	"math"
	"slices"
	"time"

	"github.com/vmafsink/vmafsink/internal/ring"
)

// windower cuts the samples into window records (see the package doc).
type windower struct {
	frames int           // frames mode: window size
	step   int           // frames mode: records every step samples
	dur    time.Duration // duration mode: window length
	pcts   []float64
	buf    *ring.Buffer[Sample] // frames mode: the last frames samples
	open   []Sample             // duration mode: the current window's samples
	start  time.Duration        // duration mode: the current window's start
	seen   int                  // frames mode: samples added
	sorted []float64            // scratch for percentiles
	window []Sample             // frames mode: scratch for the window's samples in order
}

func (w *windower) init(c Config) {
	w.frames, w.dur, w.pcts = c.WindowFrames, c.WindowDuration, c.Percentiles
	w.step = c.WindowStep
	if w.step == 0 {
		w.step = w.frames
	}
	if w.frames > 0 {
		w.buf = ring.New[Sample](w.frames)
	}
	w.start = NoTime
}

// add takes a sample and returns the window record it completes, if any.
func (w *windower) add(s Sample) (Window, bool) {
	switch {
	case w.frames > 0:
		w.buf.PushDropOldest(s)
		w.seen++
		if w.seen < w.frames || (w.seen-w.frames)%w.step != 0 {
			return Window{}, false
		}
		w.window = w.window[:0]
		for i := range w.buf.Len() {
			w.window = append(w.window, *w.buf.At(i))
		}
		return w.stats(w.window), true
	case w.dur > 0:
		return w.addTimed(s)
	}
	return Window{}, false
}

func (w *windower) addTimed(s Sample) (rec Window, ok bool) {
	t := s.RunningTime
	if t < 0 {
		return Window{}, false
	}
	switch {
	case w.start == NoTime || t < w.start:
		// The first timed sample, or a new segment: a new window.
		w.open, w.start = w.open[:0], t
	case t >= w.start+w.dur:
		if len(w.open) > 0 {
			rec, ok = w.stats(w.open), true
		}
		w.start += (t - w.start) / w.dur * w.dur
		w.open = w.open[:0]
	}
	w.open = append(w.open, s)
	return rec, ok
}

// stats summarises samples (at least one) as a window record.
func (w *windower) stats(samples []Sample) Window { return summarise(samples, w.pcts, &w.sorted) }

// summarise computes a window record over samples (at least one), with
// the nearest-rank percentiles pcts; sorted is scratch space.
func summarise(samples []Sample, pcts []float64, sorted *[]float64) Window {
	first, last := samples[0], samples[len(samples)-1]
	w := Window{
		First: first.Index, Last: last.Index,
		Start: first.RunningTime, End: last.RunningTime,
		Frames: len(samples),
		Min:    math.Inf(1), Max: math.Inf(-1),
		Model: last.Model,
	}
	var sum, inv float64
	for _, s := range samples {
		sum += s.Score
		inv += 1 / (s.Score + 1)
		w.Min = min(w.Min, s.Score)
		w.Max = max(w.Max, s.Score)
	}
	n := float64(len(samples))
	w.Mean = sum / n
	w.HarmonicMean = n/inv - 1
	if len(pcts) > 0 {
		xs := (*sorted)[:0]
		for _, s := range samples {
			xs = append(xs, s.Score)
		}
		slices.Sort(xs)
		*sorted = xs
		w.Percentiles = make([]Percentile, len(pcts))
		for i, p := range pcts {
			w.Percentiles[i] = Percentile{P: p, Value: PercentileOf(xs, p)}
		}
	}
	return w
}
