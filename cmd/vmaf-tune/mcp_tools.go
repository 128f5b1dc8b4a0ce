package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vmafsink/vmafsink/internal/ffsource"
	"github.com/vmafsink/vmafsink/internal/mcpfiles"
	"github.com/vmafsink/vmafsink/tune"
)

const (
	toolCRFSearch = "crf_search"
	toolBDRate    = "bd_rate"
)

// progressEvery is how often a probe's frame progress is sent at most;
// a probe's end is always sent.
const progressEvery = 250 * time.Millisecond

// crfSearchArgs are crf_search's arguments, the command line's options.
type crfSearchToolArgs struct {
	Source         string   `json:"source" jsonschema:"absolute path of the source video inside an allowed directory"`
	Encoder        string   `json:"encoder" jsonschema:"FFmpeg encoder: libx264, libx265, libsvtav1, libaom-av1, libvpx-vp9"`
	Preset         string   `json:"preset,omitempty" jsonschema:"the encoder's preset (cpu-used for libaom-av1 and libvpx-vp9)"`
	EncoderOptions []string `json:"encoder_options,omitempty" jsonschema:"further encoder options as KEY=VALUE, ffmpeg's -KEY VALUE (e.g. tune=film, x264-params=aq-mode=3)"`
	Target         float64  `json:"target" jsonschema:"the VMAF score to reach"`
	Aggregate      string   `json:"aggregate,omitempty" jsonschema:"how frames are pooled: mean (default), harmonic_mean, or pN (the N-th percentile, e.g. p5)"`
	Tolerance      *float64 `json:"tolerance,omitempty" jsonschema:"stop at a passing probe within this much above the target (default 0.5)"`
	MinCRF         float64  `json:"min_crf,omitempty" jsonschema:"lowest CRF searched (default: the encoder's)"`
	MaxCRF         float64  `json:"max_crf,omitempty" jsonschema:"highest CRF searched (default: the encoder's)"`
	CRFStep        float64  `json:"crf_step,omitempty" jsonschema:"the CRF grid (default 0.25 for libx264/libx265, 1 for the others)"`
	MaxEncodes     int      `json:"max_encodes,omitempty" jsonschema:"stop after this many probes (default 10)"`
	Model          string   `json:"model,omitempty" jsonschema:"VMAF model as vmaf-score --model takes it (default version=vmaf_v0.6.1); model files must be inside an allowed directory"`
	Samples        int      `json:"samples,omitempty" jsonschema:"score this many evenly spaced cuts instead of the whole source"`
	SampleSeconds  float64  `json:"sample_seconds,omitempty" jsonschema:"each cut's length in seconds (default 2)"`
	FullCheck      bool     `json:"full_check,omitempty" jsonschema:"with samples: encode and score the whole source at the answer"`
	Output         string   `json:"output,omitempty" jsonschema:"keep the winning encode in a file of this name (no directory; .mp4, .mkv, .webm, .ivf ...) in the server's output directory"`
	Threads        int      `json:"threads,omitempty" jsonschema:"scoring threads (default: the server's)"`
}

type bdRateToolArgs struct {
	Anchor     []tune.RDPoint `json:"anchor,omitempty" jsonschema:"the anchor curve's points; or give anchor_file"`
	Test       []tune.RDPoint `json:"test,omitempty" jsonschema:"the tested curve's points; or give test_file"`
	AnchorFile string         `json:"anchor_file,omitempty" jsonschema:"absolute path of a CSV (bitrate,vmaf) or JSON file of the anchor's points, inside an allowed directory"`
	TestFile   string         `json:"test_file,omitempty" jsonschema:"the tested curve's file, as anchor_file"`
	AtPerc     *float64       `json:"at_perc,omitempty" jsonschema:"compare at one score this percentage (0 to 100) of the way up the common range instead of averaging"`
	MinMetric  float64        `json:"min_metric,omitempty" jsonschema:"integrate from this score at the lowest"`
	MaxMetric  float64        `json:"max_metric,omitempty" jsonschema:"integrate up to this score at the highest"`
	ConvexHull bool           `json:"convex_hull,omitempty" jsonschema:"use each curve's convex hull"`
}

type bdRateToolResult struct {
	BDRate float64 `json:"bd_rate" jsonschema:"the mean relative bitrate change of test against anchor at equal score, a fraction (-0.1: 10% less bitrate)"`
}

func (s *tuneServer) addTools() {
	f := false
	in, err := jsonschema.For[crfSearchToolArgs](nil)
	if err != nil {
		panic(fmt.Sprintf("vmaf-tune: schema of %s: %v", toolCRFSearch, err))
	}
	lo, hi := 0.0, 100.0
	in.Properties["target"].Minimum, in.Properties["target"].Maximum = &lo, &hi
	in.Properties["source"].MinLength = ptrTo(1)
	in.Properties["encoder"].MinLength = ptrTo(1)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name: toolCRFSearch,
		Description: "Find the largest CRF whose encode of a source meets a VMAF target, as vmaf-tune crf-search does: " +
			"probes are encoded in-process and scored as they are encoded, with an interpolating search (usually 3 to 4 encodes). " +
			"Returns the CRF, its score, bitrate and predicted size, every probe, and ffmpeg_args, the ffmpeg arguments that reproduce the encode. " +
			"Sends a progress notification per probe (and its frames) when the request has a progress token; cancelling the request stops the encoder.",
		InputSchema: in,
		Annotations: &mcp.ToolAnnotations{Title: "Target-quality CRF search", IdempotentHint: true, DestructiveHint: &f, OpenWorldHint: &f},
	}, s.crfSearch)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name: toolBDRate,
		Description: "Bjøntegaard delta rate of a test rate-quality curve against an anchor, as Netflix's calculate_bd_rate defines it " +
			"(PCHIP of log rate over score, 100 samples, trapezoid rule): the mean bitrate change at equal score, as a fraction. " +
			"Refuses curves of fewer than 4 points, non-monotonic curves, zero rates and curves whose score ranges do not overlap.",
		Annotations: &mcp.ToolAnnotations{Title: "BD-rate", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &f},
	}, s.bdRate)
	s.addSweepTools()
}

func ptrTo[T any](v T) *T { return &v }

func (s *tuneServer) bdRate(ctx context.Context, req *mcp.CallToolRequest, a bdRateToolArgs) (*mcp.CallToolResult, bdRateToolResult, error) {
	curves := [2][]tune.RDPoint{a.Anchor, a.Test}
	for i, file := range []string{a.AnchorFile, a.TestFile} {
		name := [2]string{"anchor", "test"}[i]
		switch {
		case file != "" && len(curves[i]) > 0:
			return nil, bdRateToolResult{}, fmt.Errorf("give %s or %s_file, not both", name, name)
		case file != "":
			path, err := s.allowed.Within(file)
			if err != nil {
				return nil, bdRateToolResult{}, fmt.Errorf("%s_file: %w", name, err)
			}
			if curves[i], err = tune.ReadPoints(path); err != nil {
				return nil, bdRateToolResult{}, err
			}
		}
	}
	v, err := tune.BDRate(curves[0], curves[1], tune.BDOptions{MinMetric: a.MinMetric, MaxMetric: a.MaxMetric, ConvexHull: a.ConvexHull, AtPerc: a.AtPerc})
	if err != nil {
		return nil, bdRateToolResult{}, err
	}
	return nil, bdRateToolResult{BDRate: v}, nil
}

// crfSearch is the tool; a panic on its goroutine is the call's error,
// not the server's end.
func (s *tuneServer) crfSearch(ctx context.Context, req *mcp.CallToolRequest, a crfSearchToolArgs) (res *mcp.CallToolResult, out *tune.CRFResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("panic in crf_search", "source", a.Source, "panic", r, "stack", string(debug.Stack()))
			res, out, err = nil, nil, fmt.Errorf("internal error in crf_search on %s: %v", a.Source, r)
		}
	}()
	o, err := s.searchOptions(a)
	if err != nil {
		return nil, nil, err
	}
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	default:
		return nil, nil, fmt.Errorf("busy: %d search(es) already running, the most this server runs at once (vmaf-tune mcp --jobs); call again when one has finished", cap(s.slots))
	}
	p := newProbeNotifier(ctx, req)
	o.OnProbe = p.event
	start := time.Now()
	r, err := tune.CRFSearch(ctx, o)
	if err != nil {
		if ctx.Err() != nil {
			// The search stopped before its answer: said in the log, where
			// a finished search logs its answer instead.
			probes := 0
			if r != nil {
				probes = len(r.Probes)
			}
			s.log.Info("crf_search cancelled", "source", o.Source, "encoder", o.Encoder.Name, "probes", probes, "seconds", time.Since(start).Seconds())
			if r != nil {
				return nil, nil, fmt.Errorf("cancelled after %d probes", probes)
			}
		}
		return nil, nil, err
	}
	if o.Output != "" {
		r.Output = o.Output
	}
	s.log.Info("crf_search", "source", o.Source, "encoder", o.Encoder.Name, "crf", r.CRF, "vmaf", r.VMAF, "encodes", r.Encodes, "seconds", time.Since(start).Seconds())
	return nil, r, nil
}

// searchOptions checks a call's paths and arguments as the command line
// checks its own.
func (s *tuneServer) searchOptions(a crfSearchToolArgs) (tune.CRFSearchOptions, error) {
	src, err := s.allowed.Within(a.Source)
	if err != nil {
		return tune.CRFSearchOptions{}, fmt.Errorf("source: %w", err)
	}
	o := tune.CRFSearchOptions{Source: src, Encoder: tune.Encoder{Name: a.Encoder, Preset: a.Preset},
		Target: a.Target, Tolerance: 0.5, MinCRF: a.MinCRF, MaxCRF: a.MaxCRF, Step: a.CRFStep, MaxEncodes: 10,
		Samples: a.Samples, SampleSeconds: 2, FullCheck: a.FullCheck, Threads: s.threads, Cache: s.cache,
		SourceOptions: mcpSourceOptions()}
	if a.Tolerance != nil {
		o.Tolerance = *a.Tolerance
	}
	if a.MaxEncodes > 0 {
		o.MaxEncodes = a.MaxEncodes
	}
	if a.SampleSeconds > 0 {
		o.SampleSeconds = a.SampleSeconds
	}
	o.Threads = s.searchThreads(a.Threads)
	if o.Aggregate, err = tune.ParseAggregate(a.Aggregate); err != nil {
		return o, err
	}
	if o.Encoder.Options, err = tune.ParseOptions(a.EncoderOptions); err != nil {
		return o, err
	}
	if a.Model != "" {
		if o.Model, err = s.allowed.Resolve(a.Model, ""); err != nil {
			return o, fmt.Errorf("model: %q: %w", a.Model, err)
		}
	}
	if a.Output != "" {
		if o.Output, err = s.outputPath(a.Output); err != nil {
			return o, err
		}
	}
	return o, o.Check()
}

// searchThreads is a call's scoring threads: its own, the server's, or
// the CPUs.
func (s *tuneServer) searchThreads(asked int) int {
	switch {
	case asked > 0:
		return min(asked, maxMCPThreads)
	case s.threads > 0:
		return s.threads
	}
	return runtime.NumCPU()
}

// outputPath accepts a plain file name in the output directory.
func (s *tuneServer) outputPath(name string) (string, error) {
	if strings.ContainsRune(name, '/') || strings.HasPrefix(name, ".") || len(name) > 255 {
		return "", fmt.Errorf("output: %q is not a plain file name; encodes go into the server's output directory (vmaf-tune mcp --output-dir)", name)
	}
	path := filepath.Join(s.outDir, name)
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return "", fmt.Errorf("output: %s exists and is not a regular file", path)
	}
	if _, err := tune.NeedsGlobalHeader(path); err != nil {
		return "", err
	}
	return path, nil
}

// probeNotifier sends a search's progress: the frames scored so far over
// every probe (throttled), and each probe's end with its score.
type probeNotifier struct {
	ctx   context.Context
	req   *mcp.CallToolRequest
	token any

	mu       sync.Mutex
	base     int // frames of the probes finished
	last     time.Time
	progress float64
}

func newProbeNotifier(ctx context.Context, req *mcp.CallToolRequest) *probeNotifier {
	return &probeNotifier{ctx: ctx, req: req, token: req.Params.GetProgressToken()}
}

func (p *probeNotifier) event(e tune.ProbeEvent) {
	if p.token == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	var msg string
	if e.Done {
		p.base += e.Frames
		how := ""
		if e.Cached {
			how = " (cached)"
		}
		msg = fmt.Sprintf("probe %d: crf %g scored %.3f at %.1f kb/s%s", e.Probe, e.CRF, e.Score, e.Bitrate, how)
	} else {
		if time.Since(p.last) < progressEvery {
			return
		}
		msg = fmt.Sprintf("probe %d: crf %g, %d/%d frames", e.Probe, e.CRF, e.Frame, e.Frames)
	}
	progress := float64(p.base)
	if !e.Done {
		progress += float64(e.Frame)
	}
	if progress <= p.progress {
		return
	}
	p.progress, p.last = progress, time.Now()
	// A lost notification only loses a progress report.
	_ = p.req.Session.NotifyProgress(p.ctx, &mcp.ProgressNotificationParams{ProgressToken: p.token, Progress: progress, Message: msg})
}

// mcpSourceOptions open a client's video with mcpfiles.Demuxers and the
// file protocol only.
func mcpSourceOptions() ffsource.Options {
	return ffsource.Options{Demuxers: mcpfiles.Demuxers, Protocols: "file"}
}
