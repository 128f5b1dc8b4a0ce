package pipelines

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

var (
	tuneOnce sync.Once
	tuneBin  string
	tuneErr  error
)

// tuneBinary is vmaf-tune: meson's, or one built here.
func tuneBinary(t *testing.T) string {
	t.Helper()
	tuneOnce.Do(func() {
		if b := os.Getenv("VMAFSINK_BUILD_DIR"); b != "" {
			tuneBin = filepath.Join(b, "cmd", "vmaf-tune", "vmaf-tune")
			if _, tuneErr = os.Stat(tuneBin); tuneErr == nil {
				return
			}
		}
		_, dir := ffSetup(t)
		tuneBin = filepath.Join(dir, "vmaf-tune")
		if out, err := exec.Command("go", "build", "-o", tuneBin, "../../cmd/vmaf-tune").CombinedOutput(); err != nil {
			tuneErr = &ffBuildError{err, string(out)}
		}
	})
	if tuneErr != nil {
		t.Fatal(tuneErr)
	}
	return tuneBin
}

type tuneReport struct {
	Tools []struct {
		Name         string `json:"name"`
		OutputSchema bool   `json:"outputSchema"`
	} `json:"tools"`
	BDFiles, BDInline, BDNonMono, BDOutside tuneCall
	Search                                  tuneCall
	Progress                                []struct {
		Progress float64 `json:"progress"`
		Message  string  `json:"message"`
	} `json:"progress"`
	Cancel struct {
		Completed *tuneCall       `json:"completed"`
		Rejected  string          `json:"rejected"`
		First     json.RawMessage `json:"first"`
		Busy      int             `json:"busy"`
		Next      tuneCall        `json:"next"`
	} `json:"cancel"`
	Outside, BadOutput       tuneCall
	Compare, Ladder, PerShot tuneCall
}

type tuneCall struct {
	Error  string         `json:"error"`
	Result map[string]any `json:"result"`
}

// TestMCPTuneTypeScriptClient runs `vmaf-tune mcp` as a host would,
// spawned by the official TypeScript SDK: bd_rate gives Netflix's value,
// crf_search gives the command line's answer with a progress notification
// per probe, a cancelled search stops before its answer and frees the
// server, and files outside
// --allow are refused.
func TestMCPTuneTypeScriptClient(t *testing.T) {
	dir := tsClientDir(t)
	bin := tuneBinary(t)
	allow, outDir := t.TempDir(), t.TempDir()
	place := func(src, name string) string {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(allow, name)
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return dst
	}
	ref := ffClips.Y4M(t, "flower_576x324_ref.y4m")
	source := place(ref, "source.y4m")
	long := place(ffClips.FFmpeg(t, "tune-long.mkv", "-stream_loop", "10", "-i", ref, "-c:v", "ffv1"), "long.mkv")
	vectors := filepath.Join("..", "..", "tune", "testdata", "bdrate")
	anchor := place(filepath.Join(vectors, "a.csv"), "anchor.csv")
	test := place(filepath.Join(vectors, "b_different.csv"), "test.csv")
	nonmono := place(filepath.Join(vectors, "nonmono1_a.csv"), "nonmono.csv")
	// Two clips one after the other: a cut at frame 48.
	cut := place(ffClips.FFmpeg(t, "tune-cut.y4m", "-i", ref, "-i", ffClips.Y4M(t, "storm_640x360_ref.y4m"), "-filter_complex",
		"[1:v]scale=576:324:flags=lanczos,format=yuv420p,setsar=1[b];[0:v]setsar=1[a];[a][b]concat=n=2:v=1", "-f", "yuv4mpegpipe"), "cut.y4m")

	// The command line's answer, for the tool's to equal. Both share one
	// cache, so the tool must find the command line's probes under the
	// same keys (encoder, arguments, model, aggregate, frames, version):
	// libx264's output is not bit-identical from run to run on a loaded
	// machine, so two independent searches may differ in the last digits.
	cache := t.TempDir()
	cliOut, err := exec.Command(bin, "crf-search", "-i", source, "--encoder", "libx264", "--preset", "veryfast",
		"--target", "92", "--enc", "threads=1", "--json", "--cache-dir", cache, "-q").Output()
	if err != nil {
		t.Fatalf("vmaf-tune crf-search: %v", err)
	}
	var cli map[string]any
	if err := json.Unmarshal(cliOut, &cli); err != nil {
		t.Fatal(err)
	}

	cfg, _ := json.Marshal(map[string]any{"bin": bin, "allow": allow, "outputDir": outDir, "cacheDir": cache, "source": source, "long": long,
		"cut": cut, "anchor": anchor, "test": test, "nonmono": nonmono})
	cmd := exec.Command("node", "tune.mjs", string(cfg))
	cmd.Dir = dir
	// The servers' log comes through the client's stderr (inherited).
	var serverLog lockedBuffer
	cmd.Stderr = io.MultiWriter(os.Stderr, &serverLog)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node tune.mjs: %v\n%s", err, out)
	}
	var r tuneReport
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("report %s: %v", out, err)
	}

	var names []string
	for _, tool := range r.Tools {
		names = append(names, tool.Name)
		if !tool.OutputSchema {
			t.Errorf("tool %s has no output schema", tool.Name)
		}
	}
	for _, want := range []string{"crf_search", "bd_rate", "run_compare", "run_ladder", "run_tune_per_shot"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools %v lack %s", names, want)
		}
	}

	if v, ok := r.BDFiles.Result["bd_rate"].(float64); !ok || math.Abs(v-0.0828609163164793) > 1e-9 {
		t.Errorf("bd_rate from files: %+v", r.BDFiles)
	}
	if v, ok := r.BDInline.Result["bd_rate"].(float64); !ok || math.Abs(v+0.1) > 1e-12 {
		t.Errorf("bd_rate inline (rates × 0.9): %+v", r.BDInline)
	}
	if !strings.Contains(r.BDNonMono.Error, "not monotonic") {
		t.Errorf("non-monotonic curve: %+v", r.BDNonMono)
	}
	if r.BDOutside.Error == "" {
		t.Errorf("a point file outside --allow was read: %+v", r.BDOutside)
	}

	s := r.Search.Result
	if s == nil {
		t.Fatalf("crf_search: %s", r.Search.Error)
	}
	if s["cache_hits"] != s["encodes"] {
		t.Errorf("crf_search found %v of its %v probes in the command line's cache", s["cache_hits"], s["encodes"])
	}
	for _, k := range []string{"crf", "vmaf", "bitrate_kbps", "encodes"} {
		if s[k] != cli[k] {
			t.Errorf("crf_search %s = %v, the command line's %v", k, s[k], cli[k])
		}
	}
	if a, b := jsonOf(s["ffmpeg_args"]), jsonOf(cli["ffmpeg_args"]); a != b {
		t.Errorf("crf_search ffmpeg_args %s, the command line's %s", a, b)
	}
	if fi, err := os.Stat(filepath.Join(outDir, "best.mp4")); err != nil || fi.Size() == 0 {
		t.Errorf("the kept encode: %v", err)
	}
	scored, last := 0, 0.0
	for _, p := range r.Progress {
		if p.Progress <= last {
			t.Errorf("progress went from %g to %g", last, p.Progress)
		}
		last = p.Progress
		if strings.Contains(p.Message, "scored") {
			scored++
		}
	}
	// One per probe of the search, and one more for the kept encode when
	// the winning probe came from the cache (its packets were not kept).
	if encodes, _ := s["encodes"].(float64); scored != int(encodes)+1 {
		t.Errorf("%d probe notifications for %v encodes: %+v", scored, s["encodes"], r.Progress)
	}

	if r.Cancel.Completed != nil || r.Cancel.Rejected == "" || len(r.Cancel.First) == 0 {
		t.Errorf("cancel: %+v", r.Cancel)
	}
	// The server stopped the cancelled search before its answer: it says
	// so in its log, where a search that ran to its end logs the answer.
	longSource := regexp.QuoteMeta(long)
	if n := len(regexp.MustCompile(`msg="crf_search cancelled" source=`+longSource+` `).FindAllString(serverLog.String(), -1)); n != 1 {
		t.Errorf("%d cancelled searches of the long source in the server's log, want 1:\n%s", n, serverLog.String())
	}
	if regexp.MustCompile(`msg=crf_search source=` + longSource + ` `).MatchString(serverLog.String()) {
		t.Errorf("the cancelled search of the long source ran to its end:\n%s", serverLog.String())
	}
	if r.Cancel.Next.Result == nil {
		t.Errorf("after the cancel (%d busy answers): %+v", r.Cancel.Busy, r.Cancel.Next)
	}
	if rows, _ := r.Compare.Result["rows"].([]any); len(rows) != 2 {
		t.Errorf("run_compare: %+v", r.Compare)
	} else if curves, _ := r.Compare.Result["curves"].([]any); len(curves) != 2 {
		t.Errorf("run_compare curves: %+v", r.Compare.Result)
	}
	if rungs, _ := r.Ladder.Result["rungs"].([]any); len(rungs) != 2 ||
		!strings.HasPrefix(fmt.Sprint(r.Ladder.Result["hls_master_playlist"]), "#EXTM3U") ||
		!strings.Contains(fmt.Sprint(r.Ladder.Result["dash_mpd"]), "<MPD") {
		t.Errorf("run_ladder: %+v", r.Ladder)
	}
	if shots, _ := r.PerShot.Result["shots"].([]any); len(shots) != 2 || r.PerShot.Result["target_met"] != true {
		t.Errorf("run_tune_per_shot: %+v", r.PerShot)
	}
	if fi, err := os.Stat(filepath.Join(outDir, "plan.ts")); err != nil || fi.Size() == 0 {
		t.Errorf("the per-shot encode: %v", err)
	}
	if r.Outside.Error == "" {
		t.Errorf("a source outside --allow was read: %+v", r.Outside)
	}
	if !strings.Contains(r.BadOutput.Error, "plain file name") {
		t.Errorf("output ../escape.mp4: %+v", r.BadOutput)
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
