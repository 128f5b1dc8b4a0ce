package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeTool writes an executable that copies logPath to the file after -o,
// and appends its arguments and the size of its -r input to argsPath.
func fakeTool(t *testing.T, dir, name, logPath, argsPath string, status int) string {
	t.Helper()
	script := fmt.Sprintf(`#!/bin/sh
echo "$*" >> %[2]q
out=
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2 ;;
	-r) echo "refsize $(wc -c < "$2")" >> %[2]q ;;
	esac
	shift
done
cp %[1]q "$out"
exit %[3]d
`, logPath, argsPath, status)
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

const logA = `{"version": "3.2.0", "fps": 1.00, "frames": [
 {"frameNum": 0, "metrics": {"vmaf": 80.000000, "integer_motion2": 0.000000, "psnr_y": null}},
 {"frameNum": 1, "metrics": {"vmaf": 81.000000, "integer_motion2": 1.500000, "psnr_y": null}}]}`

func TestRunComparesDirectory(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	tmp := t.TempDir()
	gold := filepath.Join(tmp, "goldens")
	// 5x3 4:2:0 8-bit, 2 frames: libvmaf's layout has 15 + 2*2*1 bytes a frame.
	clip, _ := synthClip(5, 3, 3, 2, 8, 2, "420jpeg")
	for _, n := range []string{"clips/sky_5x3_ref.y4m", "clips/sky_5x3_blur.y4m"} {
		p := filepath.Join(gold, n)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, clip, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(gold, "scores"), 0o755)
	os.WriteFile(filepath.Join(gold, "scores", "sky_5x3_blur.vmaf.json"), []byte(logA), 0o644)

	write := func(name, content string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.json", logA)
	perturbed := write("b.json", strings.Replace(logA, "81.000000", "81.020000", 1))
	slightly := write("c.json", strings.Replace(logA, "1.500000", "1.500050", 1))

	tests := []struct {
		name       string
		oursLog    string
		oursStatus int
		status     int
		output     string
	}{
		{"same", a, 0, exitOK, "libvmaf reproduces the stored scores of 1 pairs"},
		{"within tolerance", slightly, 0, exitOK, "integer_motion2  5e-05"},
		{"vmaf off by 0.02", perturbed, 0, exitDiffers, "sky_5x3_blur frame 1  FAIL"},
		{"vmaf-score fails", a, 3, exitError, "vmaf-score: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			libArgs, oursArgs := filepath.Join(dir, "lib.args"), filepath.Join(dir, "ours.args")
			lib := fakeTool(t, dir, "vmaf", a, libArgs, 0)
			ours := fakeTool(t, dir, "vmaf-score", tc.oursLog, oursArgs, tc.oursStatus)
			var stdout, stderr bytes.Buffer
			status := run([]string{"-libvmaf", lib, "-ours", ours, gold}, &stdout, &stderr)
			if status != tc.status {
				t.Errorf("status %d, want %d\n%s%s", status, tc.status, stdout.String(), stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.output) {
				t.Errorf("output lacks %q:\n%s", tc.output, stdout.String())
			}
			la, _ := os.ReadFile(libArgs)
			oa, _ := os.ReadFile(oursArgs)
			for _, want := range []string{"-w 5 -h 3 -p 420 -b 8", "refsize 38", "--feature float_ms_ssim"} {
				if !strings.Contains(string(la), want) || !strings.Contains(string(oa), want) {
					t.Errorf("arguments lack %q:\nlibvmaf: %s\nvmaf-score: %s", want, la, oa)
				}
			}
			if !strings.HasPrefix(string(oa), "--engine native -r ") {
				t.Errorf("vmaf-score arguments: %s", oa)
			}
		})
	}
}

func TestRunDiffMode(t *testing.T) {
	tmp := t.TempDir()
	a := filepath.Join(tmp, "a.json")
	b := filepath.Join(tmp, "b.json")
	os.WriteFile(a, []byte(logA), 0o644)
	os.WriteFile(b, []byte(strings.Replace(logA, `"integer_motion2": 0.000000`, `"integer_motion2": 0.000200`, 1)), 0o644)
	tests := []struct {
		args   []string
		status int
	}{
		{[]string{"-diff", a, a}, exitOK},
		{[]string{"-diff", a, b}, exitDiffers},
		{[]string{"-diff", "-ignore", "motion", a, b}, exitOK},
		{[]string{"-diff", "-feature-tol", "1e-3", a, b}, exitOK},
		{[]string{"-diff", a}, exitError},
		{[]string{"-diff", a, filepath.Join(tmp, "none.json")}, exitError},
		{[]string{"-ours", "x"}, exitError},
		{[]string{"-libvmaf", "x", "-ours", "y", "-ours-input", "mkv"}, exitError},
	}
	for _, tc := range tests {
		var stdout, stderr bytes.Buffer
		if got := run(tc.args, &stdout, &stderr); got != tc.status {
			t.Errorf("%q: status %d, want %d\n%s%s", tc.args, got, tc.status, stdout.String(), stderr.String())
		}
	}
}
