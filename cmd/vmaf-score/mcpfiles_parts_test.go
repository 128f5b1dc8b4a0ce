package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// callTool calls a tool and returns its structured reply, or the text of
// its tool error.
func (fs *filesSession) callTool(t *testing.T, name string, args map[string]any) (scoreFilesResult, string) {
	t.Helper()
	res, err := fs.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		return scoreFilesResult{}, res.Content[0].(*mcp.TextContent).Text
	}
	var out scoreFilesResult
	data, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("structured content %s: %v", data, err)
	}
	return out, ""
}

// An agent scores a pair in three parts over MCP and merges them: the
// merged file is the command line's single run.
func TestMCPFilesPartsAndMerge(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	out := t.TempDir()
	fs := startFiles(t, "--allow", filepath.Dir(ref), "--allow", filepath.Dir(dist), "--output-dir", out)
	base := map[string]any{"reference": ref, "distorted": dist, "features": []string{"psnr=enable_apsnr=true"},
		"models": []string{"version=vmaf_b_v0.6.3"}}
	with := func(extra map[string]any) map[string]any {
		m := map[string]any{}
		for k, v := range base {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	var parts []string
	for i := range 3 {
		name := fmt.Sprintf("part%d.json", i)
		got, toolErr := fs.callTool(t, toolScorePart, with(map[string]any{"shard": fmt.Sprintf("%d/3", i), "output": name}))
		if toolErr != "" {
			t.Fatalf("part %d: %s", i, toolErr)
		}
		if got.ResultFile != filepath.Join(out, name) || got.FramesScored == 0 {
			t.Fatalf("part %d: %d frames in %q", i, got.FramesScored, got.ResultFile)
		}
		parts = append(parts, name)
	}
	got, toolErr := fs.callTool(t, toolMergeParts, map[string]any{"parts": []string{parts[2], parts[0], parts[1]}, "output": "whole.json"})
	if toolErr != "" {
		t.Fatal(toolErr)
	}
	want := filepath.Join(t.TempDir(), "want.json")
	mustScore(t, "-r", ref, "-d", dist, "--feature", "psnr=enable_apsnr=true", "-m", "version=vmaf_b_v0.6.3", "-q", "--json", "-o", want)
	sameDocument(t, want, got.ResultFile)
	if s := got.Scores["vmaf"]; s == nil || *s != readLog(t, want).Pooled["vmaf"]["mean"] {
		t.Errorf("scores %v, want vmaf's mean %v", got.Scores, readLog(t, want).Pooled["vmaf"]["mean"])
	}

	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{toolScorePart, with(map[string]any{"output": "p.json"}), "one of shard and frames"},
		{toolScorePart, with(map[string]any{"shard": "0/2", "frames": "0:3", "output": "p.json"}), "one of shard and frames"},
		{toolScorePart, with(map[string]any{"shard": "2/2", "output": "p.json"}), "invalid argument"},
		{toolScorePart, with(map[string]any{"shard": "0/2"}), "output"},
		{toolMergeParts, map[string]any{"parts": []string{parts[0], parts[2]}}, "frames 2-4 are missing"},
		{toolMergeParts, map[string]any{"parts": []string{"../x.json"}}, "not a plain file name"},
	} {
		_, toolErr := fs.callTool(t, c.tool, c.args)
		if !strings.Contains(toolErr, c.want) {
			t.Errorf("%s %v: %q, want an error saying %q", c.tool, c.args, toolErr, c.want)
		}
	}
}
