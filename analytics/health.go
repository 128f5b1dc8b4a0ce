package analytics

import (
	"fmt"
	"slices"
)

// worstFrames is how many of the lowest recent frames Health lists.
const worstFrames = 5

// Health returns the verdict and its evidence (see the package doc for
// the rules).
func (m *Monitor) Health() Health {
	m.mu.RLock()
	defer m.mu.RUnlock()
	th := m.cfg.AlertThreshold
	h := Health{Threshold: th}
	if m.last != nil {
		w := cloneWindow(m.last)
		h.Window = &w
	}
	if m.drop.open {
		a := *m.alerts.At(m.alerts.Len() - 1)
		h.Active = &a
	}
	if m.lastDrop != nil {
		a := *m.lastDrop
		h.LastDrop = &a
	}
	if m.recent.Len() == 0 {
		h.Verdict = NoData
		h.Reasons = []string{"No frame has been scored yet."}
		return h
	}
	recent := make([]Sample, m.recent.Len())
	for i := range recent {
		recent[i] = *m.recent.At(i)
	}
	var scratch []float64
	cur := summarise(recent, m.cfg.Percentiles, &scratch)
	h.Current = &cur
	worst := slices.Clone(recent)
	slices.SortStableFunc(worst, func(a, b Sample) int {
		switch {
		case a.Score < b.Score:
			return -1
		case a.Score > b.Score:
			return 1
		}
		return 0
	})
	h.Worst = worst[:min(worstFrames, len(worst))]

	span := fmt.Sprintf("the last %d scored frames (%d to %d)", cur.Frames, cur.First, cur.Last)
	if th == 0 {
		h.Verdict = Healthy
		h.Reasons = []string{fmt.Sprintf("No alert threshold is set, so no frame counts as low; %s average %.3f (min %.3f).", span, cur.Mean, cur.Min)}
		return h
	}
	if a := h.Active; a != nil {
		h.Verdict = Critical
		h.Reasons = []string{fmt.Sprintf("A quality drop is open: %d frames from %d to %d scored below %.3f (min %.3f, mean %.3f).", a.Frames, a.First, a.Last, th, a.Min, a.Mean)}
		return h
	}
	var low int
	for _, s := range recent {
		if s.Score < th {
			low++
		}
	}
	if low > 0 {
		h.Reasons = append(h.Reasons, fmt.Sprintf("%d of %s scored below %.3f (min %.3f).", low, span, th, cur.Min))
	}
	if d := h.LastDrop; d != nil && (m.ended >= cur.First || (m.ended < 0 && d.Last >= cur.First)) {
		h.Reasons = append(h.Reasons, fmt.Sprintf("Drop %d (frames %d to %d, min %.3f) ended within %s.", d.ID, d.First, d.Last, d.Min, span))
	}
	if cur.Mean < th+5 {
		h.Reasons = append(h.Reasons, fmt.Sprintf("The mean of %s, %.3f, is within 5 of the threshold %.3f.", span, cur.Mean, th))
	}
	if len(h.Reasons) > 0 {
		h.Verdict = Warning
		return h
	}
	h.Verdict = Healthy
	h.Reasons = []string{fmt.Sprintf("No drop is open, none of %s scored below %.3f (min %.3f) and their mean %.3f is at least 5 above it.", span, th, cur.Min, cur.Mean)}
	return h
}
