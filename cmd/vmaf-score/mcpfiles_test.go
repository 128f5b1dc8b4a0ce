package main

import (
	"context"
	"encoding/json"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vmafsink/vmafsink/internal/mcpfiles"
	"github.com/vmafsink/vmafsink/internal/y4m"
)

func TestMCPFilesArgs(t *testing.T) {
	tests := []struct {
		args []string
		want mcpFilesConfig
		err  string
	}{
		{args: nil, want: mcpFilesConfig{jobs: 1}},
		{args: []string{"--allow", "/a", "--allow=/b", "--output-dir", "/o", "--jobs=2", "--threads", "4"},
			want: mcpFilesConfig{allow: []string{"/a", "/b"}, outputDir: "/o", jobs: 2, threads: 4}},
		{args: []string{"--help"}, want: mcpFilesConfig{jobs: 1, help: true}},
		{args: []string{"--allow"}, err: "--allow needs an argument"},
		{args: []string{"--allow="}, err: "--allow needs a directory"},
		{args: []string{"--jobs", "0"}, err: "between 1 and 8"},
		{args: []string{"--jobs", "9"}, err: "between 1 and 8"},
		{args: []string{"--threads", "x"}, err: "should be an integer"},
		{args: []string{"--threads", "257"}, err: "at most 256"},
		{args: []string{"--allo", "/a"}, err: `unknown option "--allo"`},
		{args: []string{"-r", "ref.y4m"}, err: `unknown option "-r"`},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			c, err := parseMCPFilesArgs(tc.args)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(c.allow, ":") != strings.Join(tc.want.allow, ":") || c.outputDir != tc.want.outputDir ||
				c.jobs != tc.want.jobs || c.threads != tc.want.threads || c.help != tc.want.help {
				t.Errorf("got %+v, want %+v", *c, tc.want)
			}
		})
	}
}

func TestMCPFilesOutputName(t *testing.T) {
	for name, want := range map[string]string{
		"run.json":                         "",
		"a b.json":                         "",
		"../run.json":                      "not a plain file name",
		"/tmp/run.json":                    "not a plain file name",
		"sub/run.json":                     "not a plain file name",
		".json":                            "may not start with a dot",
		".hidden.json":                     "may not start with a dot",
		"run.txt":                          "does not end in .json",
		"run":                              "does not end in .json",
		strings.Repeat("x", 300) + ".json": "more than 255",
	} {
		err := checkOutputName(name)
		if (err == nil) != (want == "") || err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("checkOutputName(%q) = %v, want %q", name, err, want)
		}
	}
}

// filesSession serves `vmaf-score mcp` in this process and connects a
// go-sdk client to it; progress notifications are collected.
type filesSession struct {
	srv *filesServer
	cs  *mcp.ClientSession
	mu  sync.Mutex
	got []*mcp.ProgressNotificationParams
}

func startFiles(t *testing.T, args ...string) *filesSession {
	t.Helper()
	c, err := parseMCPFilesArgs(args)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := newFilesServer(c, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	fs := &filesSession{srv: srv}
	st, ct := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.mcp.Run(ctx, st) }()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			fs.mu.Lock()
			fs.got = append(fs.got, r.Params)
			fs.mu.Unlock()
		},
	})
	if fs.cs, err = client.Connect(context.Background(), ct, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		fs.cs.Close()
		cancel()
		<-done
		srv.close()
	})
	return fs
}

func (fs *filesSession) call(t *testing.T, ctx context.Context, args map[string]any, progress bool) (scoreFilesResult, string, error) {
	t.Helper()
	p := &mcp.CallToolParams{Name: toolScoreFiles, Arguments: args}
	if progress {
		p.SetProgressToken("t1")
	}
	res, err := fs.cs.CallTool(ctx, p)
	if err != nil {
		return scoreFilesResult{}, "", err
	}
	if res.IsError {
		return scoreFilesResult{}, res.Content[0].(*mcp.TextContent).Text, nil
	}
	var out scoreFilesResult
	data, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("structured content %s: %v", data, err)
	}
	return out, "", nil
}

// A golden pair scores over MCP as on the command line, frame by frame,
// and its pooled scores are the command line's.
func TestMCPFilesScoresAsCLI(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	want, _ := scoreJSON(t, "-r", ref, "-d", dist) // with psnr
	fs := startFiles(t, "--allow", filepath.Dir(ref), "--allow", filepath.Dir(dist), "--output-dir", t.TempDir())
	got, toolErr, err := fs.call(t, context.Background(), map[string]any{"reference": ref, "distorted": dist, "features": []string{"psnr"}, "frame_metrics": "all"}, false)
	if err != nil || toolErr != "" {
		t.Fatalf("call: %v %s", err, toolErr)
	}
	if got.FramesScored != len(want.Frames) || len(got.Frames) != len(want.Frames) || got.ResultFile != "" {
		t.Fatalf("%d frames scored, %d returned, file %q; want %d inline", got.FramesScored, len(got.Frames), got.ResultFile, len(want.Frames))
	}
	for i, f := range want.Frames {
		for name, v := range f.Metrics {
			if g := got.Frames[i].Metrics[name]; g == nil || *g != v {
				t.Fatalf("frame %d %s: %v, want %v", i, name, g, v)
			}
		}
	}
	for name, stats := range want.Pooled {
		for k, v := range stats {
			if g := got.Pooled[name][k]; g == nil || *g != v {
				t.Errorf("pooled %s %s: %v, want %v", name, k, g, v)
			}
		}
	}
	if s := got.Scores["vmaf"]; s == nil || *s != want.Pooled["vmaf"]["mean"] {
		t.Errorf("score %v, want %v", s, want.Pooled["vmaf"]["mean"])
	}
	if got.Reference != ref || got.Distorted != dist {
		t.Errorf("files %q %q", got.Reference, got.Distorted)
	}
	// By default each frame has the scores and the features asked for;
	// with none, no frame.
	for mode, want := range map[string]string{"": "psnr_cb,psnr_cr,psnr_y,vmaf", "scores": "psnr_cb,psnr_cr,psnr_y,vmaf", "none": "no frames"} {
		args := map[string]any{"reference": ref, "distorted": dist, "features": []string{"psnr"}}
		if mode != "" {
			args["frame_metrics"] = mode
		}
		got, toolErr, err := fs.call(t, context.Background(), args, false)
		if err != nil || toolErr != "" {
			t.Fatalf("call: %v %s", err, toolErr)
		}
		names := "no frames"
		if len(got.Frames) > 0 {
			names = strings.Join(slices.Sorted(maps.Keys(got.Frames[0].Metrics)), ",")
		}
		if names != want || got.FramesScored == 0 || len(got.Pooled) < 10 {
			t.Errorf("frame_metrics %q: frames hold %s, %d scored, %d pooled; want %s", mode, names, got.FramesScored, len(got.Pooled), want)
		}
	}

	// The file the frames went through is gone; the directory is empty.
	if ents, _ := os.ReadDir(fs.srv.outDir); len(ents) != 0 {
		t.Errorf("output directory holds %d files", len(ents))
	}

	// With output the file stays, in the output directory, and holds
	// what the command line writes.
	got, toolErr, err = fs.call(t, context.Background(), map[string]any{"reference": ref, "distorted": dist, "features": []string{"psnr"}, "output": "kept.json"}, false)
	if err != nil || toolErr != "" {
		t.Fatalf("call: %v %s", err, toolErr)
	}
	if got.ResultFile != filepath.Join(fs.srv.outDir, "kept.json") || got.Frames != nil {
		t.Fatalf("result file %q, %d frames inline", got.ResultFile, len(got.Frames))
	}
	sameScores(t, readLog(t, got.ResultFile), want)
}

// Bad requests get tool errors naming the argument and the reason, and
// the server goes on serving.
func TestMCPFilesRefusals(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	allowed := t.TempDir()
	local := filepath.Join(allowed, "ref.y4m")
	if err := os.Link(ref, local); err != nil {
		data, err := os.ReadFile(ref)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(local, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	outside := filepath.Join(t.TempDir(), "model.json")
	os.WriteFile(outside, []byte("{}"), 0o644)
	notVideo := filepath.Join(allowed, "notes.txt")
	os.WriteFile(notVideo, []byte("not a video"), 0o644)
	// A playlist inside naming a file outside.
	playlist := filepath.Join(allowed, "list.m3u8")
	os.WriteFile(playlist, []byte("#EXTM3U\n#EXTINF:1.0,\n"+outside+"\n#EXT-X-ENDLIST\n"), 0o644)
	concat := filepath.Join(allowed, "list.txt")
	os.WriteFile(concat, []byte("ffconcat version 1.0\nfile sub/x.mkv\n"), 0o644)
	if err := os.Symlink(dist, filepath.Join(allowed, "dist.y4m")); err != nil {
		t.Fatal(err)
	}
	// A stream that breaks after three frames.
	whole, err := os.ReadFile(dist)
	if err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(allowed, "broken.y4m")
	os.WriteFile(broken, whole[:300000], 0o644)
	fs := startFiles(t, "--allow", allowed, "--output-dir", t.TempDir())

	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"reference outside", map[string]any{"reference": ref, "distorted": local}, "reference: " + ref + ": outside the allowed directories"},
		{"link leading out", map[string]any{"reference": local, "distorted": filepath.Join(allowed, "dist.y4m")}, "distorted: " + filepath.Join(allowed, "dist.y4m") + ": outside"},
		{"relative", map[string]any{"reference": "ref.y4m", "distorted": local}, "not an absolute path"},
		{"missing", map[string]any{"reference": filepath.Join(allowed, "none.y4m"), "distorted": local}, "none.y4m: no such file"},
		{"unknown model", map[string]any{"reference": local, "distorted": local, "models": []string{"version=vmaf_v9"}}, `models: "version=vmaf_v9": unknown model`},
		{"model file outside", map[string]any{"reference": local, "distorted": local, "models": []string{"path=" + outside}}, "model path outside the allowed directories"},
		{"bad model option", map[string]any{"reference": local, "distorted": local, "models": []string{"version=vmaf_v0.6.1:nosuch=1"}}, "nosuch"},
		{"unknown feature", map[string]any{"reference": local, "distorted": local, "features": []string{"nosuch"}}, "invalid arguments: --feature"},
		{"raw without height", map[string]any{"reference": local, "distorted": local, "width": 16}, "raw .yuv input needs all of"},
		{"output with a directory", map[string]any{"reference": local, "distorted": local, "output": "../x.json"}, "not a plain file name"},
		{"not a video", map[string]any{"reference": notVideo, "distorted": local}, notVideo},
		{"a playlist", map[string]any{"reference": local, "distorted": playlist}, playlist + ": cannot open (Invalid data found when processing input): not a readable file, or its container is not one of matroska"},
		{"a concat list", map[string]any{"reference": concat, "distorted": local, "ffmpeg": true}, concat + ": cannot open (Invalid argument): not a readable file, or its container is not one of matroska"},
		{"bad frame_metrics", map[string]any{"reference": local, "distorted": local, "frame_metrics": "some"}, "frame_metrics"},
		{"broken part-way", map[string]any{"reference": local, "distorted": broken},
			broken + ": y4m: frame 3: unexpected EOF (the output holds the 3 frames scored before); the result file is " + fs.srv.outDir},
		{"threads out of range", map[string]any{"reference": local, "distorted": local, "threads": 1000}, "threads"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, toolErr, err := fs.call(t, context.Background(), tc.args, false)
			if err != nil {
				t.Fatalf("protocol error %v, want a tool error", err)
			}
			if !strings.Contains(toolErr, tc.want) {
				t.Fatalf("tool error %q, want one saying %q", toolErr, tc.want)
			}
			t.Log(toolErr)
		})
	}
	// Still serving.
	got, toolErr, err := fs.call(t, context.Background(), map[string]any{"reference": local, "distorted": local}, false)
	if err != nil || toolErr != "" || got.FramesScored == 0 {
		t.Fatalf("after the refusals: %v %q %+v", err, toolErr, got)
	}

	// Without --allow nothing is read.
	none := startFiles(t)
	if _, toolErr, _ := none.call(t, context.Background(), map[string]any{"reference": local, "distorted": local}, false); !strings.Contains(toolErr, "none is allowed") {
		t.Errorf("without --allow: %q", toolErr)
	}
}

// A long run sends progress and stops when the client cancels, leaving
// no goroutine behind; a second run waits for no one.
func TestMCPFilesProgressAndCancel(t *testing.T) {
	ref := goldenY4M(t, smallRef)
	// Decoded by FFmpeg: the run the decoder's goroutine must leave too.
	long := ffmpeg(t, "mcp-long.mkv", "-stream_loop", "400", "-i", ref, "-c:v", "ffv1")
	fs := startFiles(t, "--allow", filepath.Dir(long), "--allow", filepath.Dir(ref))

	got, toolErr, err := fs.call(t, context.Background(), map[string]any{"reference": long, "distorted": long, "frame_cnt": 300}, true)
	if err != nil || toolErr != "" || got.FramesScored != 300 {
		t.Fatalf("call: %v %q, %d frames", err, toolErr, got.FramesScored)
	}
	fs.mu.Lock()
	notes := fs.got
	fs.got = nil
	fs.mu.Unlock()
	if len(notes) == 0 {
		t.Fatal("no progress notifications")
	}
	for i, n := range notes {
		if n.ProgressToken != "t1" || n.Total != 300 || n.Progress > 300 || i > 0 && n.Progress <= notes[i-1].Progress {
			t.Errorf("progress %d: %+v", i, n)
		}
	}

	// The server's log says how far the cancelled run got.
	var log lockedLog
	fs.srv.log = mcpfiles.NewLog(&log)
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, _, err := fs.call(t, ctx, map[string]any{"reference": long, "distorted": long}, true)
		errc <- err
	}()
	waitFor(t, time.Minute, "progress", func() bool { fs.mu.Lock(); defer fs.mu.Unlock(); return len(fs.got) > 0 })
	// One run at a time (--jobs 1): a second call is refused, not queued.
	if _, toolErr, err := fs.call(t, context.Background(), map[string]any{"reference": ref, "distorted": ref}, false); err != nil ||
		!strings.HasPrefix(toolErr, "busy: 1 scoring(s) already running") {
		t.Errorf("a call during the run: %v %q", err, toolErr)
	}
	cancel()
	cancelled := time.Now()
	if err := <-errc; err == nil {
		t.Fatal("the cancelled call returned a result")
	}
	// The server's side: the run stops, its slot is free, and the
	// decoders and the engine's workers are gone.
	waitFor(t, time.Minute, "the run to stop", func() bool { return len(fs.srv.slots) == 0 })
	stopped := time.Since(cancelled)
	waitFor(t, time.Minute, "the goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
	fs.mu.Lock()
	last := fs.got[len(fs.got)-1]
	fs.mu.Unlock()
	stop := regexp.MustCompile(`frames=(\d+) error="cancelled after \d+ frames"`).FindStringSubmatch(log.String())
	if stop == nil {
		t.Fatalf("no cancelled run in the server's log:\n%s", log.String())
	}
	frames, _ := strconv.Atoi(stop[1])
	t.Logf("%d progress notifications for 300 frames; cancelled at frame %v of 3208, stopped after frame %d, %v later", len(notes), last.Progress, frames, stopped)
	// A run the cancel did not stop would have read all 3208 frames.
	if frames < int(last.Progress) || frames >= 3208 {
		t.Errorf("the cancelled run read %d frames (last progress %v, 3208 in all)", frames, last.Progress)
	}
	if ents, _ := os.ReadDir(fs.srv.outDir); len(ents) != 0 {
		t.Errorf("the cancelled run left %d files", len(ents))
	}
}

func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(d); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("waited %v for %s", d, what)
		}
	}
}

// The lazyffmpeg build serves `vmaf-score mcp` through vmaf-score-ffmpeg
// when that is beside it, and .y4m alone, saying why FFmpeg inputs fail,
// when it is not.
func TestMCPFilesLazyBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vmaf-score twice")
	}
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	distMKV := encode(t, dist, "handoff_dist.ffv1.mkv", "-c:v", "ffv1")
	want, _ := scoreJSON(t, "-r", ref, "-d", dist)
	alone, paired := buildLazy(t)

	call := func(bin, distPath string) (*mcp.CallToolResult, error) {
		cmd := exec.Command(bin, "mcp", "--allow", filepath.Dir(ref), "--allow", filepath.Dir(distMKV))
		cmd.Env = append(os.Environ(), "PATH=/usr/bin:/bin")
		client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
		cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			return nil, err
		}
		defer cs.Close()
		return cs.CallTool(context.Background(), &mcp.CallToolParams{Name: toolScoreFiles,
			Arguments: map[string]any{"reference": ref, "distorted": distPath}})
	}
	mean := func(res *mcp.CallToolResult) any {
		return res.StructuredContent.(map[string]any)["scores"].(map[string]any)["vmaf"]
	}
	for _, tc := range []struct {
		name, bin, dist string
		err             string
	}{
		{"y4m, alone", alone, dist, ""},
		{"mkv, alone", alone, distMKV, "distorted " + distMKV + ": this vmaf-score build does not decode with FFmpeg"},
		{"mkv, beside vmaf-score-ffmpeg", paired, distMKV, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := call(tc.bin, tc.dist)
			switch {
			case err != nil:
				t.Fatal(err)
			case tc.err != "":
				if !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, tc.err) {
					t.Errorf("got %+v, want an error saying %q", res.Content, tc.err)
				}
			case res.IsError:
				t.Fatalf("tool error: %s", res.Content[0].(*mcp.TextContent).Text)
			case mean(res) != want.Pooled["vmaf"]["mean"]:
				t.Errorf("vmaf %v, want %v", mean(res), want.Pooled["vmaf"]["mean"])
			}
		})
	}
}

// Raw .yuv takes its geometry from the call's width, height,
// pixel_format and bitdepth, and scores as the y4m clip does.
func TestMCPFilesRaw(t *testing.T) {
	dir := t.TempDir()
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	want, _ := scoreJSON(t, "-r", ref, "-d", dist)
	r, d := filepath.Join(dir, "ref.yuv"), filepath.Join(dir, "dist.yuv")
	f := writeRaw(t, ref, r, y4m.Truncated, len(want.Frames))
	writeRaw(t, dist, d, y4m.Truncated, len(want.Frames))
	fs := startFiles(t, "--allow", dir)
	got, toolErr, err := fs.call(t, context.Background(), map[string]any{"reference": r, "distorted": d, "features": []string{"psnr"}, "frame_metrics": "all",
		"width": f.Width, "height": f.Height, "pixel_format": f.Chroma, "bitdepth": f.BitDepth}, false)
	if err != nil || toolErr != "" {
		t.Fatalf("call: %v %s", err, toolErr)
	}
	if len(got.Frames) != len(want.Frames) {
		t.Fatalf("%d frames, want %d", len(got.Frames), len(want.Frames))
	}
	for i, f := range want.Frames {
		for name, v := range f.Metrics {
			if g := got.Frames[i].Metrics[name]; g == nil || *g != v {
				t.Fatalf("frame %d %s: %v, want %v", i, name, g, v)
			}
		}
	}
}

// `vmaf-score mcp` is reached from the command line, and its own options
// are checked before it serves.
func TestMCPFilesCommandLine(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{[]string{"mcp", "--help"}, exitOK, "Usage: vmaf-score mcp --allow DIR", ""},
		{[]string{"mcp", "--jobs", "0"}, exitUsage, "", "vmaf-score: invalid argument \"0\" for option --jobs"},
		{[]string{"mcp", "--allow", "/no/such/dir"}, exitUsage, "", "vmaf-score: mcp: --allow /no/such/dir: lstat /no: no such file or directory"},
		{[]string{"--help"}, exitOK, "vmaf-score mcp --allow DIR...", ""},
	} {
		res := vmafScore(t, tc.args...)
		if res.code != tc.code || !strings.Contains(res.stdout, tc.stdout) || !strings.Contains(res.stderr, tc.stderr) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d, %q, %q", tc.args, res.code, res.stdout, res.stderr, tc.code, tc.stdout, tc.stderr)
		}
	}
}

// A panic on a call's goroutine is the call's error, not the server's
// end, and the call's slot is given back.
func TestMCPFilesPanicIsAToolError(t *testing.T) {
	ref := goldenY4M(t, smallRef)
	out := t.TempDir()
	c, err := parseMCPFilesArgs([]string{"--allow", filepath.Dir(ref), "--output-dir", out})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := newFilesServer(c, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.close()
	// A request without parameters panics where the progress token is
	// read, after the slot is taken.
	_, _, err = srv.scoreFiles(context.Background(), &mcp.CallToolRequest{}, scoreFilesArgs{Reference: ref, Distorted: ref})
	if err == nil || !strings.HasPrefix(err.Error(), "internal error while scoring "+ref) {
		t.Fatalf("error %v", err)
	}
	if len(srv.slots) != 0 {
		t.Error("the slot was not given back")
	}
	// The call named no output: its result file goes with it.
	if left, _ := os.ReadDir(out); len(left) != 0 {
		t.Errorf("%d files left in the output directory, first %s", len(left), left[0].Name())
	}
}

// lockedLog is a log the server writes from its goroutines.
type lockedLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
