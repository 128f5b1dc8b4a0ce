package tune

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/vmafsink/vmafsink/internal/ffsource"
	"github.com/vmafsink/vmafsink/vmaf"
)

// DefaultModel is the model probes are scored with unless told otherwise.
const DefaultModel = "version=vmaf_v0.6.1"

// CRFSearchOptions configure a crf-search.
type CRFSearchOptions struct {
	Source  string
	Encoder Encoder
	// Model is a libvmaf model spec (vmaf-score's -m); "" is DefaultModel.
	Model     string
	Target    float64
	Tolerance float64
	Aggregate Aggregate
	// MinCRF, MaxCRF, Step and Start override the encoder's defaults when
	// not zero.
	MinCRF, MaxCRF, Step, Start float64
	MaxEncodes                  int // 0: no limit besides the grid
	// Samples > 0 scores only that many evenly spaced cuts of
	// SampleSeconds each (frame-accurate: cut from the one decode); the
	// whole source is scored when they would cover it.
	Samples       int
	SampleSeconds float64
	// FullCheck encodes and scores the whole source at the answer when
	// sampling, and reports it.
	FullCheck bool
	// Output, when set, receives the winning encode (its container from
	// the name).
	Output  string
	Threads int
	Cache   *Cache // nil: no cache
	// SourceOptions restrict how the source is opened.
	SourceOptions ffsource.Options
	// Scale, when set, encodes the source scaled (a ladder's rung) and
	// scores it scaled back.
	Scale *Scaling
	// Segments, when set, are the frames searched (a shot), instead of
	// the whole source or Samples.
	Segments []Segment
	// keepWinner hands the winning probe's packets to the caller in
	// CRFResult.winner, when it was encoded in this run.
	keepWinner bool
	// OnProbe, if set, is told of every probe's progress.
	OnProbe func(ProbeEvent)
}

// ProbeEvent is a probe's progress: one per frame scored, and one when
// it ends (Done) with its pooled score.
type ProbeEvent struct {
	Probe          int // 1 for the first probe of the search
	CRF            float64
	Frame, Frames  int
	Done, Cached   bool
	Score, Bitrate float64      // when Done
	Result         *vmaf.Result // the frame's metrics, valid during the call; nil when Done
}

// ProbeReport is one probe in a search's result.
type ProbeReport struct {
	CRF         float64 `json:"crf"`
	VMAF        float64 `json:"vmaf"`
	BitrateKbps float64 `json:"bitrate_kbps"`
	Bytes       int64   `json:"bytes"`
	Cached      bool    `json:"cached"`
	Codec       string  `json:"codec,omitempty"`
	PeakKbps    float64 `json:"peak_kbps"`
	Seconds     float64 `json:"encode_seconds"`
}

// FullCheck is the whole source encoded at the answer and scored.
type FullCheck struct {
	VMAF        float64 `json:"vmaf"`
	BitrateKbps float64 `json:"bitrate_kbps"`
}

// CRFResult is a crf-search's answer.
type CRFResult struct {
	CRF                float64       `json:"crf"`
	VMAF               float64       `json:"vmaf"`
	BitrateKbps        float64       `json:"bitrate_kbps"`
	PredictedSizeBytes int64         `json:"predicted_size_bytes"`
	Encodes            int           `json:"encodes"`
	CacheHits          int           `json:"cache_hits"`
	FFmpegArgs         []string      `json:"ffmpeg_args"`
	Encoder            string        `json:"encoder"`
	Target             float64       `json:"target"`
	Tolerance          float64       `json:"tolerance"`
	Aggregate          string        `json:"aggregate"`
	Model              string        `json:"model"`
	Frames             int           `json:"frames"`
	SampledFrames      int           `json:"sampled_frames"`
	Bounded            bool          `json:"bounded"`
	Probes             []ProbeReport `json:"probes"`
	FullCheck          *FullCheck    `json:"full_check,omitempty"`
	Output             string        `json:"output,omitempty"`

	winner *Probe // with keepWinner
}

// CRFSearch finds the largest CRF whose encode of the source scores at
// least the target (see Search). The source is decoded once; each probe
// encodes it in memory and scores the encoder's output as it comes.
func CRFSearch(ctx context.Context, o CRFSearchOptions) (*CRFResult, error) {
	if err := o.Encoder.Check(); err != nil {
		return nil, err
	}
	s, err := OpenSession(SessionOptions{Source: o.Source, Model: o.Model, Threads: o.Threads, Cache: o.Cache,
		SourceOptions: o.SourceOptions, OnProbe: o.OnProbe})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.CRFSearch(ctx, o)
}

// CRFSearch runs a search in the session; o's source, model, threads,
// cache and callbacks are the session's.
func (s *Session) CRFSearch(ctx context.Context, o CRFSearchOptions) (*CRFResult, error) {
	if err := o.Encoder.Check(); err != nil {
		return nil, err
	}
	globalHeader := false
	if o.Output != "" {
		var err error
		if globalHeader, err = NeedsGlobalHeader(o.Output); err != nil {
			return nil, err
		}
	}
	ref := s.ref
	segs := o.Segments
	if segs == nil {
		segs = sampleSegments(ref.Frames(), ref.Rate.Float64(), o.Samples, o.SampleSeconds)
	}
	whole := len(segs) == 1 && segs[0] == Segment{0, ref.Frames()}
	res := &CRFResult{
		Encoder: o.Encoder.Name, Target: o.Target, Tolerance: o.Tolerance, Aggregate: o.Aggregate.String(),
		Model: s.modelSpec, Frames: ref.Frames(), SampledFrames: framesIn(segs),
	}
	kept := map[float64]*Probe{}
	defer func() {
		for _, p := range kept {
			p.Free()
		}
	}()
	spec := ProbeSpec{Encoder: o.Encoder, Scale: o.Scale, Segments: segs, Aggregate: o.Aggregate,
		GlobalHeader: globalHeader, Keep: (o.Output != "" && whole) || o.keepWinner}
	measure := func(ctx context.Context, crf float64) (float64, error) {
		sp := spec
		sp.CRF = crf
		rep, p, err := s.Measure(ctx, sp)
		if err != nil {
			return 0, err
		}
		res.Probes = append(res.Probes, rep)
		if rep.Cached {
			res.CacheHits++
		}
		if p != nil {
			if rep.VMAF >= o.Target {
				kept[crf] = p
			} else {
				p.Free()
			}
		}
		return rep.VMAF, nil
	}
	sr, err := Search(ctx, o.searchConfig(), measure)
	res.Encodes = len(res.Probes)
	if err != nil {
		return res, err
	}
	res.CRF, res.VMAF, res.Bounded = sr.CRF, sr.Best.Score, sr.Bounded
	res.FFmpegArgs = s.FFmpegArgs(spec.Encoder, sr.CRF, spec.Scale)
	for _, p := range res.Probes {
		if p.CRF == sr.CRF {
			res.BitrateKbps = p.BitrateKbps
		}
	}
	res.PredictedSizeBytes = int64(math.Round(res.BitrateKbps * 1000 / 8 * ref.Duration()))

	winner := kept[sr.CRF]
	if (o.Output != "" && winner == nil) || (o.FullCheck && !whole) {
		// The answer's encode is not in memory (sampled, or from the
		// cache): encode the whole source once more.
		sp := spec
		sp.CRF, sp.Segments, sp.Keep = sr.CRF, []Segment{{0, ref.Frames()}}, o.Output != ""
		sp.NoCache = true
		rep, p, err := s.Measure(ctx, sp)
		if err != nil {
			return res, fmt.Errorf("encoding the answer: %w", err)
		}
		if p != nil {
			kept[-1] = p
			winner = p
		}
		if !whole {
			res.FullCheck = &FullCheck{VMAF: rep.VMAF, BitrateKbps: rep.BitrateKbps}
		}
	}
	if o.Output != "" {
		if err := WriteOutput(o.Output, winner); err != nil {
			return res, err
		}
		res.Output = o.Output
	}
	if o.keepWinner && winner != nil {
		// The caller takes the winning probe's packets (and frees them).
		for c, p := range kept {
			if p == winner {
				delete(kept, c)
			}
		}
		res.winner = winner
	}
	return res, nil
}

func (o CRFSearchOptions) searchConfig() SearchConfig {
	t := traitsOf(o.Encoder.Name)
	cfg := SearchConfig{Target: o.Target, Tolerance: o.Tolerance, Min: t.min, Max: t.max, Step: t.step,
		Start: t.start, Growth: t.growth, MaxProbes: o.MaxEncodes}
	if o.MinCRF != 0 {
		cfg.Min = o.MinCRF
	}
	if o.MaxCRF != 0 {
		cfg.Max = o.MaxCRF
	}
	if o.Step != 0 {
		cfg.Step = o.Step
	}
	if o.Start != 0 {
		cfg.Start = o.Start
	}
	return cfg
}

// sampleSegments cuts n samples of seconds each, evenly spaced over the
// frames (the first at the start, the last ending at the end); the whole
// run when n is 0 or the samples would cover it.
func sampleSegments(frames int, fps float64, n int, seconds float64) []Segment {
	length := int(math.Round(seconds * fps))
	if n <= 0 || length <= 0 || n*length >= frames {
		return []Segment{{0, frames}}
	}
	segs := make([]Segment, n)
	for i := range segs {
		start := 0
		if n > 1 {
			start = int(math.Round(float64(i) * float64(frames-length) / float64(n-1)))
		}
		segs[i] = Segment{start, start + length}
	}
	return segs
}

func framesIn(segs []Segment) int {
	n := 0
	for _, s := range segs {
		n += s.End - s.Start
	}
	return n
}

// Check reports what is wrong with the options before any work.
func (o CRFSearchOptions) Check() error {
	switch {
	case o.Source == "":
		return errors.New("no source (-i)")
	case o.Target <= 0 || o.Target > 100:
		return fmt.Errorf("target %g: want a score above 0 and at most 100", o.Target)
	case o.Samples < 0 || (o.Samples > 0 && !(o.SampleSeconds > 0)):
		return errors.New("samples need a positive count and length")
	}
	if err := o.searchConfig().check(); err != nil {
		return err
	}
	return o.Encoder.Check()
}
