package tune

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

// CompareOptions configure a comparison of encoders on one source: each
// searched to each target, and each swept over CRFs for its BD-rate
// against the first (the anchor).
type CompareOptions struct {
	Encoders  []Encoder
	Targets   []float64
	Tolerance float64
	Aggregate Aggregate
	// Sweep is how many CRFs each encoder's curve has (default 5), a
	// doubling of the score's deficit or so apart around its usual CRF.
	Sweep int
}

// CompareRow is one encoder at one target.
type CompareRow struct {
	Target        float64  `json:"target"`
	Encoder       string   `json:"encoder"`
	Preset        string   `json:"preset,omitempty"`
	Rank          int      `json:"rank"` // 1: the lowest bitrate at this target
	CRF           float64  `json:"crf"`
	VMAF          float64  `json:"vmaf"`
	BitrateKbps   float64  `json:"bitrate_kbps"`
	EncodeSeconds float64  `json:"encode_seconds"` // the answer's encode (0 when it came from the cache)
	Encodes       int      `json:"encodes"`
	FFmpegArgs    []string `json:"ffmpeg_args,omitempty"`
	Error         string   `json:"error,omitempty"` // the target is out of reach, or the search failed
}

// CompareCurve is one encoder's CRF sweep and its BD-rate.
type CompareCurve struct {
	Encoder string        `json:"encoder"`
	Preset  string        `json:"preset,omitempty"`
	Points  []ProbeReport `json:"points"`
	// BDRate is against the anchor's curve, over the scores both cover,
	// on each curve's convex hull (calculate_bd_rate with
	// use_convex_hull); nil for the anchor or when refused (BDRateError).
	BDRate      *float64 `json:"bd_rate,omitempty"`
	BDRateError string   `json:"bd_rate_error,omitempty"`
}

// CompareResult is a comparison.
type CompareResult struct {
	Source    string         `json:"source"`
	Anchor    string         `json:"anchor"`
	Aggregate string         `json:"aggregate"`
	Rows      []CompareRow   `json:"rows"`
	Curves    []CompareCurve `json:"curves"`
	Encodes   int            `json:"encodes"`
	CacheHits int            `json:"cache_hits"`
}

// EncoderLabel is NAME or NAME:PRESET.
func EncoderLabel(e Encoder) string {
	if e.Preset == "" {
		return e.Name
	}
	return e.Name + ":" + e.Preset
}

// ParseEncoders reads "libx264:veryfast,libsvtav1:10".
func ParseEncoders(s string) ([]Encoder, error) {
	var out []Encoder
	for _, f := range strings.Split(s, ",") {
		name, preset, _ := strings.Cut(strings.TrimSpace(f), ":")
		e := Encoder{Name: name, Preset: preset}
		if err := e.Check(); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		return nil, errors.New("no encoders")
	}
	return out, nil
}

// sweepCRFs are n CRFs around the encoder's usual range, a doubling of
// the score's deficit or so apart.
func sweepCRFs(name string, n int) []float64 {
	t := traitsOf(name)
	spacing := math.Round(math.Ln2 / t.growth)
	var crfs []float64
	for k := 0; len(crfs) < n && k < 4*n; k++ {
		c := t.start + float64(k-1)*spacing
		if c >= t.min && c <= t.max {
			crfs = append(crfs, c)
		}
	}
	return crfs
}

// Compare runs the searches and sweeps in the session.
func (s *Session) Compare(ctx context.Context, o CompareOptions) (*CompareResult, error) {
	if len(o.Encoders) == 0 {
		return nil, errors.New("no encoders to compare")
	}
	if o.Sweep == 0 {
		o.Sweep = 5
	}
	res := &CompareResult{Source: s.ref.Path, Anchor: EncoderLabel(o.Encoders[0]), Aggregate: o.Aggregate.String()}
	for _, target := range o.Targets {
		// The encoders' searches are independent: they run side by side
		// (a target's searches after the previous target's, whose probes
		// the cache may answer).
		rows := make([]CompareRow, len(o.Encoders))
		searches := make([]*CRFResult, len(o.Encoders))
		err := s.each(ctx, len(o.Encoders), func(ctx context.Context, i int) error {
			e := o.Encoders[i]
			row := CompareRow{Target: target, Encoder: e.Name, Preset: e.Preset}
			cr, err := s.CRFSearch(ctx, CRFSearchOptions{Encoder: e, Target: target, Tolerance: o.Tolerance,
				Aggregate: o.Aggregate, MaxEncodes: 10})
			searches[i] = cr
			if cr != nil {
				row.Encodes = cr.Encodes
			}
			switch {
			case ctx.Err() != nil:
				return context.Cause(ctx)
			case errors.Is(err, ErrTargetUnreachable):
				row.Error = err.Error()
			case err != nil:
				return fmt.Errorf("%s at %g: %w", EncoderLabel(e), target, err)
			default:
				row.CRF, row.VMAF, row.BitrateKbps, row.FFmpegArgs = cr.CRF, cr.VMAF, cr.BitrateKbps, cr.FFmpegArgs
				for _, p := range cr.Probes {
					if p.CRF == cr.CRF {
						row.EncodeSeconds = p.Seconds
					}
				}
			}
			rows[i] = row
			return nil
		})
		e, h := tally(searches)
		res.Encodes, res.CacheHits = res.Encodes+e, res.CacheHits+h
		if err != nil {
			return res, err
		}
		// Rank by bitrate; rows without an answer come last, unranked.
		order := make([]int, 0, len(rows))
		for i, r := range rows {
			if r.Error == "" {
				order = append(order, i)
			}
		}
		sort.SliceStable(order, func(a, b int) bool { return rows[order[a]].BitrateKbps < rows[order[b]].BitrateKbps })
		var ranked []CompareRow
		for k, i := range order {
			rows[i].Rank = k + 1
			ranked = append(ranked, rows[i])
		}
		for _, r := range rows {
			if r.Error != "" {
				ranked = append(ranked, r)
			}
		}
		res.Rows = append(res.Rows, ranked...)
	}
	// Every encoder's sweep, all probes independent of each other.
	type sweepProbe struct {
		enc int
		crf float64
	}
	var sweep []sweepProbe
	for i, e := range o.Encoders {
		for _, crf := range sweepCRFs(e.Name, o.Sweep) {
			sweep = append(sweep, sweepProbe{i, crf})
		}
	}
	reps := make([]ProbeReport, len(sweep))
	err := s.each(ctx, len(sweep), func(ctx context.Context, k int) error {
		e := o.Encoders[sweep[k].enc]
		rep, _, err := s.Measure(ctx, ProbeSpec{Encoder: e, CRF: sweep[k].crf, Aggregate: o.Aggregate})
		if err != nil {
			return fmt.Errorf("%s sweep: %w", EncoderLabel(e), err)
		}
		reps[k] = rep
		return nil
	})
	if err != nil {
		return res, err
	}
	for _, e := range o.Encoders {
		res.Curves = append(res.Curves, CompareCurve{Encoder: e.Name, Preset: e.Preset})
	}
	for k, sp := range sweep {
		res.Encodes++
		if reps[k].Cached {
			res.CacheHits++
		}
		res.Curves[sp.enc].Points = append(res.Curves[sp.enc].Points, reps[k])
	}
	anchor := curvePoints(res.Curves[0].Points)
	for i := 1; i < len(res.Curves); i++ {
		v, err := BDRate(anchor, curvePoints(res.Curves[i].Points), BDOptions{ConvexHull: true})
		if err != nil {
			res.Curves[i].BDRateError = err.Error()
			continue
		}
		res.Curves[i].BDRate = &v
	}
	return res, nil
}

func curvePoints(ps []ProbeReport) []RDPoint {
	out := make([]RDPoint, len(ps))
	for i, p := range ps {
		out[i] = RDPoint{Rate: p.BitrateKbps, Metric: p.VMAF}
	}
	return out
}
