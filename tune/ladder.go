package tune

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
)

// LadderOptions configure a bitrate ladder: every resolution encoded at
// every CRF (or searched to every target), scored after scaling back to
// the source's size, the upper convex hull of (bitrate, score) over all
// of them, and rungs chosen on the hull.
type LadderOptions struct {
	Encoder     Encoder
	Resolutions [][2]int  // default: the source's size, and halves down to 360 lines
	CRFs        []float64 // the sweep; default: five CRFs around the encoder's usual range
	Targets     []float64 // instead of CRFs: a search per resolution and target
	Tolerance   float64
	Down, Up    string // scaling filters (DefaultDownscale, DefaultUpscale)
	Rungs       int    // how many rungs (default 4)
	// Spacing chooses rungs evenly in "bitrate" (log bitrate, the
	// default) or in "vmaf".
	Spacing   string
	Aggregate Aggregate
}

// LadderPoint is one encode of the sweep.
type LadderPoint struct {
	Resolution  string   `json:"resolution"`
	Width       int      `json:"width"`
	Height      int      `json:"height"`
	CRF         float64  `json:"crf"`
	BitrateKbps float64  `json:"bitrate_kbps"`
	PeakKbps    float64  `json:"peak_kbps"`
	VMAF        float64  `json:"vmaf"`
	Codec       string   `json:"codec"`
	FFmpegArgs  []string `json:"ffmpeg_args"`
}

// LadderResult is a ladder.
type LadderResult struct {
	Source     string        `json:"source"`
	Encoder    string        `json:"encoder"`
	Downscale  string        `json:"downscale_filter"`
	Upscale    string        `json:"upscale_filter"`
	FrameRate  string        `json:"frame_rate"`
	Duration   float64       `json:"duration_seconds"`
	Aggregate  string        `json:"aggregate"`
	Encodes    int           `json:"encodes"`
	CacheHits  int           `json:"cache_hits"`
	Points     []LadderPoint `json:"points"`
	Hull       []LadderPoint `json:"hull"`
	Rungs      []LadderPoint `json:"rungs"`
	HLS        string        `json:"hls_master_playlist"`
	DASH       string        `json:"dash_mpd"`
	sourceSize [2]int
}

func (o *LadderOptions) defaults(ref *Reference) error {
	if len(o.Resolutions) == 0 {
		w, h := ref.Format.Width, ref.Format.Height
		for h >= 360 || len(o.Resolutions) == 0 {
			o.Resolutions = append(o.Resolutions, [2]int{w &^ 1, h &^ 1})
			w, h = w/2, h/2
			if h < 16 {
				break
			}
		}
	}
	if len(o.CRFs) == 0 && len(o.Targets) == 0 {
		o.CRFs = sweepCRFs(o.Encoder.Name, 5)
	}
	if o.Down == "" {
		o.Down = DefaultDownscale
	}
	if o.Up == "" {
		o.Up = DefaultUpscale
	}
	if o.Rungs == 0 {
		o.Rungs = 4
	}
	switch o.Spacing {
	case "":
		o.Spacing = "bitrate"
	case "bitrate", "vmaf":
	default:
		return fmt.Errorf("rung spacing %q: want bitrate or vmaf", o.Spacing)
	}
	for _, r := range o.Resolutions {
		if r[0] > ref.Format.Width || r[1] > ref.Format.Height {
			return fmt.Errorf("resolution %dx%d is larger than the source's %dx%d", r[0], r[1], ref.Format.Width, ref.Format.Height)
		}
	}
	return nil
}

// Ladder encodes the sweep in the session and builds the hull, rungs and
// manifests.
func (s *Session) Ladder(ctx context.Context, o LadderOptions) (*LadderResult, error) {
	if err := o.Encoder.Check(); err != nil {
		return nil, err
	}
	ref := s.ref
	if err := o.defaults(ref); err != nil {
		return nil, err
	}
	res := &LadderResult{Source: ref.Path, Encoder: o.Encoder.Name, Downscale: o.Down, Upscale: o.Up,
		FrameRate: fmt.Sprintf("%d/%d", ref.Rate.Num(), ref.Rate.Den()), Duration: ref.Duration(),
		Aggregate: o.Aggregate.String(), sourceSize: [2]int{ref.Format.Width, ref.Format.Height}}
	nr := len(o.Resolutions)
	scales := make([]*Scaling, nr)
	for i, r := range o.Resolutions {
		if r[0] != ref.Format.Width || r[1] != ref.Format.Height {
			scales[i] = &Scaling{Width: r[0], Height: r[1], Down: o.Down, Up: o.Up}
		}
	}
	// Every resolution's CRF grid first, each probe on its own; then
	// each target's searches, the resolutions' side by side (a search
	// may find the grid's probes in the cache, as it would one after
	// another).
	grid := make([]ProbeReport, nr*len(o.CRFs))
	err := s.each(ctx, len(grid), func(ctx context.Context, k int) error {
		i, crf := k/len(o.CRFs), o.CRFs[k%len(o.CRFs)]
		rep, _, err := s.Measure(ctx, ProbeSpec{Encoder: o.Encoder, CRF: crf, Scale: scales[i], Aggregate: o.Aggregate, GlobalHeader: true})
		if err != nil {
			r := o.Resolutions[i]
			return fmt.Errorf("%dx%d: %w", r[0], r[1], err)
		}
		grid[k] = rep
		return nil
	})
	if err != nil {
		return res, err
	}
	res.Encodes += len(grid)
	for _, rep := range grid {
		if rep.Cached {
			res.CacheHits++
		}
	}
	searched := make([][]*ProbeReport, nr) // per resolution, per target: the answer's probe, nil when unreachable
	for i := range searched {
		searched[i] = make([]*ProbeReport, len(o.Targets))
	}
	for t, target := range o.Targets {
		searches := make([]*CRFResult, nr)
		err := s.each(ctx, nr, func(ctx context.Context, i int) error {
			r := o.Resolutions[i]
			cr, err := s.CRFSearch(ctx, CRFSearchOptions{Encoder: o.Encoder, Target: target, Tolerance: o.Tolerance,
				Aggregate: o.Aggregate, Scale: scales[i], MaxEncodes: 10})
			searches[i] = cr
			if errors.Is(err, ErrTargetUnreachable) {
				return nil // this resolution cannot reach the target: no point
			}
			if err != nil {
				return fmt.Errorf("%dx%d target %g: %w", r[0], r[1], target, err)
			}
			for _, p := range cr.Probes {
				if p.CRF == cr.CRF {
					searched[i][t] = &p
				}
			}
			return nil
		})
		e, h := tally(searches)
		res.Encodes, res.CacheHits = res.Encodes+e, res.CacheHits+h
		if err != nil {
			return res, err
		}
	}
	for i, r := range o.Resolutions {
		add := func(rep ProbeReport) {
			res.Points = append(res.Points, LadderPoint{Resolution: fmt.Sprintf("%dx%d", r[0], r[1]), Width: r[0], Height: r[1],
				CRF: rep.CRF, BitrateKbps: rep.BitrateKbps, PeakKbps: rep.PeakKbps, VMAF: rep.VMAF, Codec: rep.Codec,
				FFmpegArgs: s.FFmpegArgs(o.Encoder, rep.CRF, scales[i])})
		}
		for _, rep := range grid[i*len(o.CRFs) : (i+1)*len(o.CRFs)] {
			add(rep)
		}
		for _, p := range searched[i] {
			if p != nil {
				add(*p)
			}
		}
	}
	for _, p := range res.Points {
		if p.Codec == "" {
			return res, fmt.Errorf("%s at CRF %g: no codec string for the manifests", p.Resolution, p.CRF)
		}
	}
	res.Hull = UpperHull(res.Points)
	res.Rungs = chooseRungs(res.Hull, o.Rungs, o.Spacing)
	if res.HLS, err = HLSMaster(res); err != nil {
		return res, err
	}
	if res.DASH, err = DASHManifest(res); err != nil {
		return res, err
	}
	return res, nil
}

// UpperHull is the upper convex hull of the points' (bitrate, score):
// the encodes no mix of two others beats, from the lowest bitrate up,
// each scoring more than the one before.
func UpperHull(points []LadderPoint) []LadderPoint {
	ps := append([]LadderPoint(nil), points...)
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].BitrateKbps != ps[j].BitrateKbps {
			return ps[i].BitrateKbps < ps[j].BitrateKbps
		}
		return ps[i].VMAF > ps[j].VMAF
	})
	var hull []LadderPoint
	for _, p := range ps {
		if len(hull) > 0 && p.VMAF <= hull[len(hull)-1].VMAF {
			continue // more bits for no more quality
		}
		for len(hull) >= 2 && turn(hull[len(hull)-2], hull[len(hull)-1], p) >= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	return hull
}

// turn is the cross product of (b − a) × (c − a) in (bitrate, score):
// positive when a→b→c turns left, so that b lies under the line a–c.
func turn(a, b, c LadderPoint) float64 {
	return (b.BitrateKbps-a.BitrateKbps)*(c.VMAF-a.VMAF) - (b.VMAF-a.VMAF)*(c.BitrateKbps-a.BitrateKbps)
}

// chooseRungs picks n hull points closest to n targets spread evenly, in
// log bitrate or in score, between the hull's ends; each point once.
func chooseRungs(hull []LadderPoint, n int, spacing string) []LadderPoint {
	if n >= len(hull) {
		return append([]LadderPoint(nil), hull...)
	}
	val := func(p LadderPoint) float64 {
		if spacing == "vmaf" {
			return p.VMAF
		}
		return math.Log(p.BitrateKbps)
	}
	lo, hi := val(hull[0]), val(hull[len(hull)-1])
	used := make([]bool, len(hull))
	var rungs []LadderPoint
	for i := 0; i < n; i++ {
		t := lo
		if n > 1 {
			t = lo + (hi-lo)*float64(i)/float64(n-1)
		}
		best := -1
		for j, p := range hull {
			if !used[j] && (best < 0 || math.Abs(val(p)-t) < math.Abs(val(hull[best])-t)) {
				best = j
			}
		}
		used[best] = true
	}
	for j, p := range hull {
		if used[j] {
			rungs = append(rungs, p)
		}
	}
	return rungs
}
