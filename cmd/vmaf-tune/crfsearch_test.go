package main

import (
	"encoding/json"
	"math"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/tune"
)

func crfSearch(t *testing.T, args ...string) *tune.CRFResult {
	t.Helper()
	code, out, errOut := runTune(t, append([]string{"crf-search", "--json", "-q"}, args...)...)
	if code != exitOK {
		t.Fatalf("crf-search %v: exit %d: %s", args, code, errOut)
	}
	var r tune.CRFResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("crf-search output %q: %v", out, err)
	}
	return &r
}

// scoreWithVMAFScore scores dist against ref with the vmaf-score binary.
func scoreWithVMAFScore(t *testing.T, ref, dist string) float64 {
	t.Helper()
	out, err := exec.Command(vmafScore(t), "-r", ref, "-d", dist, "-q").Output()
	if err != nil {
		t.Fatalf("vmaf-score %s: %v", dist, err)
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimPrefix(string(out), "vmaf_v0.6.1:")), 64)
	if err != nil {
		t.Fatalf("vmaf-score printed %q", out)
	}
	return v
}

// TestCRFSearchEndToEnd checks the answer as a user would: the ffmpeg
// command line built from ffmpeg_args, scored by vmaf-score, lands within
// 0.5 of the target; the kept --output scores what the search said; and
// a second run is answered from the cache.
func TestCRFSearchEndToEnd(t *testing.T) {
	ref := clips.Y4M(t, "flower_576x324_ref.y4m")
	dir := t.TempDir()
	out := filepath.Join(dir, "best.mp4")
	cache := filepath.Join(dir, "cache")
	const target = 92
	r := crfSearch(t, "-i", ref, "--encoder", "libx264", "--preset", "veryfast", "--target", "92",
		"-o", out, "--cache-dir", cache)
	t.Logf("crf %g vmaf %.3f %.1f kb/s, %d encodes: %+v", r.CRF, r.VMAF, r.BitrateKbps, r.Encodes, r.Probes)
	if r.VMAF < target || r.Encodes != len(r.Probes) || r.Encodes < 1 || r.BitrateKbps <= 0 || r.CacheHits != 0 {
		t.Fatalf("result %+v", r)
	}
	want := []string{"-c:v", "libx264", "-preset", "veryfast", "-crf", strconv.FormatFloat(r.CRF, 'f', -1, 64), "-pix_fmt", "yuv420p"}
	if strings.Join(r.FFmpegArgs, " ") != strings.Join(want, " ") {
		t.Errorf("ffmpeg_args %q, want %q", r.FFmpegArgs, want)
	}

	// The kept encode is the winning probe's bitstream: it scores what
	// the search reported.
	if got := scoreWithVMAFScore(t, ref, out); math.Abs(got-r.VMAF) > 1e-3 {
		t.Errorf("--output scores %.4f, the search said %.4f", got, r.VMAF)
	}

	cli := filepath.Join(dir, "cli.mp4")
	args := append(append([]string{"-v", "error", "-y", "-i", ref}, r.FFmpegArgs...), cli)
	if b, err := exec.Command("ffmpeg", args...).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg %v: %v\n%s", args, err, b)
	}
	got := scoreWithVMAFScore(t, ref, cli)
	t.Logf("ffmpeg %s: vmaf-score %.3f", strings.Join(r.FFmpegArgs, " "), got)
	if math.Abs(got-target) > 0.5 {
		t.Errorf("the ffmpeg re-encode scores %.3f, more than 0.5 from the target %d", got, target)
	}

	again := crfSearch(t, "-i", ref, "--encoder", "libx264", "--preset", "veryfast", "--target", "92", "--cache-dir", cache)
	if again.CRF != r.CRF || again.CacheHits != again.Encodes || again.VMAF != r.VMAF {
		t.Errorf("second run: crf %g, %d of %d probes cached, vmaf %g; first: crf %g vmaf %g", again.CRF, again.CacheHits, again.Encodes, again.VMAF, r.CRF, r.VMAF)
	}
	// Another aggregate is another key.
	p5 := crfSearch(t, "-i", ref, "--encoder", "libx264", "--preset", "veryfast", "--target", "90", "--aggregate", "p5", "--cache-dir", cache, "--max-encodes", "2")
	if p5.CacheHits != 0 {
		t.Errorf("p5 search reused %d mean probes", p5.CacheHits)
	}
}

// TestCRFSearchEncodes reports the encodes per search over a stated set
// (two golden clips × four targets, libx264 veryfast) and holds the
// median to 4.
func TestCRFSearchEncodes(t *testing.T) {
	if testing.Short() {
		t.Skip("encodes 8 searches")
	}
	var counts []int
	for _, clip := range []string{"flower_576x324_ref.y4m", "storm_640x360_ref.y4m"} {
		ref := clips.Y4M(t, clip)
		for _, target := range []string{"85", "90", "93", "96"} {
			r := crfSearch(t, "-i", ref, "--encoder", "libx264", "--preset", "veryfast", "--target", target, "--no-cache")
			tv, _ := strconv.ParseFloat(target, 64)
			if r.VMAF < tv {
				t.Errorf("%s target %s: answer scores %.3f", clip, target, r.VMAF)
			}
			t.Logf("%s target %s: crf %g vmaf %.3f after %d encodes", clip, target, r.CRF, r.VMAF, r.Encodes)
			counts = append(counts, r.Encodes)
		}
	}
	sort.Ints(counts)
	median := float64(counts[len(counts)/2-1]+counts[len(counts)/2]) / 2
	t.Logf("encodes per search: %v, median %g", counts, median)
	if median > 4 {
		t.Errorf("median encodes per search %g, want at most 4", median)
	}
}

func TestCRFSearchRefusals(t *testing.T) {
	ref := clips.Y4M(t, "flower_576x324_ref.y4m")
	tests := []struct {
		args []string
		code int
		says string
	}{
		{[]string{"-i", ref, "--encoder", "libnothing"}, exitUsage, "not in this FFmpeg"},
		{[]string{"-i", ref, "--encoder", "libx264", "--aggregate", "median"}, exitUsage, "unknown aggregate"},
		{[]string{"-i", ref, "--encoder", "libx264", "--target", "120"}, exitUsage, "target 120"},
		{[]string{"--encoder", "libx264"}, exitUsage, "no source"},
		{[]string{"-i", ref, "--encoder", "libx264", "--enc", "crf=20"}, exitUsage, "sets crf itself"},
		{[]string{"-i", ref, "--encoder", "libx264", "--enc", "nosuchoption=1", "--no-cache"}, exitError, "no option \"nosuchoption\""},
		{[]string{"-i", "/nonexistent.y4m", "--encoder", "libx264", "--no-cache"}, exitError, "nonexistent.y4m"},
		// Unreachable: the best score at the lowest CRF is said.
		{[]string{"-i", ref, "--encoder", "libx264", "--preset", "ultrafast", "--target", "99.9", "--min-crf", "30", "--no-cache"}, exitError, "target not reached"},
	}
	for _, tc := range tests {
		code, _, errOut := runTune(t, append([]string{"crf-search", "-q"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errOut, tc.says) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d saying %q", tc.args, code, errOut, tc.code, tc.says)
		}
	}
}
