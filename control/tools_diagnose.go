package control

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vmafsink/vmafsink/vmaf"
)

// vmaf_diagnose: a range of frames against the frames around it, by
// VMAF's components while the records are kept (diagnose.go), by score
// alone beyond.

// Diagnosis is the reply of vmaf_diagnose.
type Diagnosis struct {
	From       int64       `json:"from" jsonschema:"first frame of the range"`
	To         int64       `json:"to" jsonschema:"last frame of the range"`
	Frames     int         `json:"frames" jsonschema:"frames in the range with full records (features)"`
	Compared   int         `json:"compared" jsonschema:"frames around the range compared with it"`
	ScoresOnly bool        `json:"scores_only,omitempty" jsonschema:"the range's features are no longer kept: only the score history is compared"`
	Score      Movement    `json:"score" jsonschema:"the VMAF score inside the range against the frames around it"`
	Components []Movement  `json:"components,omitempty" jsonschema:"each VMAF ingredient inside against around the range"`
	DrivenBy   *Movement   `json:"driven_by,omitempty" jsonschema:"the non-motion component with the largest relative fall: what drove the drop"`
	Mismatch   []string    `json:"mismatch,omitempty" jsonschema:"model/resolution mismatches from vmaf_status's warnings: a model meant for another display distorts every score"`
	Alerts     []Alert     `json:"alerts,omitempty" jsonschema:"drops that overlap the range"`
	Summary    string      `json:"summary" jsonschema:"one sentence that says what the figures show"`
	History    *ScoreRange `json:"history" jsonschema:"what is kept"`
}

// Movement compares a measure inside a range with the frames around it.
type Movement struct {
	Component string   `json:"component,omitempty" jsonschema:"what the measure means: detail loss (ADM), artefacts (VIF scale 0), blur (VIF scales 1-3), motion"`
	Extractor string   `json:"extractor,omitempty" jsonschema:"the feature extractor that measures it, e.g. integer_adm"`
	Features  []string `json:"features,omitempty" jsonschema:"the features averaged"`
	Inside    float64  `json:"inside" jsonschema:"mean inside the range"`
	Outside   *float64 `json:"outside,omitempty" jsonschema:"mean over the frames compared (absent when there are none)"`
	ChangePct *float64 `json:"change_pct,omitempty" jsonschema:"relative change inside against outside, in percent"`
}

// ScoreRange is the span of frames kept.
type ScoreRange struct {
	KeptFrom int64 `json:"kept_from" jsonschema:"oldest frame whose score is kept, -1 when none"`
	FullFrom int64 `json:"full_from" jsonschema:"oldest frame whose full record is kept, -1 when none"`
	KeptTo   int64 `json:"kept_to" jsonschema:"newest frame kept"`
}

type diagnoseArgs struct {
	From int64 `json:"from" jsonschema:"first frame index of the range"`
	To   int64 `json:"to" jsonschema:"last frame index of the range (at most from+9999)"`
}

func (s *Server) toolDiagnose(ctx context.Context, _ *mcp.CallToolRequest, in diagnoseArgs) (*mcp.CallToolResult, Diagnosis, error) {
	if in.From < 0 || in.To < in.From {
		return nil, Diagnosis{}, Errorf(CodeBadRequest, "need 0 <= from <= to, got from=%d to=%d", in.From, in.To)
	}
	if in.To-in.From >= maxRange {
		return nil, Diagnosis{}, Errorf(CodeBadRequest, "frames %d..%d are %d frames; at most %d per call", in.From, in.To, in.To-in.From+1, maxRange)
	}
	var d Diagnosis
	if err := s.heavy(ctx, "vmaf_diagnose", func() { d = s.diagnose(in.From, in.To) }); err != nil {
		return nil, Diagnosis{}, err
	}
	return nil, d, nil
}

// diagnose compares frames from..to with as many frames on each side
// (at least diagnoseContext): on their features while the full records
// are kept, on the score history beyond.
func (s *Server) diagnose(from, to int64) Diagnosis {
	m := s.target.Analytics()
	span := max(to-from+1, diagnoseContext)
	lo, hi := max(from-span, 0), to+span
	out := Diagnosis{From: from, To: to, History: &ScoreRange{FullFrom: -1}}
	note := s.historyNote()
	out.History.KeptFrom, out.History.KeptTo, out.History.FullFrom = note.KeptFrom, note.KeptTo, note.FullFrom

	recs := s.target.Range(lo, hi, 3*maxRange)
	d := diagnose(recs, from, to)
	if d.inside > 0 {
		out.Frames, out.Compared = d.inside, d.outside
		out.Score = movement(d.score[0], d.score[1], d.outside > 0)
		for i, c := range components {
			if !d.found[i] {
				continue
			}
			mv := movement(d.comp[i][0], d.comp[i][1], d.outside > 0)
			mv.Component = c.label
			mv.Extractor, mv.Features = componentSource(recs, c)
			out.Components = append(out.Components, mv)
		}
		if i, _ := d.lead(); i >= 0 && d.outside > 0 {
			for j := range out.Components {
				if out.Components[j].Component == components[i].label {
					mv := out.Components[j]
					out.DrivenBy = &mv
				}
			}
		}
	} else {
		// Only the scores are left: compare them.
		hist, _ := m.History(int(lo), int(min(hi, math.MaxInt32)))
		var in, outside []float64
		for _, h := range hist {
			if int64(h.Index) >= from && int64(h.Index) <= to {
				in = append(in, h.Score)
			} else {
				outside = append(outside, h.Score)
			}
		}
		out.Frames, out.Compared, out.ScoresOnly = len(in), len(outside), true
		out.Score = movement(mean(in), mean(outside), len(outside) > 0)
	}
	st := s.target.Status()
	for _, w := range st.Warnings {
		if strings.HasPrefix(w, "model ") {
			out.Mismatch = append(out.Mismatch, w)
		}
	}
	for _, a := range m.Alerts(0) {
		if int64(a.First) <= to && int64(a.Last) >= from {
			out.Alerts = append(out.Alerts, *wireAlert(&a))
		}
	}
	out.Summary = diagnosisSummary(&out)
	return out
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

func movement(in, out float64, haveOut bool) Movement {
	mv := Movement{Inside: fin(in)}
	if haveOut {
		o := fin(out)
		mv.Outside = &o
		if o != 0 {
			c := fin(100 * (in - o) / o)
			mv.ChangePct = &c
		}
	}
	return mv
}

// componentSource names the extractor and the features of c that the
// records carry, by the family rule of componentValue.
func componentSource(recs []Record, c component) (string, []string) {
	family := ""
	var names []string
	for _, name := range c.names {
		for _, r := range recs {
			if _, ok := r.Features[name]; !ok {
				continue
			}
			src, _ := vmaf.FeatureExtractor(name)
			if family == "" {
				family = src.Extractor
			}
			if src.Extractor == family {
				names = append(names, name)
			}
			break
		}
	}
	return family, names
}

func diagnosisSummary(d *Diagnosis) string {
	var b strings.Builder
	switch {
	case d.Frames == 0:
		fmt.Fprintf(&b, "No scored frame in %d..%d is kept (scores are kept from frame %d).", d.From, d.To, d.History.KeptFrom)
	case d.Compared == 0:
		fmt.Fprintf(&b, "Frames %d..%d average %.3f; no frames around them are kept to compare with.", d.From, d.To, d.Score.Inside)
	default:
		fmt.Fprintf(&b, "Frames %d..%d average %.3f against %.3f around them", d.From, d.To, d.Score.Inside, *d.Score.Outside)
		if d.DrivenBy != nil && d.DrivenBy.ChangePct != nil {
			fmt.Fprintf(&b, "; the largest relative fall is %s (%s, %+.1f%%)", d.DrivenBy.Component, d.DrivenBy.Extractor, *d.DrivenBy.ChangePct)
		} else if d.ScoresOnly {
			b.WriteString("; the features of these frames are no longer kept, so no component can be named")
		}
		b.WriteString(".")
	}
	if len(d.Mismatch) > 0 {
		b.WriteString(" The model does not fit the stream: see mismatch.")
	}
	return b.String()
}
