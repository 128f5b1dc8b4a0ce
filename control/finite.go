package control

import "math"

// JSON has no NaN or infinity, and one such value would make a whole reply
// fail to encode. A broken frame must not cost the client its answer, so
// these helpers drop such values (or zero a score) on the way out.

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// fin replaces a value JSON cannot carry by 0.
func fin(v float64) float64 {
	if !finite(v) {
		return 0
	}
	return v
}

// sanitize copies r, leaving out values JSON cannot carry.
func sanitize(r Record) Record {
	r.Score = fin(r.Score)
	for _, v := range r.Features {
		if !finite(v) {
			f := make(map[string]float64, len(r.Features))
			for k, v := range r.Features {
				if finite(v) {
					f[k] = v
				}
			}
			r.Features = f
			break
		}
	}
	r.Dropped = 0
	return r
}

// maxStatusSwaps bounds the swap history in a status reply, which clients
// poll: a long-running measurement must not make every poll heavier.
const maxStatusSwaps = 16

func sanitizeStatus(st Status) Status {
	if st.LastScore != nil && !finite(*st.LastScore) {
		st.LastScore = nil
	}
	if n := len(st.Swaps); n > maxStatusSwaps {
		st.SwapsOmitted += n - maxStatusSwaps
		st.Swaps = st.Swaps[n-maxStatusSwaps:]
	}
	return st
}

func sanitizeScores(sc Scores) Scores {
	out := Scores{Records: make([]Record, len(sc.Records)), Pooled: make([]Pooled, 0, len(sc.Pooled))}
	for i, r := range sc.Records {
		out.Records[i] = sanitize(r)
	}
	if len(sc.Worst) > 0 {
		out.Worst = make([]Record, len(sc.Worst))
		for i, r := range sc.Worst {
			out.Worst[i] = sanitize(r)
		}
	}
	for _, p := range sc.Pooled {
		if finite(p.Min) && finite(p.Max) && finite(p.Mean) && finite(p.HarmonicMean) {
			out.Pooled = append(out.Pooled, p)
		}
	}
	return out
}
