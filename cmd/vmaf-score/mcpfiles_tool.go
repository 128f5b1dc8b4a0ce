package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vmafsink/vmafsink/internal/mcpfiles"
	"github.com/vmafsink/vmafsink/report"
	"github.com/vmafsink/vmafsink/vmaf"
)

const toolScoreFiles = "vmaf_score_files"

// maxInlineFrames is the most frames a reply carries per frame; a longer
// run's frames stay in its result file, and the reply has the pooled
// scores and the file's path.
const maxInlineFrames = 2000

// progressEvery is how often a run's progress is sent at most.
const progressEvery = 250 * time.Millisecond

// scoreFilesArgs are vmaf_score_files's arguments. Each maps to the
// command-line option of the same name, and is checked by the same
// parser.
type scoreFilesArgs struct {
	Reference     string   `json:"reference" jsonschema:"absolute path of the reference video (.y4m, raw .yuv with width/height/pixel_format/bitdepth, or anything FFmpeg decodes) inside an allowed directory"`
	Distorted     string   `json:"distorted" jsonschema:"absolute path of the distorted video, as reference"`
	Models        []string `json:"models,omitempty" jsonschema:"models as vmaf-score --model takes them: version=NAME or path=FILE, with :name=KEY and options (default version=vmaf_v0.6.1); model files must be inside an allowed directory"`
	Features      []string `json:"features,omitempty" jsonschema:"extra feature extractors as vmaf-score --feature takes them: NAME[=OPT=VAL:...], e.g. psnr, float_ssim, cambi=full_ref=true"`
	Threads       int      `json:"threads,omitempty" jsonschema:"scoring threads (default: the server's --threads)"`
	FrameCnt      int      `json:"frame_cnt,omitempty" jsonschema:"score at most this many frames (default: all)"`
	FrameSkipRef  int      `json:"frame_skip_ref,omitempty" jsonschema:"skip this many reference frames first"`
	FrameSkipDist int      `json:"frame_skip_dist,omitempty" jsonschema:"skip this many distorted frames first"`
	Subsample     int      `json:"subsample,omitempty" jsonschema:"score only every Nth frame"`
	Width         int      `json:"width,omitempty" jsonschema:"raw .yuv input: width (with height, pixel_format and bitdepth)"`
	Height        int      `json:"height,omitempty" jsonschema:"raw .yuv input: height"`
	PixelFormat   string   `json:"pixel_format,omitempty" jsonschema:"raw .yuv input: 420, 422 or 444"`
	BitDepth      int      `json:"bitdepth,omitempty" jsonschema:"raw .yuv input: 8, 10, 12 or 16"`
	FFmpeg        bool     `json:"ffmpeg,omitempty" jsonschema:"decode both inputs with FFmpeg, even .y4m and .yuv"`
	ScaleDist     string   `json:"scale_dist,omitempty" jsonschema:"scale the distorted video to the reference's size with this algorithm (bicubic, lanczos, bilinear, area, ...)"`
	RefStream     int      `json:"ref_stream,omitempty" jsonschema:"the reference's Nth video stream (FFmpeg inputs; 0, the first, by default)"`
	DistStream    int      `json:"dist_stream,omitempty" jsonschema:"the distorted input's Nth video stream"`
	RefFilter     string   `json:"ref_filter,omitempty" jsonschema:"an FFmpeg filter chain run on the reference as it is decoded, before scoring (crop=1920:800, yadif, zscale and tonemap, ...): filters that transform pictures only, separated by commas"`
	DistFilter    string   `json:"dist_filter,omitempty" jsonschema:"an FFmpeg filter chain run on the distorted input, as ref_filter"`
	Align         string   `json:"align,omitempty" jsonschema:"pair frames by order (default) or by presentation timestamp (pts)"`
	FrameMetrics  string   `json:"frame_metrics,omitempty" jsonschema:"what each frame of the reply carries: scores (default: the models' scores and the metrics of the features asked for), all (every metric, as the result file has them) or none (pooled only)"`
	Output        string   `json:"output,omitempty" jsonschema:"keep the results in a JSON file of this name (ending in .json, no directory) in the server's output directory; the reply then has the pooled scores and the file's path"`
	// part is set by vmaf_score_part (mcpfiles_parts.go).
	part *shardSpec
	tinyArgs
}

// scoreFilesResult is vmaf_score_files's reply. Its frames and pooled and
// aggregate metrics are those of the JSON file vmaf-score --json writes
// (libvmaf's layout); values JSON cannot carry are null there and here.
type scoreFilesResult struct {
	Reference    string `json:"reference" jsonschema:"the reference file read (symbolic links resolved)"`
	Distorted    string `json:"distorted" jsonschema:"the distorted file read"`
	Version      string `json:"version" jsonschema:"the libvmaf version whose output this follows"`
	FramesScored int    `json:"frames_scored"`
	// Scores is each model's pooled mean, as vmaf-score prints it.
	Scores     map[string]*float64            `json:"scores" jsonschema:"each model's mean score over the frames, by metric name"`
	Pooled     map[string]map[string]*float64 `json:"pooled_metrics" jsonschema:"every metric's min, max, mean and harmonic_mean"`
	Aggregate  map[string]*float64            `json:"aggregate_metrics,omitempty"`
	Frames     []filesFrame                   `json:"frames,omitempty" jsonschema:"per-frame metrics (as frame_metrics chose); left out when the results went to a file, which has every metric"`
	ResultFile string                         `json:"result_file,omitempty" jsonschema:"the JSON file holding every frame's metrics (libvmaf's layout), when output was given or the run was too long to return them"`
	Notes      []string                       `json:"notes,omitempty" jsonschema:"what vmaf-score said on the way, such as an extractor left out or inputs of different lengths"`
}

type filesFrame struct {
	FrameNum int                 `json:"frameNum"`
	Metrics  map[string]*float64 `json:"metrics"`
}

func (s *filesServer) addTools() {
	f := false
	in, err := jsonschema.For[scoreFilesArgs](nil)
	if err != nil {
		panic(fmt.Sprintf("vmaf-score: schema of %s: %v", toolScoreFiles, err)) // a programming error in this file
	}
	for name, hi := range map[string]float64{"threads": maxMCPThreads, "frame_cnt": maxUint31, "frame_skip_ref": maxUint31,
		"frame_skip_dist": maxUint31, "subsample": maxUint31, "width": 1 << 16, "height": 1 << 16, "bitdepth": 16,
		"ref_stream": 1 << 16, "dist_stream": 1 << 16} {
		lo := 0.0
		in.Properties[name].Minimum, in.Properties[name].Maximum = &lo, &hi
	}
	in.Properties["reference"].MinLength = ptrTo(1)
	in.Properties["distorted"].MinLength = ptrTo(1)
	tinySchema(in)
	in.Properties["pixel_format"].Enum = []any{"420", "422", "444"}
	in.Properties["align"].Enum = []any{"order", "pts"}
	in.Properties["frame_metrics"].Enum = []any{"scores", "all", "none"}
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name: toolScoreFiles,
		Description: fmt.Sprintf("Score a distorted video file against its reference with VMAF, as the vmaf-score command does: "+
			".y4m, raw .yuv (give width, height, pixel_format, bitdepth) or anything FFmpeg decodes, with libvmaf's --model and --feature grammar. "+
			"Returns each model's pooled score, every metric's pooled statistics and, for up to %d frames, each frame's scores (frame_metrics: all for every metric, none for no frames); "+
			"a longer run (or one given output) leaves them in a JSON file and returns its path. "+
			"Sends progress notifications when the request has a progress token, and stops when the request is cancelled. "+
			"Paths must be absolute and inside the server's allowed directories.", maxInlineFrames),
		InputSchema: in,
		Annotations: &mcp.ToolAnnotations{Title: "Score video files with VMAF", ReadOnlyHint: false,
			IdempotentHint: true, DestructiveHint: &f, OpenWorldHint: &f},
	}, s.scoreFiles)
	s.addPartTools()
}

// maxUint31 is the largest count the command line's parser takes.
const maxUint31 = 1<<31 - 1

func ptrTo[T any](v T) *T { return &v }

// scoreFiles is the tool. Every failure is a tool error (isError) naming
// the file or argument and the reason; the server goes on serving, even
// past a panic on the call's goroutine (the SDK recovers none, and one
// would end the server with every other call).
func (s *filesServer) scoreFiles(ctx context.Context, req *mcp.CallToolRequest, a scoreFilesArgs) (res *mcp.CallToolResult, out scoreFilesResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("panic while scoring", "reference", a.Reference, "distorted", a.Distorted, "panic", r, "stack", string(debug.Stack()))
			res, out, err = nil, scoreFilesResult{}, fmt.Errorf("internal error while scoring %s and %s: %v", a.Reference, a.Distorted, r)
		}
	}()
	return s.score(ctx, req, a)
}

func (s *filesServer) score(ctx context.Context, req *mcp.CallToolRequest, a scoreFilesArgs) (*mcp.CallToolResult, scoreFilesResult, error) {
	set, models, err := s.settingsFor(a)
	if err != nil {
		return nil, scoreFilesResult{}, err
	}
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	default:
		return nil, scoreFilesResult{}, fmt.Errorf("busy: %d scoring(s) already running, the most this server runs at once (vmaf-score mcp --jobs); call again when one has finished", cap(s.slots))
	}
	// The frames' memory is known from the headers, before any frame is
	// allocated.
	need, err := frameMemory(set)
	if err != nil {
		return nil, scoreFilesResult{}, err
	}
	release, err := s.memory.take(need)
	if err != nil {
		return nil, scoreFilesResult{}, err
	}
	defer release()

	path, keep, doneWriting, err := s.resultFile(a.Output)
	if err != nil {
		return nil, scoreFilesResult{}, err
	}
	defer doneWriting()
	// A panic from here on is still the call's error (scoreFiles), and
	// no unnamed result file may outlive it.
	defer func() {
		if r := recover(); r != nil {
			if !keep {
				os.Remove(path)
			}
			panic(r)
		}
	}()
	set.output, set.format, set.formatSet, set.quiet = path, report.JSON, true, true
	if err := a.applyPart(set); err != nil {
		return nil, scoreFilesResult{}, err
	}
	set.demuxers, set.protocols = mcpfiles.Demuxers, "file"

	var done, total atomic.Int64
	set.onProgress = func(d, t int) { done.Store(int64(d)); total.Store(int64(t)) }
	stop := s.sendProgress(ctx, req, &done, &total)

	start := time.Now()
	var stdout, stderr bytes.Buffer
	err = score(ctx, set, &stdout, &stderr)
	stop()
	notes := mcpNotes(stderr.String())
	if err != nil {
		switch {
		case errors.Is(err, errInterrupted):
			// No one is waiting for the frames of a cancelled call,
			// unless it named its file.
			err = fmt.Errorf("cancelled after %d frames", done.Load())
			if !keep {
				os.Remove(path)
			}
		case done.Load() > 0:
			// A stream that breaks part-way: score has written the
			// frames before the break, and said so.
			err = fmt.Errorf("%w; the result file is %s", err, path)
		default:
			os.Remove(path)
		}
		// frames: how far the run got (read), which for a cancelled run
		// shows where the cancellation stopped it.
		s.log.Info("scoring failed", "reference", set.ref, "distorted", set.dist, "frames", done.Load(), "error", err)
		if len(notes) > 0 {
			err = fmt.Errorf("%w (%s)", err, strings.Join(notes, "; "))
		}
		return nil, scoreFilesResult{}, err
	}
	res, err := readResults(path)
	if err != nil {
		if !keep {
			os.Remove(path)
		}
		return nil, scoreFilesResult{}, err
	}
	res.Reference, res.Distorted, res.Notes = set.ref, set.dist, notes
	res.Scores = map[string]*float64{}
	for _, m := range models {
		if p, ok := res.Pooled[m.Name]; ok {
			res.Scores[m.Name] = p["mean"]
		}
	}
	if keep || res.FramesScored > maxInlineFrames {
		res.ResultFile, res.Frames = path, nil
	} else {
		os.Remove(path)
	}
	if err := filterFrames(res.Frames, a.FrameMetrics, models, set.features); err != nil {
		return nil, scoreFilesResult{}, err
	}
	if a.FrameMetrics == "none" {
		res.Frames = nil
	}
	s.log.Info("scored", "reference", set.ref, "distorted", set.dist, "frames", res.FramesScored,
		"seconds", time.Since(start).Seconds(), "result_file", res.ResultFile)
	return nil, res, nil
}

// settingsFor checks the paths against the allowed directories and turns
// the arguments into a command line for vmaf-score's own parser, so a
// call accepts and refuses exactly what the command line does. It
// returns the models too.
func (s *filesServer) settingsFor(a scoreFilesArgs) (*settings, []*vmaf.Model, error) {
	switch a.FrameMetrics {
	case "", "scores", "all", "none":
	default:
		return nil, nil, fmt.Errorf("invalid arguments: frame_metrics %q is none of scores, all, none", a.FrameMetrics)
	}
	dist, err := s.allowed.Within(a.Distorted)
	if err != nil {
		return nil, nil, fmt.Errorf("distorted: %w", err)
	}
	argv := []string{"--distorted=" + dist}
	if !a.NoReference || a.Reference != "" {
		ref, err := s.allowed.Within(a.Reference)
		if err != nil {
			return nil, nil, fmt.Errorf("reference: %w", err)
		}
		argv = append(argv, "--reference="+ref)
	}
	if argv, err = s.tinyArgv(argv, a.tinyArgs); err != nil {
		return nil, nil, err
	}
	for _, m := range a.Models {
		// version=, path= and a model file's base name, with model
		// files held to the allowed directories as a swap's are.
		spec, err := s.allowed.Resolve(m, "")
		if err != nil {
			return nil, nil, fmt.Errorf("models: %q: %w", m, err)
		}
		argv = append(argv, "--model="+spec)
	}
	for _, f := range a.Features {
		argv = append(argv, "--feature="+f)
	}
	threads := s.threads
	if a.Threads > 0 {
		threads = a.Threads
	}
	ints := []struct {
		opt string
		v   int
	}{{"threads", threads}, {"frame_cnt", a.FrameCnt}, {"frame_skip_ref", a.FrameSkipRef},
		{"frame_skip_dist", a.FrameSkipDist}, {"subsample", a.Subsample}, {"width", a.Width}, {"height", a.Height},
		{"bitdepth", a.BitDepth}, {"ref-stream", a.RefStream}, {"dist-stream", a.DistStream}}
	for _, o := range ints {
		if o.v != 0 {
			argv = append(argv, "--"+o.opt+"="+strconv.Itoa(o.v))
		}
	}
	for _, f := range []struct{ arg, chain string }{{"ref_filter", a.RefFilter}, {"dist_filter", a.DistFilter}} {
		if f.chain == "" {
			continue
		}
		if a.part != nil {
			return nil, nil, fmt.Errorf("invalid arguments: %s: filters may change the frame count, which a part's frame range is counted in", f.arg)
		}
		if err := checkMCPFilter(f.arg, f.chain); err != nil {
			return nil, nil, fmt.Errorf("invalid arguments: %w", err)
		}
	}
	strs := []struct{ opt, v string }{{"pixel_format", a.PixelFormat}, {"scale-dist", a.ScaleDist}, {"align", a.Align},
		{"ref-filter", a.RefFilter}, {"dist-filter", a.DistFilter}}
	for _, o := range strs {
		if o.v != "" {
			argv = append(argv, "--"+o.opt+"="+o.v)
		}
	}
	if a.FFmpeg {
		argv = append(argv, "--ffmpeg")
	}
	set, err := parseArgs(argv)
	if err == nil {
		err = set.check()
	}
	if err != nil {
		return nil, nil, fmt.Errorf("invalid arguments: %w", err)
	}
	if threads > maxMCPThreads {
		return nil, nil, fmt.Errorf("invalid arguments: threads %d is above %d", threads, maxMCPThreads)
	}
	// Loaded here so that a bad model or extractor option is refused
	// before any file is opened.
	models, err := set.loadModels()
	if err != nil {
		return nil, nil, fmt.Errorf("models: %w", err)
	}
	return set, models, nil
}

// sendProgress sends notifications/progress for a request that asked for
// them, at most every progressEvery and only when a frame was added,
// until the returned stop is called.
func (s *filesServer) sendProgress(ctx context.Context, req *mcp.CallToolRequest, done, total *atomic.Int64) (stop func()) {
	token := req.Params.GetProgressToken()
	if token == nil {
		return func() {}
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		var sent int64
		for {
			select {
			case <-quit:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			d, n := done.Load(), total.Load()
			if d <= sent {
				continue
			}
			sent = d
			p := &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(d), Message: fmt.Sprintf("%d frames", d)}
			if n > 0 && d <= n {
				p.Total = float64(n)
				p.Message = fmt.Sprintf("%d/%d frames", d, n)
			}
			if err := req.Session.NotifyProgress(ctx, p); err != nil {
				s.log.Debug("progress notification", "error", err)
			}
		}
	}()
	return func() {
		close(quit)
		wg.Wait()
	}
}
