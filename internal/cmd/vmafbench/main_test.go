package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseCase(t *testing.T) {
	tests := []struct {
		in   string
		want benchCase
		ok   bool
	}{
		{"576x324:a.yuv:b.yuv", benchCase{576, 324, "a.yuv", "b.yuv"}, true},
		{"1920x1080:/t/r.yuv:/t/d:x.yuv", benchCase{1920, 1080, "/t/r.yuv", "/t/d:x.yuv"}, true},
		{"1920:a:b", benchCase{}, false},
		{"0x4:a:b", benchCase{}, false},
		{"4x4:a:", benchCase{}, false},
		{"4x4:a", benchCase{}, false},
	}
	for _, tc := range tests {
		got, err := parseCase(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseCase(%q) = %+v, %v; want %+v, ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestMedian(t *testing.T) {
	tests := []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
	}
	for _, tc := range tests {
		if got := median(tc.in); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
	if !math.IsNaN(median(nil)) {
		t.Error("median of nothing is not NaN")
	}
}

func TestParseScores(t *testing.T) {
	good := `{"frames": [{"frameNum": 0, "metrics": {"vmaf": 80.5}}, {"frameNum": 1, "metrics": {"vmaf": 81.5}}],
		"pooled_metrics": {"vmaf": {"min": 80.5, "mean": 81.0}}}`
	s, err := parseScores(strings.NewReader(good), "good", "vmaf")
	if err != nil || s.pooled != 81 || len(s.frames) != 2 || s.frames[1] != 81.5 {
		t.Errorf("parseScores(good) = %+v, %v", s, err)
	}
	for name, bad := range map[string]string{
		"no pooled":   `{"frames": [{"metrics": {"vmaf": 1}}]}`,
		"null frame":  `{"frames": [{"metrics": {"vmaf": null}}], "pooled_metrics": {"vmaf": {"mean": 1}}}`,
		"no frames":   `{"frames": [], "pooled_metrics": {"vmaf": {"mean": 1}}}`,
		"not json":    `<VMAF>`,
		"null pooled": `{"frames": [{"metrics": {"vmaf": 1}}], "pooled_metrics": {"vmaf": {"mean": null}}}`,
	} {
		if _, err := parseScores(strings.NewReader(bad), name, "vmaf"); err == nil {
			t.Errorf("parseScores(%s) gave no error", name)
		}
	}
}

func TestDisagreement(t *testing.T) {
	a := scores{pooled: 80, frames: []float64{79, 81}}
	if p, f := disagreement(a, a); p != 0 || f != 0 {
		t.Errorf("a against itself: %v, %v", p, f)
	}
	b := scores{pooled: 80.00002, frames: []float64{79, 81.0003}}
	if p, f := disagreement(a, b); math.Abs(p-2e-5) > 1e-9 || math.Abs(f-3e-4) > 1e-9 {
		t.Errorf("a against b: %v, %v", p, f)
	}
	c := scores{pooled: 80, frames: []float64{79}}
	if _, f := disagreement(a, c); !math.IsInf(f, 1) {
		t.Errorf("different frame counts: frame difference %v, want +Inf", f)
	}
}

// fakeScorer writes a tool that logs its arguments to argsLog and writes a
// two-frame JSON score log to the file after -o, with the second frame
// scored frame2.
func fakeScorer(t *testing.T, dir, name, argsLog string, frame2 float64) string {
	t.Helper()
	mean := (80 + frame2) / 2
	script := fmt.Sprintf(`#!/bin/sh
echo "$*" >> %q
out=
while [ $# -gt 0 ]; do
	[ "$1" = -o ] && out=$2
	shift
done
cat > "$out" <<'END'
{"frames": [{"frameNum": 0, "metrics": {"vmaf": 80.0}}, {"frameNum": 1, "metrics": {"vmaf": %f}}],
 "pooled_metrics": {"vmaf": {"mean": %f}}}
END
`, argsLog, frame2, mean)
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRun(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	tests := []struct {
		name       string
		oursFrame2 float64
		wantStatus int
	}{
		{"same scores", 82, exitOK},
		{"changed score", 82.001, exitDiffers},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			argsLog := filepath.Join(dir, "args")
			ours := fakeScorer(t, dir, "ours", argsLog, tc.oursFrame2)
			lib := fakeScorer(t, dir, "lib", argsLog, 82)
			var out, errOut bytes.Buffer
			status := run([]string{"-libvmaf", lib, "-ours", ours, "-cpumask", "48", "-runs", "2",
				"-threads", "1,2", "-work", dir, "16x8:r.yuv:d.yuv"}, &out, &errOut)
			if status != tc.wantStatus {
				t.Fatalf("status %d, want %d\n%s%s", status, tc.wantStatus, out.String(), errOut.String())
			}
			calls, err := os.ReadFile(argsLog)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(calls)), "\n")
			// 2 thread counts x 2 rounds x 3 tools, interleaved.
			if len(lines) != 12 {
				t.Fatalf("%d runs, want 12:\n%s", len(lines), calls)
			}
			for i, prefix := range []string{"--engine native -r r.yuv", "-r r.yuv", "--cpumask 48 -r r.yuv", "--engine native"} {
				if !strings.HasPrefix(lines[i], prefix) {
					t.Errorf("run %d: %q, want it to start with %q", i, lines[i], prefix)
				}
			}
			if !strings.Contains(lines[0], "-w 16 -h 8 -p 420 -b 8 --threads 1 ") ||
				!strings.Contains(lines[11], "--threads 2 ") {
				t.Errorf("runs lack the geometry or thread count: %q, %q", lines[0], lines[11])
			}
			table := out.String()
			for _, want := range []string{
				"| size | threads | native fps | libvmaf fps | libvmaf cpumask=48 fps | native ÷ libvmaf |",
				"| 16x8 | 1 |", "| 16x8 | 2 |",
			} {
				if !strings.Contains(table, want) {
					t.Errorf("table lacks %q:\n%s", want, table)
				}
			}
		})
	}
}

func TestParseArgsErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-ours", "x", "4x4:a:b"},
		{"-libvmaf", "x", "-ours", "y"},
		{"-libvmaf", "x", "-ours", "y", "-threads", "1,two", "4x4:a:b"},
		{"-libvmaf", "x", "-ours", "y", "-runs", "0", "4x4:a:b"},
		{"-libvmaf", "x", "-ours", "y", "4x:a:b"},
	} {
		if _, err := parseArgs(args, &bytes.Buffer{}); err == nil {
			t.Errorf("parseArgs(%q) gave no error", args)
		}
	}
}
