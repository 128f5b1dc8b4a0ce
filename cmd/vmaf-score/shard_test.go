package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/internal/testclips"
)

// goldenPairs are the reference/distorted pairs of the golden clips the
// repository carries, by file name.
func goldenPairs(t *testing.T) [][2]string {
	t.Helper()
	var pairs [][2]string
	for _, ref := range testclips.Glob("../..", "clips/*_ref.y4m*") {
		name := strings.TrimSuffix(filepath.Base(ref), ".xz")
		prefix := strings.TrimSuffix(name, "ref.y4m")
		for _, d := range testclips.Glob("../..", "clips/"+prefix+"*.y4m*") {
			dn := strings.TrimSuffix(filepath.Base(d), ".xz")
			if dn != name && !slices.ContainsFunc(pairs, func(p [2]string) bool { return p == [2]string{name, dn} }) {
				pairs = append(pairs, [2]string{name, dn})
			}
		}
	}
	if len(pairs) == 0 {
		t.Fatal("no golden pairs found")
	}
	return pairs
}

// fpsField is the processing rate in a document, the one line a merge
// cannot reproduce: it is a measurement of the run, not a score.
var fpsField = regexp.MustCompile(`"fps": [^,\n]*|fps="[^"]*"`)

// sameDocument fails unless two results files are byte for byte the same
// but for the processing rate.
func sameDocument(t *testing.T, want, got string) {
	t.Helper()
	w, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	g, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	w, g = fpsField.ReplaceAll(w, []byte("fps")), fpsField.ReplaceAll(g, []byte("fps"))
	if string(w) == string(g) {
		return
	}
	wl, gl := strings.Split(string(w), "\n"), strings.Split(string(g), "\n")
	for i := range min(len(wl), len(gl)) {
		if wl[i] != gl[i] {
			t.Fatalf("%s and %s differ at line %d:\n  one run: %s\n  merged:  %s", want, got, i+1, wl[i], gl[i])
		}
	}
	t.Fatalf("%s has %d lines, %s %d", want, len(wl), got, len(gl))
}

func mustScore(t *testing.T, args ...string) cliResult {
	t.Helper()
	r := vmafScore(t, args...)
	if r.code != 0 {
		t.Fatalf("vmaf-score %s: exit %d: %s", strings.Join(args, " "), r.code, r.stderr)
	}
	return r
}

// meanScore reads the pooled mean of metric from a JSON results file.
func meanScore(t *testing.T, path, metric string) float64 {
	t.Helper()
	l := readLog(t, path)
	m, ok := l.Pooled[metric]["mean"]
	if !ok {
		t.Fatalf("%s: no pooled %s", path, metric)
	}
	return m
}

// TestShardsJoinAsOneRun splits every golden pair into 2, 3, 5 and 7
// parts, scores each apart and merges them (given in reverse order): the
// document must be the one a single run writes, with a bootstrap model's
// intervals, percentiles, apsnr, windows and drops, and features that
// depend on the frames before and after.
func TestShardsJoinAsOneRun(t *testing.T) {
	for _, p := range goldenPairs(t) {
		t.Run(strings.TrimSuffix(p[1], ".y4m"), func(t *testing.T) {
			ref, dist := goldenY4M(t, p[0]), goldenY4M(t, p[1])
			dir := t.TempDir()
			run := []string{"-r", ref, "-d", dist, "-q", "--threads", "2",
				"-m", "version=vmaf_v0.6.1", "-m", "version=vmaf_b_v0.6.3:name=boot",
				"--feature", "psnr=enable_apsnr=true", "--feature", "float_motion",
				"--pool-percentiles", "1,5,50,95", "--window-frames", "5", "--window-step", "2"}
			// Drops begin and end inside the clip when the threshold is
			// the clip's own mean score.
			probe := filepath.Join(dir, "probe.json")
			mustScore(t, append(run, "--json", "-o", probe)...)
			threshold := strconv.FormatFloat(min(meanScore(t, probe, "vmaf"), 100), 'f', 3, 64)
			run = append(run, "--alert-threshold", threshold, "--alert-frames", "2")
			whole := filepath.Join(dir, "whole.json")
			mustScore(t, append(run, "--json", "-o", whole)...)
			for _, n := range []int{2, 3, 5, 7} {
				format := []string{"--json", "json"}
				if n%2 == 1 {
					format = []string{"--xml", "xml"}
				}
				var parts []string
				for i := range n {
					part := filepath.Join(dir, fmt.Sprintf("part%d_of%d.%s", i, n, format[1]))
					mustScore(t, append(run, format[0], "-o", part, "--shard", fmt.Sprintf("%d/%d", i, n))...)
					parts = append(parts, part)
				}
				slices.Reverse(parts)
				merged := filepath.Join(dir, fmt.Sprintf("merged%d.json", n))
				mustScore(t, append([]string{"merge", "-q", "--json", "-o", merged}, parts...)...)
				sameDocument(t, whole, merged)
			}
		})
	}
}

// TestShardFormatsAndOptions merges parts chosen with --frames, with
// subsampling, a frame count and windows of running time, into each of
// XML, JSON and CSV; and checks every extractor joins exactly.
func TestShardFormatsAndOptions(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	cases := []struct {
		name   string
		opts   []string
		ranges []string // --frames of each part
	}{
		{"subsample", []string{"--subsample", "3", "--feature", "psnr=enable_apsnr=true", "--window-duration", "0.1",
			"--alert-threshold", "99", "--pool-percentiles", "10,90"}, []string{"4:", "0:2", "2:4"}},
		{"frame_cnt", []string{"--frame_cnt", "6", "--frame_skip_ref", "1", "--frame_skip_dist", "1",
			"--feature", "speed_temporal"}, []string{"0:1", "1:5", "5:"}},
		{"every extractor", everyExtractor(t), []string{"0:3", "3:4", "4:"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			run := append([]string{"-r", ref, "-d", dist, "-q", "-m", "version=vmaf_b_v0.6.3"}, c.opts...)
			var parts []string
			for i, r := range c.ranges {
				part := filepath.Join(dir, fmt.Sprintf("part%d.xml", i))
				mustScore(t, append(run, "--xml", "-o", part, "--frames", r)...)
				parts = append(parts, part)
			}
			for _, f := range []string{"xml", "json", "csv"} {
				whole := filepath.Join(dir, "whole."+f)
				mustScore(t, append(run, "--"+f, "-o", whole)...)
				merged := filepath.Join(dir, "merged."+f)
				mustScore(t, append([]string{"merge", "--" + f, "-o", merged}, parts...)...)
				sameDocument(t, whole, merged)
			}
		})
	}
}

// everyExtractor asks for every extractor --list-features lists, but the
// default models' own and psnr (asked for with its apsnr).
func everyExtractor(t *testing.T) []string {
	t.Helper()
	out := mustScore(t, "--list-features").stdout
	args := []string{"--feature", "psnr=enable_apsnr=true:enable_mse=true"}
	for _, line := range strings.Split(out, "\n") {
		name, _, ok := strings.Cut(line, ":")
		if !ok || strings.HasPrefix(line, " ") {
			continue
		}
		switch name {
		case "vif", "adm", "motion", "psnr":
			continue
		case "lpips":
			// A learned extractor: it needs its ONNX model file and
			// ONNX Runtime, which the learned-model tests provide.
			continue
		}
		args = append(args, "--feature", name)
	}
	return args
}

// TestShardFFmpegInput joins parts of a pair whose distorted side FFmpeg
// decodes (an x264 encode, frames from a keyframe on).
func TestShardFFmpegInput(t *testing.T) {
	ref := goldenY4M(t, "flower_576x324_ref.y4m")
	enc := encode(t, ref, "shard_x264.mkv", "-frames:v", "16", "-c:v", "libx264", "-crf", "30", "-g", "5", "-bf", "2", "-preset", "veryfast")
	dir := t.TempDir()
	run := []string{"-r", ref, "-d", enc, "-q", "--feature", "float_motion"}
	whole := filepath.Join(dir, "whole.json")
	mustScore(t, append(run, "--json", "-o", whole)...)
	var parts []string
	for i := range 3 {
		part := filepath.Join(dir, fmt.Sprintf("part%d.json", i))
		mustScore(t, append(run, "--json", "-o", part, "--shard", fmt.Sprintf("%d/3", i))...)
		parts = append(parts, part)
	}
	merged := filepath.Join(dir, "merged.json")
	mustScore(t, append([]string{"merge", "-o", merged}, parts...)...)
	sameDocument(t, whole, merged)
}

// TestMergeRefuses checks merge names what is wrong with a set of parts.
func TestMergeRefuses(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	dir := t.TempDir()
	run := []string{"-r", ref, "-d", dist, "-q", "--json"}
	part := func(name, frames string, extra ...string) string {
		p := filepath.Join(dir, name+".json")
		mustScore(t, append(append(run, extra...), "-o", p, "--frames", frames)...)
		return p
	}
	a, b, c := part("a", "0:3"), part("b", "3:6"), part("c", "6:")
	gapB := part("gapb", "4:6")
	overlap := part("overlap", "2:6")
	other := part("other", "3:6", "--feature", "psnr")
	whole := filepath.Join(dir, "whole.json")
	mustScore(t, append(run, "-o", whole)...)
	cases := []struct {
		name  string
		parts []string
		want  string
	}{
		{"gap", []string{a, gapB, c}, "frame 3 are missing"},
		{"overlap", []string{c, overlap, a}, "frame 2 are in both"},
		{"no end", []string{a, b}, "frames from 6 on are missing"},
		{"no start", []string{b, c}, "frames 0-2 are missing"},
		{"extra", []string{a, b, c, part("d", "6:")}, "are extra"},
		{"other run", []string{a, other, c}, "is not a part of the run"},
		{"not a part", []string{a, whole}, "no vmafsink_shard section"},
	}
	for _, cs := range cases {
		t.Run(cs.name, func(t *testing.T) {
			out := filepath.Join(dir, "out.json")
			r := vmafScore(t, append([]string{"merge", "-o", out}, cs.parts...)...)
			if r.code != exitError || !strings.Contains(r.stderr, cs.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d and %q", r.code, r.stderr, exitError, cs.want)
			}
		})
	}
	// Those parts make the whole run once they are all there.
	merged := filepath.Join(dir, "merged.json")
	mustScore(t, "merge", "-o", merged, c, a, b)
	sameDocument(t, whole, merged)
}

func TestShardUsage(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	out := filepath.Join(t.TempDir(), "p.xml")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--shard", "3/3", "-o", out}, "invalid argument"},
		{[]string{"--shard", "1/0", "-o", out}, "invalid argument"},
		{[]string{"--frames", "5:5", "-o", out}, "invalid argument"},
		{[]string{"--frames", "2:1", "-o", out}, "invalid argument"},
		{[]string{"--shard", "0/2"}, "needs -o/--output"},
		{[]string{"--shard", "0/2", "--csv", "-o", out}, "writes XML or JSON"},
		{[]string{"--shard", "0/2", "--frames", "0:", "-o", out}, "only one of"},
		{[]string{"--shard", "0/2", "--align", "pts", "-o", out}, "--align pts"},
	}
	for _, c := range cases {
		r := vmafScore(t, append([]string{"-r", ref, "-d", dist}, c.args...)...)
		if r.code != exitUsage || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want exit %d and %q", c.args, r.code, r.stderr, exitUsage, c.want)
		}
	}
	// A part past the end of the run is an error, not an empty part.
	r := vmafScore(t, "-r", ref, "-d", dist, "-q", "--frames", "20:", "-o", out)
	if r.code != exitError || !strings.Contains(r.stderr, "frame 20") {
		t.Errorf("--frames 20: on 8 frames: exit %d, %q", r.code, r.stderr)
	}
	if r := vmafScore(t, "-r", ref, "-d", dist, "-q", "--shard", "0/9", "-o", out); r.code != exitError || !strings.Contains(r.stderr, "is empty") {
		t.Errorf("--shard 0/9 on 8 frames: exit %d, %q", r.code, r.stderr)
	}
}

// TestShardRawInput joins parts of raw .yuv inputs, which a part seeks
// into by frame size, at an odd size (chroma planes rounded up).
func TestShardRawInput(t *testing.T) {
	ref := ffmpeg(t, "shard_ref.yuv", "-i", goldenY4M(t, smallRef), "-f", "rawvideo", "-pix_fmt", "yuv420p")
	dist := ffmpeg(t, "shard_dist.yuv", "-i", goldenY4M(t, smallDist), "-f", "rawvideo", "-pix_fmt", "yuv420p")
	dir := t.TempDir()
	run := []string{"-r", ref, "-d", dist, "-w", "321", "-h", "179", "-p", "420", "-b", "8", "-q", "--feature", "float_motion"}
	whole := filepath.Join(dir, "whole.xml")
	mustScore(t, append(run, "-o", whole)...)
	var parts []string
	for i := range 3 {
		part := filepath.Join(dir, fmt.Sprintf("part%d.xml", i))
		mustScore(t, append(run, "-o", part, "--shard", fmt.Sprintf("%d/3", i))...)
		parts = append(parts, part)
	}
	merged := filepath.Join(dir, "merged.xml")
	mustScore(t, append([]string{"merge", "-o", merged}, parts...)...)
	sameDocument(t, whole, merged)
}

// TestRunArgs: the options a part records read back as the run's, however
// they were written (grouped, attached, abbreviated), without the ones a
// part may differ in.
func TestRunArgs(t *testing.T) {
	for _, line := range []string{
		"-rref.y4m -d dist.y4m -qn --feat=psnr -m version=vmaf_v0.6.1:name=a --thr 2 --shard 1/3 -o p.xml",
		"-r ref.y4m -d dist.y4m --frames 4:9 --json -o p.json --subsample=3 --pool-percentiles 1,5 --window-frames 4 --progress",
		"-r ref.yuv -d dist.yuv -w 64 -h 32 -p 444 -b 10 --aom_ctc v6.0 --frame_cnt 9 --frames 0:",
	} {
		s, err := parseArgs(strings.Fields(line))
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		args := runArgs(s.given)
		back, err := parseArgs(args)
		if err != nil {
			t.Fatalf("%s: %v: %v", line, args, err)
		}
		for _, a := range args {
			if name, _, _ := strings.Cut(strings.TrimPrefix(a, "--"), "="); partOptions[name] {
				t.Errorf("%s: %v keeps %s", line, args, a)
			}
		}
		s.shard, s.output, s.format, s.formatSet, s.quiet, s.showProgress = nil, "", 0, false, false, false
		// What was given, in order and by name, is bookkeeping.
		s.given, back.given, s.valueOf, back.valueOf = nil, nil, nil, nil
		if fmt.Sprintf("%+v", s) != fmt.Sprintf("%+v", back) {
			t.Errorf("%s: read back from %v:\n got %+v\nwant %+v", line, args, back, s)
		}
	}
}
