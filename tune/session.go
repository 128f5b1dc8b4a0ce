package tune

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/vmafsink/vmafsink/internal/ffsource"
	"github.com/vmafsink/vmafsink/vmaf"
)

// SessionOptions configure a Session.
type SessionOptions struct {
	Source string
	// Model is a libvmaf model spec (vmaf-score's -m); "" is DefaultModel.
	Model   string
	Threads int
	// Jobs is how many independent probes run at once (0: DefaultJobs).
	Jobs  int
	Cache *Cache // nil: no cache
	// SourceOptions restrict how the source is opened.
	SourceOptions ffsource.Options
	// OnProbe, if set, is told of every probe's progress.
	OnProbe func(ProbeEvent)
}

// Session is one source decoded once, and the model and cache every
// probe of a run shares: a search, a comparison of codecs, a ladder's
// rungs, a plan's shots.
type Session struct {
	o         SessionOptions
	ref       *Reference
	model     *vmaf.Model
	modelSpec string
	modelID   string
	srcHash   string
	probes    atomic.Int64 // probes measured so far, cached or not
	live      *Live        // NewLive's; nil: probes score directly
}

// OpenSession checks the model and decodes the source.
func OpenSession(o SessionOptions) (*Session, error) {
	if o.Model == "" {
		o.Model = DefaultModel
	}
	model, err := vmaf.ParseModelSpec(o.Model)
	if err != nil {
		return nil, err
	}
	s := &Session{o: o, model: model, modelSpec: o.Model, modelID: ModelIdentity(o.Model)}
	if o.Cache != nil {
		if s.srcHash, err = HashFile(o.Source); err != nil {
			return nil, fmt.Errorf("source: %w", err)
		}
	}
	if s.ref, err = LoadReference(o.Source, o.SourceOptions); err != nil {
		return nil, err
	}
	return s, nil
}

// Close frees the decoded source.
func (s *Session) Close() { s.ref.Close() }

// Reference is the decoded source.
func (s *Session) Reference() *Reference { return s.ref }

// ProbeSpec is one probe: an encoder at a CRF, over some of the
// source's frames, optionally scaled.
type ProbeSpec struct {
	Encoder   Encoder
	CRF       float64
	Scale     *Scaling  // nil: the source's size
	Segments  []Segment // nil: every frame
	Aggregate Aggregate
	// GlobalHeader and Keep are ProbeConfig's (for writing the encode).
	GlobalHeader, Keep bool
	// NoCache measures even when the cache has the probe.
	NoCache bool
}

// FFmpegArgs are the ffmpeg arguments reproducing a probe's encode.
func (s *Session) FFmpegArgs(e Encoder, crf float64, sc *Scaling) []string {
	args := e.FFmpegArgs(crf, s.ref.Format.PixelFormat().Name())
	if sc != nil {
		args = append(sc.ffmpegArgs(), args...)
	}
	return args
}

// Measure encodes and scores one probe, or takes it from the cache. The
// Probe is returned (for the caller to Free) only when spec.Keep asked
// for its packets and it was encoded.
func (s *Session) Measure(ctx context.Context, spec ProbeSpec) (ProbeReport, *Probe, error) {
	n := int(s.probes.Add(1))
	segs := spec.Segments
	if segs == nil {
		segs = []Segment{{0, s.ref.Frames()}}
	}
	args := s.FFmpegArgs(spec.Encoder, spec.CRF, spec.Scale)
	if spec.Scale != nil {
		args = append(args, "scored-after-scaling="+spec.Scale.Up)
	}
	key := probeKey{Source: s.srcHash, Encoder: spec.Encoder.Name, Args: args, Model: s.modelID,
		Aggregate: spec.Aggregate.String(), Segments: segs, Version: cacheVersion()}
	on := s.o.OnProbe
	if !spec.NoCache {
		if c, ok := s.o.Cache.get(key); ok {
			rep := ProbeReport{CRF: spec.CRF, VMAF: c.Score, BitrateKbps: float64(c.Bytes) * 8 / c.Seconds / 1000, Bytes: c.Bytes, Cached: true, Codec: c.Codec, PeakKbps: c.Peak}
			if on != nil {
				on(ProbeEvent{Probe: n, CRF: spec.CRF, Frame: c.Frames, Frames: c.Frames, Done: true, Cached: true, Score: c.Score, Bitrate: rep.BitrateKbps})
			}
			return rep, nil, nil
		}
	}
	cfg := ProbeConfig{Encoder: spec.Encoder, Model: s.model, Threads: s.o.Threads, GlobalHeader: spec.GlobalHeader,
		KeepPackets: spec.Keep, Scale: spec.Scale, live: s.live}
	if s.live != nil {
		cfg.liveProbe = LiveProbe{Probe: n, Encoder: EncoderLabel(spec.Encoder), CRF: spec.CRF, Width: s.ref.Format.Width, Height: s.ref.Format.Height}
		if spec.Scale != nil {
			cfg.liveProbe.Width, cfg.liveProbe.Height = spec.Scale.Width, spec.Scale.Height
		}
	}
	if on != nil {
		cfg.OnFrame = func(done, total int, r *vmaf.Result) {
			on(ProbeEvent{Probe: n, CRF: spec.CRF, Frame: done, Frames: total, Result: r})
		}
	}
	p, err := s.ref.Probe(ctx, cfg, spec.CRF, segs)
	if err != nil {
		return ProbeReport{}, nil, fmt.Errorf("probe at CRF %s: %w", formatCRF(spec.CRF), err)
	}
	score := spec.Aggregate.Of(p.Scores)
	rep := ProbeReport{CRF: spec.CRF, VMAF: score, BitrateKbps: p.BitrateKbps(), Bytes: p.Bytes, Seconds: p.EncodeTime.Seconds(), Codec: p.Codec, PeakKbps: p.PeakKbps}
	// A cache that cannot be written only costs a later encode.
	_ = s.o.Cache.put(key, CachedProbe{Score: score, Bytes: p.Bytes, Seconds: p.Seconds, Frames: len(p.Scores), Codec: p.Codec, Peak: p.PeakKbps})
	if on != nil {
		on(ProbeEvent{Probe: n, CRF: spec.CRF, Frame: len(p.Scores), Frames: len(p.Scores), Done: true, Score: score, Bitrate: rep.BitrateKbps})
	}
	if !spec.Keep {
		p.Free()
		p = nil
	}
	return rep, p, nil
}
