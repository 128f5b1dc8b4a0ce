package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildLazy builds vmaf-score with the lazyffmpeg tag into two new
// directories: alone in the first, with the FFmpeg build beside it as
// vmaf-score-ffmpeg in the second. It returns the two lazy binaries.
func buildLazy(t *testing.T) (alone, paired string) {
	t.Helper()
	build := func(out string, args ...string) {
		cmd := exec.Command("go", append(append([]string{"build"}, args...), "-o", out, ".")...)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", strings.Join(args, " "), err, b)
		}
	}
	paired = filepath.Join(t.TempDir(), "vmaf-score")
	build(paired, "-tags", "lazyffmpeg")
	build(filepath.Join(filepath.Dir(paired), "vmaf-score-ffmpeg"))
	alone = filepath.Join(t.TempDir(), "vmaf-score")
	if err := os.Link(paired, alone); err != nil {
		data, err := os.ReadFile(paired)
		if err == nil {
			err = os.WriteFile(alone, data, 0o755)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return alone, paired
}

// runBinary runs a built vmaf-score with PATH holding only the system's
// directories, so that no other vmaf-score-ffmpeg is found.
func runBinary(t *testing.T, bin string, args ...string) cliResult {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "PATH=/usr/bin:/bin")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	code := 0
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%s: %v", bin, err)
		}
		code = ee.ExitCode()
	}
	return cliResult{code, out.String(), errb.String()}
}

// The lazyffmpeg build links no FFmpeg at all.
func TestLazyBuildLinksNoFFmpeg(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-tags", "lazyffmpeg", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.Contains(pkg, "astiav") || strings.HasSuffix(pkg, "/ffsource") {
			t.Errorf("the lazyffmpeg build depends on %s", pkg)
		}
	}
}

// The lazyffmpeg build scores .y4m itself, hands FFmpeg inputs to the
// build beside it with the same scores as decoding them in-process, and
// says what is missing when that build is not there.
func TestLazyBuildHandOff(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vmaf-score twice")
	}
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	distMKV := encode(t, dist, "handoff_dist.ffv1.mkv", "-c:v", "ffv1")
	want, _ := scoreJSON(t, "-r", ref, "-d", dist)
	score := func(bin, distPath string) (*scoreLog, cliResult) {
		out := filepath.Join(t.TempDir(), "out.json")
		res := runBinary(t, bin, "-r", ref, "-d", distPath, "--json", "-o", out, "--feature", "psnr")
		if res.code != 0 {
			return nil, res
		}
		return readLog(t, out), res
	}

	alone, paired := buildLazy(t)
	got, res := score(alone, dist)
	if got == nil {
		t.Fatalf("y4m pair without the FFmpeg build: exit %d: %s", res.code, res.stderr)
	}
	sameScores(t, got, want)
	if _, res = score(alone, distMKV); res.code != exitError ||
		!strings.Contains(res.stderr, "distorted "+distMKV+" needs FFmpeg: vmaf-score-ffmpeg is neither beside this executable nor on PATH") {
		t.Errorf("mkv input without the FFmpeg build: exit %d, stderr %q", res.code, res.stderr)
	}

	got, res = score(paired, distMKV)
	if got == nil {
		t.Fatalf("mkv input with the FFmpeg build beside: exit %d: %s", res.code, res.stderr)
	}
	sameScores(t, got, want)
	// Option errors of the FFmpeg path come from the FFmpeg build.
	if res = runBinary(t, paired, "-r", ref, "-d", dist, "--scale-dist", "nearest-ish"); res.code != exitUsage ||
		!strings.Contains(res.stderr, "--scale-dist") {
		t.Errorf("bad --scale-dist: exit %d, stderr %q", res.code, res.stderr)
	}
}
