package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vmafsink/vmafsink/report"
)

// The MCP file tools for parts of a run: vmaf_score_part scores one part
// into the output directory, as vmaf-score --shard/--frames does, and
// vmaf_merge_parts joins parts there, as vmaf-score merge does, so that
// an agent can fan a long file out to servers it controls (sharing the
// output directory, or copying the parts) and join the results.

const (
	toolScorePart  = "vmaf_score_part"
	toolMergeParts = "vmaf_merge_parts"
)

// scorePartArgs are vmaf_score_files's arguments plus the part.
type scorePartArgs struct {
	scoreFilesArgs
	Shard  string `json:"shard,omitempty" jsonschema:"the part as I/N: part I (from 0) of N equal contiguous parts of the run, as vmaf-score --shard"`
	Frames string `json:"frames,omitempty" jsonschema:"the part as frames A:B (A to B-1; A: to the end), as vmaf-score --frames"`
}

type mergePartsArgs struct {
	Parts        []string `json:"parts" jsonschema:"the parts' result files, as vmaf_score_part named them (file names in the server's output directory), in any order"`
	Output       string   `json:"output,omitempty" jsonschema:"keep the merged results in a JSON file of this name (ending in .json, no directory) in the output directory"`
	FrameMetrics string   `json:"frame_metrics,omitempty" jsonschema:"what each frame of the reply carries, as vmaf_score_files: scores (default), all or none"`
}

func (s *filesServer) addPartTools() {
	f := false
	in, err := jsonschema.For[scorePartArgs](nil)
	if err != nil {
		panic(fmt.Sprintf("vmaf-score: schema of %s: %v", toolScorePart, err)) // a programming error in this file
	}
	in.Required = append(in.Required, "output")
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name: toolScorePart,
		Description: "Score one part of a run, as vmaf_score_files does the whole run: shard I/N (part I of N equal contiguous parts) or frames A:B. " +
			"The part reads the frames around it that motion needs, so its frames are the whole run's. Its result file (output, required) " +
			"holds what vmaf_merge_parts needs to write the whole run's results exactly: give every part the same arguments but shard/frames and output.",
		InputSchema: in,
		Annotations: &mcp.ToolAnnotations{Title: "Score a part of a video pair with VMAF", IdempotentHint: true, DestructiveHint: &f, OpenWorldHint: &f},
	}, s.scorePart)
	min1 := 1
	mi, err := jsonschema.For[mergePartsArgs](nil)
	if err != nil {
		panic(fmt.Sprintf("vmaf-score: schema of %s: %v", toolMergeParts, err))
	}
	mi.Properties["parts"].MinItems = &min1
	mi.Properties["frame_metrics"].Enum = []any{"scores", "all", "none"}
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name: toolMergeParts,
		Description: "Join the result files of vmaf_score_part calls into the results of the whole run, every frame and pooled value as one run gives them. " +
			"Fails, naming the frames, when the parts are of different runs, overlap, or leave frames out. Replies as vmaf_score_files.",
		InputSchema: mi,
		Annotations: &mcp.ToolAnnotations{Title: "Merge parts of a VMAF run", IdempotentHint: true, DestructiveHint: &f, OpenWorldHint: &f},
	}, s.mergePartsTool)
}

func (s *filesServer) scorePart(ctx context.Context, req *mcp.CallToolRequest, a scorePartArgs) (*mcp.CallToolResult, scoreFilesResult, error) {
	var set settings
	var err error
	switch {
	case (a.Shard == "") == (a.Frames == ""):
		return nil, scoreFilesResult{}, fmt.Errorf("invalid arguments: give one of shard and frames")
	case a.Shard != "":
		err = set.setShard(a.Shard)
	default:
		err = set.setFrames(a.Frames)
	}
	if err != nil {
		return nil, scoreFilesResult{}, fmt.Errorf("invalid arguments: %w", err)
	}
	if a.Output == "" {
		return nil, scoreFilesResult{}, fmt.Errorf("invalid arguments: a part needs output, the file vmaf_merge_parts reads")
	}
	a.part = set.shard
	return s.scoreFiles(ctx, req, a.scoreFilesArgs)
}

// applyPart makes the run a part when the call is vmaf_score_part's.
func (a *scoreFilesArgs) applyPart(set *settings) error {
	if a.part == nil {
		return nil
	}
	set.shard = a.part
	if err := set.checkShard(); err != nil {
		return fmt.Errorf("invalid arguments: %w", err)
	}
	return nil
}

func (s *filesServer) mergePartsTool(ctx context.Context, _ *mcp.CallToolRequest, a mergePartsArgs) (*mcp.CallToolResult, scoreFilesResult, error) {
	switch a.FrameMetrics {
	case "", "scores", "all", "none":
	default:
		return nil, scoreFilesResult{}, fmt.Errorf("invalid arguments: frame_metrics %q is none of scores, all, none", a.FrameMetrics)
	}
	if len(a.Parts) == 0 {
		return nil, scoreFilesResult{}, fmt.Errorf("invalid arguments: no parts")
	}
	parts := make([]string, len(a.Parts))
	for i, p := range a.Parts {
		if err := checkOutputName(p); err != nil {
			return nil, scoreFilesResult{}, fmt.Errorf("parts: %w", err)
		}
		parts[i] = filepath.Join(s.outDir, p)
	}
	// The run's models are loaded again to write it: their files must be
	// where this server may read models.
	first, _, err := readPart(parts[0])
	if err != nil {
		return nil, scoreFilesResult{}, fmt.Errorf("parts: %s", strings.TrimPrefix(err.Error(), s.outDir+string(filepath.Separator)))
	}
	for _, arg := range first.Run.Args {
		if spec, ok := strings.CutPrefix(arg, "--model="); ok {
			if _, err := s.allowed.Resolve(spec, ""); err != nil {
				return nil, scoreFilesResult{}, fmt.Errorf("parts: model %q: %w", spec, err)
			}
		}
	}
	path, keep, doneWriting, err := s.resultFile(a.Output)
	if err != nil {
		return nil, scoreFilesResult{}, err
	}
	defer doneWriting()
	var stdout, stderr bytes.Buffer
	m := &mergeArgs{output: path, format: report.JSON, formatSet: true, quiet: true, parts: parts}
	if err := mergeParts(ctx, m, &stdout, &stderr); err != nil {
		if !keep {
			os.Remove(path)
		}
		return nil, scoreFilesResult{}, fmt.Errorf("%s", strings.ReplaceAll(err.Error(), s.outDir+string(filepath.Separator), ""))
	}
	res, err := readResults(path)
	if err != nil {
		if !keep {
			os.Remove(path)
		}
		return nil, scoreFilesResult{}, err
	}
	set, err := parseArgs(first.Run.Args)
	if err != nil {
		return nil, scoreFilesResult{}, err
	}
	models, err := set.loadModels()
	if err != nil {
		return nil, scoreFilesResult{}, err
	}
	res.Reference, res.Distorted, res.Notes = set.ref, set.dist, mcpNotes(stderr.String())
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
	return nil, res, nil
}
