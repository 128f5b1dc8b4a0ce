package control

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Listed tool names match ^[a-zA-Z0-9_-]{1,64}$: several MCP hosts reject a
// whole server whose list holds a dotted name. The dotted forms still work
// in tools/call (see canonicalTool).
const (
	toolStatus     = "vmaf_status"
	toolFeatures   = "vmaf_features"
	toolScore      = "vmaf_score"
	toolSwap       = "vmaf_request_model_swap"
	toolPause      = "vmaf_pause"
	toolResume     = "vmaf_resume"
	toolListModels = "vmaf_list_models"
	toolExtractors = "vmaf_list_extractors"
)

var toolNames = []string{toolStatus, toolFeatures, toolScore, toolSwap, toolPause, toolResume, toolListModels, toolExtractors, toolDescribeModel, toolWorstFrames, toolHealth, toolDiagnose}

// Bounds on vmaf_score.
const (
	maxLast  = 1000
	maxWorst = 100
)

// Bounds on strings a client sets. Every string in a request is bounded
// by MaxStringBytes on the wire (see wireConn); names, which end up in
// every record and status reply, are bounded tighter.
const (
	MaxStringBytes = 4096
	MaxNameBytes   = 256
)

// canonicalTool maps "vmaf.status" to "vmaf_status" when that is one of
// our tools, and returns other names unchanged.
func canonicalTool(name string) string {
	if rest, ok := strings.CutPrefix(name, "vmaf."); ok {
		alias := "vmaf_" + rest
		for _, t := range toolNames {
			if t == alias {
				return alias
			}
		}
	}
	return name
}

type noArgs struct{}

type scoreArgs struct {
	Last  int    `json:"last,omitempty" jsonschema:"how many of the latest frame records to return (default 1)"`
	Worst int    `json:"worst,omitempty" jsonschema:"also return this many lowest-scoring frames so far (default 0)"`
	From  *int64 `json:"from,omitempty" jsonschema:"instead of last: the first frame of a range to read (with to, or the next 10000 frames)"`
	To    *int64 `json:"to,omitempty" jsonschema:"instead of last: the last frame of a range to read (with from, or the 10000 frames up to it)"`
}

type swapArgs struct {
	Model     string `json:"model" jsonschema:"built-in model version (e.g. vmaf_v0.6.1, vmaf_v0.6.1neg, vmaf_4k_v0.6.1, vmaf_float_v0.6.1), a model file path, or libvmaf's key=value grammar (version=...|path=...[:name=...])"`
	Name      string `json:"name,omitempty" jsonschema:"metric name for the new model's score (default: the model's own name)"`
	Wait      bool   `json:"wait,omitempty" jsonschema:"block until the swap is applied and return the first frame index scored by the new model"`
	TimeoutMS int    `json:"timeout_ms,omitempty" jsonschema:"with wait: give up after this many milliseconds (default 30000)"`
}

type commandArgs struct {
	Wait      bool `json:"wait,omitempty" jsonschema:"block until the command is applied at a frame boundary"`
	TimeoutMS int  `json:"timeout_ms,omitempty" jsonschema:"with wait: give up after this many milliseconds (default 30000)"`
}

func readOnly(title string) *mcp.ToolAnnotations {
	f := false
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &f}
}

func mutating(title string, idempotent bool) *mcp.ToolAnnotations {
	f := false
	return &mcp.ToolAnnotations{Title: title, IdempotentHint: idempotent, DestructiveHint: &f, OpenWorldHint: &f}
}

// schemaFor infers T's schema and lets tweak add bounds and defaults.
func schemaFor[T any](tweak func(props map[string]*jsonschema.Schema)) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("control: schema for %T: %v", *new(T), err)) // a programming error in this file
	}
	if tweak != nil {
		tweak(s.Properties)
	}
	return s
}

func bound(s *jsonschema.Schema, lo, hi float64) {
	s.Minimum, s.Maximum = &lo, &hi
}

func (s *Server) addTools() {
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        toolStatus,
		Description: "State of the running VMAF measurement: running/paused/finished, pause mode, current model, engine, geometry and pixel format, frame counters (received, scored, skipped, unpaired), last score, pending commands, model swap history, uptime and warnings to act on (e.g. a model meant for another resolution). Call this first.",
		Annotations: readOnly("VMAF status"),
	}, s.toolStatus)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        toolFeatures,
		Description: "The feature extractors the run computes: those the active models use (with non-default options such as NEG gain limits) and those the extra-metric requests ask for (libvmaf's --feature grammar, e.g. psnr, cambi=full_ref=true, ciede), with each extractor's outputs and the requests as given and read. vmaf_list_extractors lists every extractor there is.",
		Annotations: readOnly("VMAF features"),
	}, s.toolFeatures)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        toolScore,
		Description: fmt.Sprintf("Latest per-frame VMAF records (frame index, PTS, model, score, features; last=N, default 1, at most %d; when fewer are kept than asked for, the reply says so in capped), optionally the worst N frames so far (worst=N, at most %d), and running pooled statistics (min, max, mean, harmonic mean) per metric.", maxLast, maxWorst),
		Annotations: readOnly("VMAF scores"),
		InputSchema: schemaFor[scoreArgs](func(p map[string]*jsonschema.Schema) {
			bound(p["last"], 0, maxLast)
			bound(p["worst"], 0, maxWorst)
		}),
	}, s.toolScore)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        toolSwap,
		Description: "Swap the VMAF model without stopping the pipeline. The model is loaded and validated first (unknown names, unreadable or invalid files, files outside the allowed model directories and models needing features the engine lacks are refused with a reason); then the swap is queued and applied at the next frame boundary, so no frame is scored half by one model. Returns the command id with status enqueued, or with wait:true the applied status and the first frame scored by the new model. See vmaf_list_models for the choices.",
		Annotations: mutating("Swap VMAF model", false),
		InputSchema: schemaFor[swapArgs](func(p map[string]*jsonschema.Schema) {
			p["model"].MinLength = ptr(1)
			bound(p["timeout_ms"], 0, 600000)
		}),
	}, s.toolSwap)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        toolPause,
		Description: "Pause scoring at the next frame boundary. In pause mode skip (default) frames keep flowing and are counted as skipped; in mode block the pipeline is held until vmaf_resume. Idempotent.",
		Annotations: mutating("Pause scoring", true),
		InputSchema: schemaFor[commandArgs](func(p map[string]*jsonschema.Schema) { bound(p["timeout_ms"], 0, 600000) }),
	}, s.toolCommand(toolPause, s.target.Pause))
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        toolResume,
		Description: "Resume scoring at the next frame boundary after vmaf_pause. Idempotent.",
		Annotations: mutating("Resume scoring", true),
		InputSchema: schemaFor[commandArgs](func(p map[string]*jsonschema.Schema) { bound(p["timeout_ms"], 0, 600000) }),
	}, s.toolCommand(toolResume, s.target.Resume))
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        toolListModels,
		Description: "Models vmaf_request_model_swap accepts: the built-in models and the model files found in the directories of the model-dirs property, with the features each needs.",
		Annotations: readOnly("List VMAF models"),
	}, s.toolListModels)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        toolExtractors,
		Description: "Every feature extractor this build computes (libvmaf's names: integer and float VIF/ADM/motion, psnr, float_ssim, float_ms_ssim, cambi, ciede, psnr_hvs, moments, SpEED, ...), each with the metrics it reports and its options (type, default, range, whether a non-default value renames the outputs). A run's extra metrics are chosen when it starts (the element's features property, vmaf-score --feature); vmaf_features shows the active ones.",
		Annotations: readOnly("List VMAF feature extractors"),
	}, s.toolListExtractors)
	s.addWorstTool()
	s.addAnalyticsTools()
	s.addModelTools()
}

func ptr[T any](v T) *T { return &v }

func (s *Server) toolStatus(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, Status, error) {
	st := sanitizeStatus(s.target.Status())
	st.Socket = s.path
	s.statusAnalytics(&st)
	return nil, st, nil
}

func (s *Server) toolFeatures(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, Features, error) {
	return nil, s.target.Features(), nil
}

func (s *Server) toolListExtractors(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, ExtractorList, error) {
	return nil, extractorList(), nil
}

func (s *Server) toolScore(ctx context.Context, _ *mcp.CallToolRequest, in scoreArgs) (*mcp.CallToolResult, Scores, error) {
	if in.From != nil || in.To != nil {
		var sc Scores
		var err error
		if herr := s.heavy(ctx, "vmaf_score with from/to", func() {
			if sc, err = s.scoreRange(in); err == nil {
				s.scoreAnalytics(&sc)
				sc.EngineUsed, sc.Version = engineUsed(s.target.Status()), s.opts.Version
			}
		}); herr != nil {
			return nil, Scores{}, herr
		}
		return nil, sc, err
	}
	if in.Last > heavyLast {
		var sc Scores
		if herr := s.heavy(ctx, fmt.Sprintf("vmaf_score with last above %d", heavyLast), func() { sc = s.latestScores(in) }); herr != nil {
			return nil, Scores{}, herr
		}
		return nil, sc, nil
	}
	return nil, s.latestScores(in), nil
}

// latestScores answers vmaf_score {last, worst}.
func (s *Server) latestScores(in scoreArgs) Scores {
	last := in.Last
	if last == 0 {
		last = 1
	}
	sc := sanitizeScores(s.target.Scores(min(last, maxLast), min(max(in.Worst, 0), maxWorst)))
	// Fewer records than asked while more were scored: the rest are no
	// longer kept, and the client must not take the reply for all there is.
	if n := len(sc.Records); n < last {
		if scored := s.target.Status().FramesScored; scored > uint64(n) {
			sc.Capped = &Capped{Asked: last, Returned: n, Reason: fmt.Sprintf("only the latest %d of %d scored frames are kept (at most %d are returned)", n, scored, maxLast)}
		}
	}
	sc.EngineUsed, sc.Version = engineUsed(s.target.Status()), s.opts.Version
	s.scoreAnalytics(&sc)
	return sc
}

func (s *Server) toolListModels(ctx context.Context, _ *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, ModelList, error) {
	ctx, cancel := context.WithTimeout(ctx, s.opts.ListTimeout)
	defer cancel()
	stop := context.AfterFunc(s.ctx, cancel)
	defer stop()
	// A listing parses every model file (up to 64 MiB each): a few at a
	// time, so that many clients listing at once cannot exhaust memory.
	select {
	case s.listing <- struct{}{}:
		defer func() { <-s.listing }()
	case <-ctx.Done():
		return nil, ModelList{}, Errorf(CodeBusy, "other listings still running after %v", s.opts.ListTimeout)
	}
	l, err := s.target.Models(ctx)
	return nil, l, err
}
