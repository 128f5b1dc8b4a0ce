package attach

import (
	"fmt"
	"time"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/vmaf"
)

func convertRecord(r *pipeline.Record) control.Record {
	rec := control.Record{Frame: int64(r.Index), PTS: -1, Model: r.Model().Label(), Score: r.Score,
		Features: make(map[string]float64, len(r.Metrics))}
	if r.Timing.PTS != pipeline.NoTime {
		rec.PTS = int64(r.Timing.PTS)
	}
	for _, m := range r.Metrics {
		rec.Features[m.Name] = m.Value
	}
	return rec
}

func convertStatus(st pipeline.Status, engine string) control.Status {
	out := control.Status{
		State:           st.State.String(),
		PauseMode:       st.PauseMode.String(),
		Engine:          engine,
		FramesReceived:  st.Counters.Pairs,
		FramesScored:    st.Counters.Scored,
		FramesSkipped:   st.Counters.Skipped,
		FramesUnpaired:  st.Counters.Unpaired[pipeline.Ref] + st.Counters.Unpaired[pipeline.Dist],
		FramesDropped:   st.Counters.Dropped,
		LastFrame:       int64(st.LastIndex),
		CommandsPending: st.CommandsPending,
		Swaps:           []control.SwapEvent{},
		UptimeSeconds:   time.Since(st.Started).Seconds(),
	}
	if out.Engine == "" {
		out.Engine = "auto"
	}
	if st.State == pipeline.Running && st.Format == nil && st.Counters.Pairs == 0 {
		out.State = control.StateIdle
	}
	if len(st.Models) > 0 {
		out.Model = st.Models[0].Label()
		if len(st.Models) > 1 {
			for _, m := range st.Models {
				out.Models = append(out.Models, m.Label())
			}
		}
	}
	if st.LastIndex >= 0 {
		v := st.LastScore
		out.LastScore = &v
	}
	if f := st.Format; f != nil {
		out.Width, out.Height, out.Format = f.Width, f.Height, formatName(f.Chroma, f.BitDepth)
	}
	for _, s := range st.Swaps {
		out.Swaps = append(out.Swaps, control.SwapEvent{Command: s.ID, FirstFrame: int64(s.FirstIndex), Time: s.Applied,
			From: s.From.Label(), To: s.To.Label(), Superseded: s.Superseded})
	}
	out.Warnings = warnings(st)
	return out
}

// formatName gives GStreamer's name for a stream's raw video format.
func formatName(c vmaf.Chroma, depth int) string {
	base := map[vmaf.Chroma]string{vmaf.Chroma420: "I420", vmaf.Chroma422: "I422", vmaf.Chroma444: "Y444", vmaf.Chroma400: "GRAY"}[c]
	switch {
	case depth == 8 && c == vmaf.Chroma422:
		return "Y42B"
	case depth == 8 && c == vmaf.Chroma400:
		return "GRAY8"
	case depth == 8:
		return base
	case c == vmaf.Chroma400:
		return fmt.Sprintf("GRAY%d_LE", depth)
	}
	return fmt.Sprintf("%s_%dLE", base, depth)
}

// warnings lists what an operator should act on.
func warnings(st pipeline.Status) []string {
	var w []string
	if st.Format != nil && len(st.Models) > 0 {
		if msg := mismatch(st.Models[0], st.Format.Width, st.Format.Height); msg != "" {
			w = append(w, msg)
		}
	}
	if n := st.Counters.Unpaired[pipeline.Ref] + st.Counters.Unpaired[pipeline.Dist]; n > 0 {
		w = append(w, fmt.Sprintf("%d frames found no partner on the other pad (timestamps or frame counts disagree)", n))
	}
	if st.Counters.Dropped > 0 {
		w = append(w, fmt.Sprintf("%d frame pairs were dropped unscored because scoring fell behind (backpressure=drop)", st.Counters.Dropped))
	}
	return w
}

// extractors groups metric names by the extractor instance that
// produces them, with the options libvmaf encodes in names
// (integer_adm2_egl_1: ADM with an enhancement gain limit of 1).
func extractors(names []string) []control.Extractor {
	groups := map[string]*control.Extractor{}
	var order []string
	for _, n := range names {
		src, ok := vmaf.FeatureExtractor(n)
		if !ok {
			continue
		}
		key := src.Extractor + src.Suffix
		g, ok := groups[key]
		if !ok {
			g = &control.Extractor{Name: src.Extractor, Options: src.Options}
			groups[key] = g
			order = append(order, key)
		}
		g.Outputs = append(g.Outputs, n)
	}
	out := make([]control.Extractor, 0, len(order))
	for _, k := range order {
		out = append(out, *groups[k])
	}
	return out
}
