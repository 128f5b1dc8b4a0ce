package pipelines

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestMCPFilesTypeScriptClient runs `vmaf-score mcp` as a host would,
// spawned by the official TypeScript SDK's stdio transport: the tool is
// listed, a golden pair scores as the command line scores it, a long
// pair's results go to a file with progress on the way, a cancelled run
// stops before the pair's end and frees the server, and files outside
// --allow are refused.
func TestMCPFilesTypeScriptClient(t *testing.T) {
	dir := tsClientDir(t)
	bin, _ := ffSetup(t)
	allow, outDir := t.TempDir(), t.TempDir()
	// The clips are linked in: a hard link is a file of the directory,
	// wherever its data was written first.
	place := func(src, name string) string {
		dst := filepath.Join(allow, name)
		if err := os.Link(src, dst); err != nil {
			data, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(dst, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dst
	}
	ref := place(ffClips.Y4M(t, "flower_576x324_ref.y4m"), "ref.y4m")
	dist := place(ffClips.Y4M(t, "flower_576x324_x264_crf22.y4m"), "dist.y4m")
	// 8 frames looped 301 times, decoded by FFmpeg.
	const longFrames, longTotal = 2001, 8 * 301
	longRef := place(ffClips.FFmpeg(t, "files-long-ref.mkv", "-stream_loop", "300", "-i", ffClips.Y4M(t, ffRef), "-c:v", "ffv1"), "long-ref.mkv")
	longDist := place(ffClips.FFmpeg(t, "files-long-dist.mkv", "-stream_loop", "300", "-i", ffClips.Y4M(t, ffDist), "-c:v", "ffv1"), "long-dist.mkv")
	linkOut := filepath.Join(allow, "escape.y4m")
	if err := os.Symlink(ffClips.Y4M(t, ffDist), linkOut); err != nil {
		t.Fatal(err)
	}

	cli, err := exec.Command(bin, "-r", ref, "-d", dist, "-q").Output()
	if err != nil {
		t.Fatalf("vmaf-score: %v", err)
	}
	cliVMAF, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimPrefix(string(cli), "vmaf_v0.6.1:")), 64)
	if err != nil {
		t.Fatalf("vmaf-score printed %q", cli)
	}

	cfg, _ := json.Marshal(map[string]any{"bin": bin, "allow": allow, "outputDir": outDir, "golden": []string{ref, dist},
		"long": []string{longRef, longDist}, "longFrames": longFrames, "outside": "/etc/passwd", "linkOut": linkOut})
	cmd := exec.Command("node", "score_files.mjs", string(cfg))
	cmd.Dir = dir
	// The servers' log comes through the client's stderr (inherited).
	var serverLog lockedBuffer
	cmd.Stderr = io.MultiWriter(os.Stderr, &serverLog)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node score_files.mjs: %v\n%s", err, out)
	}
	type outcome struct {
		Error  string
		Result *struct {
			FramesScored int                           `json:"frames_scored"`
			Scores       map[string]float64            `json:"scores"`
			Frames       []json.RawMessage             `json:"frames"`
			ResultFile   string                        `json:"result_file"`
			Pooled       map[string]map[string]float64 `json:"pooled_metrics"`
		}
	}
	type toolReport struct {
		Name         string
		Inputs       []string
		OutputSchema bool
	}
	var rep struct {
		Server       struct{ Name string }
		Tools        []toolReport
		Golden, Long *outcome
		LongMs       float64
		Progress     []struct{ Progress, Total float64 }
		Cancel       struct {
			Rejected    string
			Completed   *outcome
			AtFrame     float64
			Busy        int
			Next        *outcome
			FreeAfterMs float64
		}
		Outside, LinkOut, NoAllow *outcome
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("report %s: %v", out, err)
	}

	// vmaf_score_files, and the tools that score a part of a run and
	// merge parts (vmaf-score's mcpfiles_parts.go).
	names := make([]string, len(rep.Tools))
	for i, tool := range rep.Tools {
		names[i] = tool.Name
	}
	slices.Sort(names)
	files := slices.IndexFunc(rep.Tools, func(tool toolReport) bool { return tool.Name == "vmaf_score_files" })
	if rep.Server.Name != "vmaf-score" || strings.Join(names, ",") != "vmaf_merge_parts,vmaf_score_files,vmaf_score_part" || !rep.Tools[files].OutputSchema {
		t.Fatalf("server %q, tools %+v", rep.Server.Name, rep.Tools)
	}
	inputs := strings.Join(rep.Tools[files].Inputs, ",")
	for _, in := range []string{"reference", "distorted", "models", "features", "threads", "frame_cnt", "frame_skip_ref", "frame_skip_dist", "subsample", "output"} {
		if !strings.Contains(","+inputs+",", ","+in+",") {
			t.Errorf("input %s not in the schema (%s)", in, inputs)
		}
	}

	g := rep.Golden
	if g == nil || g.Result == nil {
		t.Fatalf("golden pair: %+v", g)
	}
	if g.Result.Scores["vmaf"] != cliVMAF || g.Result.Pooled["vmaf"]["mean"] != cliVMAF {
		t.Errorf("pooled VMAF %v (mean %v), vmaf-score printed %v", g.Result.Scores["vmaf"], g.Result.Pooled["vmaf"]["mean"], cliVMAF)
	}
	if g.Result.FramesScored == 0 || len(g.Result.Frames) != g.Result.FramesScored || g.Result.ResultFile != "" {
		t.Errorf("golden pair: %d frames scored, %d returned, file %q", g.Result.FramesScored, len(g.Result.Frames), g.Result.ResultFile)
	}

	l := rep.Long
	if l == nil || l.Result == nil {
		t.Fatalf("long pair: %+v", l)
	}
	if l.Result.FramesScored != longFrames || len(l.Result.Frames) != 0 || filepath.Dir(l.Result.ResultFile) != outDir {
		t.Errorf("long pair: %d frames scored, %d returned, file %q", l.Result.FramesScored, len(l.Result.Frames), l.Result.ResultFile)
	} else if n := ffReadFrames(t, l.Result.ResultFile); len(n.Frames) != longFrames || n.Pooled["vmaf"]["mean"] != l.Result.Scores["vmaf"] {
		t.Errorf("result file: %d frames, mean %v; reply %v", len(n.Frames), n.Pooled["vmaf"]["mean"], l.Result.Scores["vmaf"])
	}
	if len(rep.Progress) < 2 {
		t.Errorf("%d progress notifications", len(rep.Progress))
	}
	for i, p := range rep.Progress {
		if p.Total != longFrames || p.Progress > longFrames || i > 0 && p.Progress <= rep.Progress[i-1].Progress {
			t.Errorf("progress %d: %+v", i, p)
		}
	}

	c := rep.Cancel
	// The whole pair at the long run's rate.
	full := rep.LongMs * longTotal / longFrames
	t.Logf("%d progress notifications over %d frames in %.0f ms; cancelled at frame %v, server free %.0f ms later (%d busy replies), the whole pair would take about %.0f ms",
		len(rep.Progress), longFrames, rep.LongMs, c.AtFrame, c.FreeAfterMs, c.Busy, full)
	if c.Completed != nil || c.Rejected == "" || c.AtFrame == 0 {
		t.Errorf("cancelled run: completed %+v, rejected %q, at frame %v", c.Completed, c.Rejected, c.AtFrame)
	}
	if c.Next == nil || c.Next.Result == nil || c.Next.Result.FramesScored != 1 {
		t.Errorf("the call after the cancelled one: %+v", c.Next)
	}
	// The server logs how far the cancelled run got: a run the cancel
	// did not stop would have read the whole pair (and been logged as
	// scored instead).
	stopped := regexp.MustCompile(`msg="scoring failed" reference=\S*long-ref\.mkv distorted=\S*long-dist\.mkv frames=(\d+) error="cancelled after \d+ frames"`).FindAllStringSubmatch(serverLog.String(), -1)
	if len(stopped) != 1 {
		t.Fatalf("want one cancelled run of the long pair in the server's log, found %d:\n%s", len(stopped), serverLog.String())
	}
	frames, _ := strconv.Atoi(stopped[0][1])
	t.Logf("the cancelled run stopped after %d of the pair's %d frames", frames, longTotal)
	if frames < int(c.AtFrame) || frames >= longTotal {
		t.Errorf("the cancelled run read %d frames; it was cancelled at frame %v and the pair has %d", frames, c.AtFrame, longTotal)
	}

	for name, o := range map[string]struct {
		got  *outcome
		want string
	}{
		"outside":       {rep.Outside, "reference: /etc/passwd: outside the allowed directories (" + allow + ")"},
		"link out":      {rep.LinkOut, "distorted: " + linkOut + ": outside the allowed directories"},
		"without allow": {rep.NoAllow, "outside the allowed directories (none is allowed)"},
	} {
		if o.got == nil || o.got.Result != nil || !strings.Contains(o.got.Error, o.want) {
			t.Errorf("%s: %+v, want an error saying %q", name, o.got, o.want)
		}
	}
}
