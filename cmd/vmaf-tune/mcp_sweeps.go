package main

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vmafsink/vmafsink/internal/ffsource"
	"github.com/vmafsink/vmafsink/tune"
)

// The sweeps beyond one search: run_compare, run_ladder and
// run_tune_per_shot, each the command of the same name.

const (
	toolCompare = "run_compare"
	toolLadder  = "run_ladder"
	toolPerShot = "run_tune_per_shot"
)

type compareToolArgs struct {
	Source    string    `json:"source" jsonschema:"absolute path of the source video inside an allowed directory"`
	Encoders  []string  `json:"encoders" jsonschema:"encoders as NAME or NAME:PRESET, the first the anchor (e.g. libx264:veryfast, libsvtav1:10)"`
	Targets   []float64 `json:"targets" jsonschema:"VMAF targets each encoder is searched to"`
	Aggregate string    `json:"aggregate,omitempty" jsonschema:"mean (default), harmonic_mean or pN"`
	Sweep     int       `json:"sweep,omitempty" jsonschema:"CRFs in each encoder's BD-rate curve (default 5)"`
	Model     string    `json:"model,omitempty" jsonschema:"VMAF model as vmaf-score --model takes it (default version=vmaf_v0.6.1)"`
}

type ladderToolArgs struct {
	Source      string    `json:"source" jsonschema:"absolute path of the source video inside an allowed directory"`
	Encoder     string    `json:"encoder" jsonschema:"FFmpeg encoder"`
	Preset      string    `json:"preset,omitempty" jsonschema:"the encoder's preset"`
	Resolutions []string  `json:"resolutions,omitempty" jsonschema:"WIDTHxHEIGHT of each rendition (default: the source's and halves down to 360 lines)"`
	CRFs        []float64 `json:"crfs,omitempty" jsonschema:"the CRF sweep (default: five over the encoder's usual range)"`
	Targets     []float64 `json:"targets,omitempty" jsonschema:"instead of crfs: VMAF targets each resolution is searched to"`
	Downscale   string    `json:"downscale,omitempty" jsonschema:"swscale filter for downscaling (default lanczos)"`
	Upscale     string    `json:"upscale,omitempty" jsonschema:"swscale filter for scaling back before scoring (default bicubic)"`
	Rungs       int       `json:"rungs,omitempty" jsonschema:"rungs on the hull (default 4)"`
	Spacing     string    `json:"spacing,omitempty" jsonschema:"rungs evenly in log bitrate (bitrate, default) or in vmaf"`
	Aggregate   string    `json:"aggregate,omitempty" jsonschema:"mean (default), harmonic_mean or pN"`
	Model       string    `json:"model,omitempty" jsonschema:"VMAF model (default version=vmaf_v0.6.1)"`
}

type perShotToolArgs struct {
	Source       string   `json:"source" jsonschema:"absolute path of the source video inside an allowed directory"`
	Encoder      string   `json:"encoder" jsonschema:"FFmpeg encoder"`
	Preset       string   `json:"preset,omitempty" jsonschema:"the encoder's preset"`
	Target       float64  `json:"target" jsonschema:"the VMAF score each shot must reach"`
	Aggregate    string   `json:"aggregate,omitempty" jsonschema:"mean (default), harmonic_mean or pN"`
	CutThreshold float64  `json:"cut_threshold,omitempty" jsonschema:"luma histogram distance (0 to 1) above which frames are cut apart (default 0.1)"`
	MinShot      *float64 `json:"min_shot_seconds,omitempty" jsonschema:"the shortest shot in seconds (default 0.5)"`
	Output       string   `json:"output,omitempty" jsonschema:"encode the plan into this file (no directory; .ts, .264, .265 or .ivf) in the server's output directory and score it whole"`
	Model        string   `json:"model,omitempty" jsonschema:"VMAF model (default version=vmaf_v0.6.1)"`
}

func (s *tuneServer) addSweepTools() {
	f := false
	ann := func(title string) *mcp.ToolAnnotations {
		return &mcp.ToolAnnotations{Title: title, IdempotentHint: true, DestructiveHint: &f, OpenWorldHint: &f}
	}
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name: toolCompare,
		Description: "Compare encoders on one source, as vmaf-tune compare does: each searched to each VMAF target and ranked by bitrate " +
			"(CRF, score, bitrate, encode time), and each swept over CRFs for its BD-rate against the first encoder. Progress per probe; cancelling stops the encoder.",
		Annotations: ann("Compare encoders"),
	}, guarded(s, toolCompare, s.runCompare))
	in, err := jsonschema.For[ladderToolArgs](nil)
	if err != nil {
		panic(fmt.Sprintf("vmaf-tune: schema of %s: %v", toolLadder, err))
	}
	in.Properties["spacing"].Enum = []any{"bitrate", "vmaf"}
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name: toolLadder,
		Description: "Build a bitrate ladder, as vmaf-tune ladder does: resolutions × a CRF sweep (or targets), scored after scaling back to the source's size, " +
			"the upper convex hull of (bitrate, VMAF), rungs on it, and an HLS master playlist and DASH MPD with the encodes' real CODECS and bitrates. Progress per probe.",
		InputSchema: in,
		Annotations: ann("Bitrate ladder"),
	}, guarded(s, toolLadder, s.runLadder))
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name: toolPerShot,
		Description: "Plan a per-shot encode, as vmaf-tune per-shot does: shots by luma histogram distance, the largest CRF per shot meeting the target, " +
			"the plan, its ffmpeg commands, and with output the plan encoded and scored whole. Progress per probe.",
		Annotations: ann("Per-shot CRF plan"),
	}, guarded(s, toolPerShot, s.runPerShot))
}

// guarded runs a sweep with the server's rules: one of --jobs slots, a
// panic made the call's error.
func guarded[A, R any](s *tuneServer, name string, run func(context.Context, *mcp.CallToolRequest, A) (R, error)) mcp.ToolHandlerFor[A, R] {
	return func(ctx context.Context, req *mcp.CallToolRequest, a A) (res *mcp.CallToolResult, out R, err error) {
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("panic", "tool", name, "panic", r, "stack", string(debug.Stack()))
				var zero R
				res, out, err = nil, zero, fmt.Errorf("internal error in %s: %v", name, r)
			}
		}()
		select {
		case s.slots <- struct{}{}:
			defer func() { <-s.slots }()
		default:
			var zero R
			return nil, zero, fmt.Errorf("busy: %d sweep(s) already running, the most this server runs at once (vmaf-tune mcp --jobs); call again when one has finished", cap(s.slots))
		}
		out, err = run(ctx, req, a)
		if err != nil && ctx.Err() != nil {
			err = fmt.Errorf("cancelled: %w", err)
		}
		return nil, out, err
	}
}

// session opens a source and model for a call, checked against --allow.
func (s *tuneServer) session(ctx context.Context, req *mcp.CallToolRequest, source, model string) (*tune.Session, error) {
	src, err := s.allowed.Within(source)
	if err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	if model != "" {
		if model, err = s.allowed.Resolve(model, ""); err != nil {
			return nil, fmt.Errorf("model: %w", err)
		}
	}
	return tune.OpenSession(tune.SessionOptions{Source: src, Model: model, Threads: s.searchThreads(0), Cache: s.cache,
		SourceOptions: mcpSourceOptions(), OnProbe: newProbeNotifier(ctx, req).event})
}

func (s *tuneServer) runCompare(ctx context.Context, req *mcp.CallToolRequest, a compareToolArgs) (*tune.CompareResult, error) {
	var o tune.CompareOptions
	var err error
	if len(a.Encoders) == 0 || len(a.Targets) == 0 {
		return nil, fmt.Errorf("give encoders and targets")
	}
	for _, e := range a.Encoders {
		encs, err := tune.ParseEncoders(e)
		if err != nil {
			return nil, err
		}
		o.Encoders = append(o.Encoders, encs...)
	}
	o.Targets, o.Tolerance, o.Sweep = a.Targets, 0.5, a.Sweep
	if o.Aggregate, err = tune.ParseAggregate(a.Aggregate); err != nil {
		return nil, err
	}
	sess, err := s.session(ctx, req, a.Source, a.Model)
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	return sess.Compare(ctx, o)
}

func (s *tuneServer) runLadder(ctx context.Context, req *mcp.CallToolRequest, a ladderToolArgs) (*tune.LadderResult, error) {
	o := tune.LadderOptions{Encoder: tune.Encoder{Name: a.Encoder, Preset: a.Preset}, CRFs: a.CRFs, Targets: a.Targets,
		Tolerance: 0.5, Down: a.Downscale, Up: a.Upscale, Rungs: a.Rungs, Spacing: a.Spacing}
	var err error
	if len(a.Resolutions) > 0 {
		joined := ""
		for i, r := range a.Resolutions {
			if i > 0 {
				joined += ","
			}
			joined += r
		}
		if o.Resolutions, err = tune.ParseResolutions(joined); err != nil {
			return nil, err
		}
	}
	if len(a.CRFs) > 0 && len(a.Targets) > 0 {
		return nil, fmt.Errorf("give crfs or targets, not both")
	}
	for _, f := range []string{a.Downscale, a.Upscale} {
		if f != "" {
			if _, err := ffsource.ParseScaleAlgorithm(f); err != nil {
				return nil, err
			}
		}
	}
	if o.Aggregate, err = tune.ParseAggregate(a.Aggregate); err != nil {
		return nil, err
	}
	if err := o.Encoder.Check(); err != nil {
		return nil, err
	}
	sess, err := s.session(ctx, req, a.Source, a.Model)
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	return sess.Ladder(ctx, o)
}

func (s *tuneServer) runPerShot(ctx context.Context, req *mcp.CallToolRequest, a perShotToolArgs) (*tune.PerShotResult, error) {
	o := tune.PerShotOptions{Encoder: tune.Encoder{Name: a.Encoder, Preset: a.Preset}, Target: a.Target, Tolerance: 0.5,
		Detection: tune.DefaultShotDetection}
	var err error
	if a.CutThreshold != 0 {
		o.Detection.Threshold = a.CutThreshold
	}
	if a.MinShot != nil {
		o.Detection.MinSeconds = *a.MinShot
	}
	if !(o.Target > 0 && o.Target <= 100) || !(o.Detection.Threshold > 0 && o.Detection.Threshold < 1) || o.Detection.MinSeconds < 0 {
		return nil, fmt.Errorf("target must be in (0, 100], cut_threshold in (0, 1), min_shot_seconds not negative")
	}
	if o.Aggregate, err = tune.ParseAggregate(a.Aggregate); err != nil {
		return nil, err
	}
	if err := o.Encoder.Check(); err != nil {
		return nil, err
	}
	if a.Output != "" {
		if o.Output, err = s.outputPath(a.Output); err != nil {
			return nil, err
		}
	}
	sess, err := s.session(ctx, req, a.Source, a.Model)
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	return sess.PerShot(ctx, o)
}
