package pipelines

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// tsClientDir holds the TypeScript-SDK client and its package lock.
func tsClientDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(gsttest.RepoRoot(t), "tests", "mcp-client")
	for _, tool := range []string{"node", "npm", "socat"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (the TypeScript-SDK check needs node, npm and socat)", tool)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		// The test setup installs the SDK from the lock file.
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
		}
	}
	return dir
}

// TestMCPTypeScriptClient drives the control socket with the official
// TypeScript SDK through socat, as Claude Desktop, Claude Code or the MCP
// Inspector would attach: it lists the tools, calls each (the SDK checks
// every structured result against the tool's output schema), reads the
// prompts and resources and subscribes to live scores while a pipeline
// scores at 25 frames/s.
func TestMCPTypeScriptClient(t *testing.T) {
	dir := tsClientDir(t)
	ref, dist := mcpFrames(t, "flower_576x324_ref"), mcpFrames(t, "flower_576x324_x264_crf22")
	run := mcpStart(t, mcpConfig{})
	done := run.feed(ref, dist, 40*time.Millisecond, 100)
	defer func() {
		run.stopFeed()
		<-done
	}()

	cmd := exec.Command("node", "client.mjs", run.sock, "10")
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node client.mjs: %v\n%s", err, out)
	}
	var rep struct {
		Server       struct{ Name string }
		Capabilities map[string]any
		Tools        []struct {
			Name         string
			ReadOnly     *bool
			OutputSchema bool
		}
		Calls     map[string]json.RawMessage
		Errors    map[string]string
		Prompts   map[string]int
		Resources map[string]json.RawMessage
		Updates   int
		Logs      int
		Frames    []struct {
			Frame int64
			Model string
			Score float64
		}
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("report %s: %v", out, err)
	}
	t.Logf("TypeScript SDK via socat: %d tools, %d live updates, %d log lines", len(rep.Tools), rep.Updates, rep.Logs)

	if rep.Server.Name != "vmafsink" {
		t.Errorf("server name %q", rep.Server.Name)
	}
	readOnly := map[string]bool{"vmaf_status": true, "vmaf_features": true, "vmaf_score": true, "vmaf_worst_frames": true, "vmaf_list_models": true, "vmaf_list_extractors": true, "vmaf_describe_model": true, "vmaf_health": true, "vmaf_diagnose": true,
		"vmaf_request_model_swap": false, "vmaf_pause": false, "vmaf_resume": false}
	for _, tool := range rep.Tools {
		want, ok := readOnly[tool.Name]
		if !ok || strings.Contains(tool.Name, ".") {
			t.Errorf("unexpected tool %q", tool.Name)
			continue
		}
		delete(readOnly, tool.Name)
		if tool.ReadOnly == nil || *tool.ReadOnly != want || !tool.OutputSchema {
			t.Errorf("%s: readOnly %v, output schema %v", tool.Name, tool.ReadOnly, tool.OutputSchema)
		}
	}
	if len(readOnly) > 0 {
		t.Errorf("tools not listed: %v", readOnly)
	}
	for _, name := range []string{"vmaf_status", "vmaf_features", "vmaf_list_models", "vmaf_score", "vmaf_worst_frames", "vmaf_pause", "vmaf_resume", "vmaf_request_model_swap", "vmaf.status"} {
		if len(rep.Calls[name]) == 0 || string(rep.Calls[name]) == "null" {
			t.Errorf("%s: no result (error %q)", name, rep.Errors[name])
		}
	}
	var swap, pause control.Command
	json.Unmarshal(rep.Calls["vmaf_request_model_swap"], &swap)
	json.Unmarshal(rep.Calls["vmaf_pause"], &pause)
	if swap.Status != control.CommandApplied || swap.Frame < 0 || pause.Status != control.CommandApplied {
		t.Errorf("swap %+v, pause %+v", swap, pause)
	}
	if !strings.HasPrefix(rep.Errors["refused_swap"], control.CodeUnknownModel) {
		t.Errorf("refused swap: %q", rep.Errors["refused_swap"])
	}
	if rep.Prompts["monitor_stream"] == 0 || rep.Prompts["diagnose_quality_drop"] == 0 {
		t.Errorf("prompts: %v", rep.Prompts)
	}
	var st control.Status
	if err := json.Unmarshal(rep.Resources["vmaf://status"], &st); err != nil || st.Socket != run.sock {
		t.Errorf("vmaf://status: %s", rep.Resources["vmaf://status"])
	}
	if rep.Updates < 10 || rep.Logs < 10 || len(rep.Frames) < 10 {
		t.Fatalf("%d updates, %d log lines, %d frames", rep.Updates, rep.Logs, len(rep.Frames))
	}
	for i := 1; i < len(rep.Frames); i++ {
		f, prev := rep.Frames[i], rep.Frames[i-1]
		if f.Frame <= prev.Frame || f.Model == "" {
			t.Errorf("live frames out of order or unnamed: %+v after %+v", f, prev)
		}
		if f.Frame >= swap.Frame && f.Model != "vmaf_neg" {
			t.Errorf("frame %d after the swap at %d scored by %q", f.Frame, swap.Frame, f.Model)
		}
	}
}
