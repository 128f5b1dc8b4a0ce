package tune

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/vmafsink/vmafsink/internal/ffsource"
	"github.com/vmafsink/vmafsink/vmaf"
)

// PerShotOptions configure a per-shot plan: the source cut into shots,
// each searched for the largest CRF meeting the target on its own.
type PerShotOptions struct {
	Encoder   Encoder
	Target    float64
	Tolerance float64
	Aggregate Aggregate
	Detection ShotDetection
	// Output, when set, receives the plan encoded (each shot at its CRF,
	// one after the other), which is then decoded and scored whole.
	// Its container must take headers in-band: .ts, .264, .265, .ivf.
	Output string
}

// Shot is one shot of a plan.
type Shot struct {
	Index       int      `json:"index"`
	StartFrame  int      `json:"start_frame"`
	EndFrame    int      `json:"end_frame"` // exclusive
	Frames      int      `json:"frames"`
	StartTime   float64  `json:"start_seconds"`
	CRF         float64  `json:"crf"`
	VMAF        float64  `json:"predicted_vmaf"`
	BitrateKbps float64  `json:"bitrate_kbps"`
	Bytes       int64    `json:"bytes"`
	Encodes     int      `json:"encodes"`
	FFmpegArgs  []string `json:"ffmpeg_args"`
	Bounded     bool     `json:"bounded,omitempty"`
}

// PerShotResult is a plan, and its encode when asked for.
type PerShotResult struct {
	Source            string     `json:"source"`
	Encoder           string     `json:"encoder"`
	Target            float64    `json:"target"`
	Aggregate         string     `json:"aggregate"`
	ShotDetection     string     `json:"shot_detection"`
	Shots             []Shot     `json:"shots"`
	PredictedVMAF     float64    `json:"predicted_vmaf"` // the shots' scores weighted by their frames
	PredictedBitrate  float64    `json:"predicted_bitrate_kbps"`
	Encodes           int        `json:"encodes"`
	CacheHits         int        `json:"cache_hits"`
	Commands          [][]string `json:"ffmpeg_commands"`
	ConcatList        string     `json:"concat_list"`
	Output            string     `json:"output,omitempty"`
	OutputVMAF        *float64   `json:"output_vmaf,omitempty"` // the encode decoded and scored whole
	OutputBitrateKbps float64    `json:"output_bitrate_kbps,omitempty"`
	TargetMet         *bool      `json:"target_met,omitempty"`
}

// ErrNeedsInbandHeaders refuses a per-shot output whose container keeps
// one global header: each shot's encoder writes its own.
var ErrNeedsInbandHeaders = errors.New("per-shot output needs a container with in-band headers (.ts, .264, .265, .ivf): each shot is its own encode")

// PerShot plans (and optionally encodes) the source shot by shot.
func (s *Session) PerShot(ctx context.Context, o PerShotOptions) (*PerShotResult, error) {
	if err := o.Encoder.Check(); err != nil {
		return nil, err
	}
	if o.Detection == (ShotDetection{}) {
		o.Detection = DefaultShotDetection
	}
	if o.Output != "" {
		gh, err := NeedsGlobalHeader(o.Output)
		if err != nil {
			return nil, err
		}
		if gh {
			return nil, fmt.Errorf("%s: %w", o.Output, ErrNeedsInbandHeaders)
		}
	}
	ref := s.ref
	res := &PerShotResult{Source: ref.Path, Encoder: o.Encoder.Name, Target: o.Target, Aggregate: o.Aggregate.String(),
		ShotDetection: o.Detection.Method()}
	fps := ref.Rate.Float64()
	var bytes int64
	weighted := 0.0
	var kept []*Probe
	defer func() {
		for _, p := range kept {
			p.Free()
		}
	}()
	ext := filepath.Ext(o.Output)
	if ext == "" {
		ext = ".ts"
	}
	var list strings.Builder
	// The winning probe of each shot, when it was encoded in this run
	// (not taken from the cache): the plan's encode is those packets.
	var winners []*Probe
	defer func() {
		for _, p := range winners {
			if p != nil {
				p.Free()
			}
		}
	}()
	// The shots' searches are independent (disjoint frames): they run
	// side by side, and the plan is assembled in shot order.
	segs := ref.DetectShots(o.Detection)
	winners = make([]*Probe, len(segs))
	searches := make([]*CRFResult, len(segs))
	err := s.each(ctx, len(segs), func(ctx context.Context, i int) error {
		seg := segs[i]
		cr, err := s.CRFSearch(ctx, CRFSearchOptions{Encoder: o.Encoder, Target: o.Target, Tolerance: o.Tolerance,
			Aggregate: o.Aggregate, Segments: []Segment{seg}, MaxEncodes: 10, keepWinner: o.Output != ""})
		if cr != nil {
			winners[i], searches[i] = cr.winner, cr
		}
		if err != nil {
			return fmt.Errorf("shot %d (frames %d to %d): %w", i, seg.Start, seg.End-1, err)
		}
		return nil
	})
	res.Encodes, res.CacheHits = tally(searches)
	if err != nil {
		return res, err
	}
	for i, seg := range segs {
		cr := searches[i]
		sh := Shot{Index: i, StartFrame: seg.Start, EndFrame: seg.End, Frames: seg.End - seg.Start, StartTime: float64(seg.Start) / fps,
			CRF: cr.CRF, VMAF: cr.VMAF, BitrateKbps: cr.BitrateKbps, Encodes: cr.Encodes, Bounded: cr.Bounded,
			FFmpegArgs: append([]string{"-vf", fmt.Sprintf("trim=start_frame=%d:end_frame=%d,setpts=PTS-STARTPTS", seg.Start, seg.End)},
				cr.FFmpegArgs...)}
		for _, p := range cr.Probes {
			if p.CRF == cr.CRF {
				sh.Bytes = p.Bytes
			}
		}
		bytes += sh.Bytes
		weighted += sh.VMAF * float64(sh.Frames)
		name := fmt.Sprintf("shot_%03d%s", i, ext)
		res.Commands = append(res.Commands, append(append([]string{"ffmpeg", "-i", ref.Path}, sh.FFmpegArgs...), name))
		fmt.Fprintf(&list, "file '%s'\n", name)
		res.Shots = append(res.Shots, sh)
	}
	res.PredictedVMAF = weighted / float64(ref.Frames())
	res.PredictedBitrate = float64(bytes) * 8 / ref.Duration() / 1000
	res.ConcatList = list.String()
	out := "OUTPUT" + ext
	if o.Output != "" {
		out = o.Output
	}
	res.Commands = append(res.Commands, []string{"ffmpeg", "-f", "concat", "-safe", "0", "-i", "shots.txt", "-c", "copy", out})
	if o.Output == "" {
		return res, nil
	}

	// The plan encoded: each shot at its CRF, kept in memory, written one
	// after another, then read back and scored whole.
	var parts []outputPart
	for i, sh := range res.Shots {
		p := winners[i]
		if p == nil {
			// Its answer came from the cache: encode it again.
			var err error
			if _, p, err = s.Measure(ctx, ProbeSpec{Encoder: o.Encoder, CRF: sh.CRF, Segments: []Segment{{sh.StartFrame, sh.EndFrame}},
				Aggregate: o.Aggregate, Keep: true, NoCache: true}); err != nil {
				return res, fmt.Errorf("encoding shot %d: %w", sh.Index, err)
			}
			kept = append(kept, p)
		}
		parts = append(parts, outputPart{p, int64(sh.StartFrame)})
	}
	if err := writeParts(o.Output, parts); err != nil {
		return res, err
	}
	res.Output = o.Output
	scores, err := ScoreFile(ctx, ref, s.model, s.o.Threads, o.Output)
	if err != nil {
		return res, fmt.Errorf("scoring %s: %w", o.Output, err)
	}
	v := o.Aggregate.Of(scores)
	met := v >= o.Target
	res.OutputVMAF, res.TargetMet = &v, &met
	var total int64
	for _, part := range parts {
		total += part.p.Bytes
	}
	res.OutputBitrateKbps = float64(total) * 8 / ref.Duration() / 1000
	return res, nil
}

// ScoreFile decodes path and scores it whole against the reference,
// frame by frame, returning the model's per-frame scores.
func ScoreFile(ctx context.Context, ref *Reference, model *vmaf.Model, threads int, path string) ([]float64, error) {
	src, err := ffsource.Open(path, ffsource.Options{Buffers: 8})
	if err != nil {
		return nil, err
	}
	defer src.Close()
	if err := src.Conform(ref.Format, ""); err != nil {
		return nil, err
	}
	var scores []float64
	var failure error
	vc, err := vmaf.NewContext(vmaf.Config{Models: []*vmaf.Model{model}, Threads: threads, OnResult: func(r *vmaf.Result) {
		v, ok := r.Get(model.Name)
		if !ok && failure == nil {
			failure = fmt.Errorf("no %s score for frame %d", model.Name, r.Index)
		}
		scores = append(scores, v)
	}})
	if err != nil {
		return nil, err
	}
	defer vc.Close()
	n := 0
	for ; ; n++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		f, err := src.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if n >= ref.Frames() {
			f.Release()
			return nil, fmt.Errorf("more frames than the source's %d", ref.Frames())
		}
		if err := vc.Submit(ref.pics[n], f.Picture, f.ReleaseFunc()); err != nil {
			f.Release()
			return nil, err
		}
	}
	if n != ref.Frames() {
		return nil, fmt.Errorf("%d frames, the source has %d", n, ref.Frames())
	}
	if err := vc.Flush(); err != nil {
		return nil, err
	}
	return scores, failure
}
