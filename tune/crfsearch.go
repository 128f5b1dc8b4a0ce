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
	Cached      bool    `json:"cached"`
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
}

// CRFSearch finds the largest CRF whose encode of the source scores at
// least the target (see Search). The source is decoded once; each probe
// encodes it in memory and scores the encoder's output as it comes.
func CRFSearch(ctx context.Context, o CRFSearchOptions) (*CRFResult, error) {
	if err := o.Encoder.Check(); err != nil {
		return nil, err
	}
	if o.Model == "" {
		o.Model = DefaultModel
	}
	model, err := vmaf.ParseModelSpec(o.Model)
	if err != nil {
		return nil, err
	}
	cfg := o.searchConfig()
	globalHeader := false
	if o.Output != "" {
		if globalHeader, err = NeedsGlobalHeader(o.Output); err != nil {
			return nil, err
		}
	}
	var srcHash string
	if o.Cache != nil {
		if srcHash, err = HashFile(o.Source); err != nil {
			return nil, fmt.Errorf("source: %w", err)
		}
	}
	ref, err := LoadReference(o.Source, o.SourceOptions)
	if err != nil {
		return nil, err
	}
	defer ref.Close()
	segs := sampleSegments(ref.Frames(), ref.Rate.Float64(), o.Samples, o.SampleSeconds)
	whole := len(segs) == 1 && segs[0] == Segment{0, ref.Frames()}
	pixFmt := ref.Format.PixelFormat().Name()

	res := &CRFResult{
		Encoder: o.Encoder.Name, Target: o.Target, Tolerance: o.Tolerance, Aggregate: o.Aggregate.String(),
		Model: o.Model, Frames: ref.Frames(), SampledFrames: framesIn(segs),
	}
	kept := map[float64]*Probe{}
	defer func() {
		for _, p := range kept {
			p.Free()
		}
	}()
	pcfg := ProbeConfig{Encoder: o.Encoder, Model: model, Threads: o.Threads, GlobalHeader: globalHeader,
		KeepPackets: o.Output != "" && whole}
	runProbe := func(ctx context.Context, crf float64, segs []Segment, n int) (*Probe, error) {
		c := pcfg
		if o.OnProbe != nil {
			c.OnFrame = func(done, total int, r *vmaf.Result) {
				o.OnProbe(ProbeEvent{Probe: n, CRF: crf, Frame: done, Frames: total, Result: r})
			}
		}
		return ref.Probe(ctx, c, crf, segs)
	}
	measure := func(ctx context.Context, crf float64) (float64, error) {
		n := len(res.Probes) + 1
		key := probeKey{Source: srcHash, Encoder: o.Encoder.Name, Args: o.Encoder.FFmpegArgs(crf, pixFmt),
			Model: ModelIdentity(o.Model), Aggregate: o.Aggregate.String(), Segments: segs, Version: cacheVersion()}
		if c, ok := o.Cache.get(key); ok {
			rep := ProbeReport{CRF: crf, VMAF: c.Score, BitrateKbps: float64(c.Bytes) * 8 / c.Seconds / 1000, Cached: true}
			res.Probes = append(res.Probes, rep)
			res.CacheHits++
			if o.OnProbe != nil {
				o.OnProbe(ProbeEvent{Probe: n, CRF: crf, Frame: c.Frames, Frames: c.Frames, Done: true, Cached: true, Score: c.Score, Bitrate: rep.BitrateKbps})
			}
			return c.Score, nil
		}
		p, err := runProbe(ctx, crf, segs, n)
		if err != nil {
			return 0, fmt.Errorf("probe at CRF %s: %w", formatCRF(crf), err)
		}
		score := o.Aggregate.Of(p.Scores)
		res.Probes = append(res.Probes, ProbeReport{CRF: crf, VMAF: score, BitrateKbps: p.BitrateKbps(), Seconds: p.EncodeTime.Seconds()})
		// A cache that cannot be written only costs a later encode.
		_ = o.Cache.put(key, CachedProbe{Score: score, Bytes: p.Bytes, Seconds: p.Seconds, Frames: len(p.Scores)})
		if o.OnProbe != nil {
			o.OnProbe(ProbeEvent{Probe: n, CRF: crf, Frame: len(p.Scores), Frames: len(p.Scores), Done: true, Score: score, Bitrate: p.BitrateKbps()})
		}
		if pcfg.KeepPackets && score >= o.Target {
			kept[crf] = p
		} else {
			p.Free()
		}
		return score, nil
	}
	sr, err := Search(ctx, cfg, measure)
	res.Encodes = len(res.Probes)
	if err != nil {
		return res, err
	}
	res.CRF, res.VMAF, res.Bounded = sr.CRF, sr.Best.Score, sr.Bounded
	res.FFmpegArgs = o.Encoder.FFmpegArgs(sr.CRF, pixFmt)
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
		c := pcfg
		c.KeepPackets = o.Output != ""
		p, err := runProbeWith(ctx, ref, c, sr.CRF, o.OnProbe, len(res.Probes)+1)
		if err != nil {
			return res, fmt.Errorf("encoding the answer: %w", err)
		}
		kept[-1] = p
		winner = p
		if !whole {
			res.FullCheck = &FullCheck{VMAF: o.Aggregate.Of(p.Scores), BitrateKbps: p.BitrateKbps()}
		}
	}
	if o.Output != "" {
		if err := WriteOutput(o.Output, winner); err != nil {
			return res, err
		}
		res.Output = o.Output
	}
	return res, nil
}

func runProbeWith(ctx context.Context, ref *Reference, c ProbeConfig, crf float64, on func(ProbeEvent), n int) (*Probe, error) {
	if on != nil {
		c.OnFrame = func(done, total int, r *vmaf.Result) {
			on(ProbeEvent{Probe: n, CRF: crf, Frame: done, Frames: total, Result: r})
		}
	}
	return ref.Probe(ctx, c, crf, []Segment{{0, ref.Frames()}})
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
