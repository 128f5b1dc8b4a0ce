package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// With --no_prediction and no -m, libvmaf's tool loads no model: the
// frames hold only the --feature metrics, and without any there are no
// frames at all.
func TestNoPredictionWithoutModel(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	tests := []struct {
		name   string
		args   []string
		frames int
		keys   []string
	}{
		{"psnr", []string{"--feature", "psnr"}, 2, []string{"psnr_cb", "psnr_cr", "psnr_y"}},
		{"ssim", []string{"--feature", "float_ssim", "--feature", "psnr"}, 2, []string{"float_ssim", "psnr_cb", "psnr_cr", "psnr_y"}},
		{"nothing", nil, 0, nil},
		{"with model", []string{"-m", "version=vmaf_v0.6.1neg", "--feature", "psnr"}, 2, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.json")
			args := append([]string{"-r", ref, "-d", dist, "-n", "--frame_cnt", "2", "--json", "-o", out}, tc.args...)
			if res := vmafScore(t, args...); res.code != 0 {
				t.Fatalf("exit %d: %s", res.code, res.stderr)
			}
			l := readLog(t, out)
			if len(l.Frames) != tc.frames {
				t.Fatalf("%d frames, want %d", len(l.Frames), tc.frames)
			}
			for _, f := range l.Frames {
				if _, ok := f.Metrics["vmaf"]; ok {
					t.Errorf("frame %d has a vmaf score", f.FrameNum)
				}
				if tc.keys == nil {
					// A model given with -n still brings its features.
					if _, ok := f.Metrics["integer_vif_scale0_egl_1"]; !ok {
						t.Errorf("frame %d lacks the model's features: %v", f.FrameNum, f.Metrics)
					}
					continue
				}
				if got := sortedKeys(f.Metrics); strings.Join(got, ",") != strings.Join(tc.keys, ",") {
					t.Errorf("frame %d metrics %v, want %v", f.FrameNum, got, tc.keys)
				}
			}
			if tc.keys != nil && len(l.Pooled) != len(tc.keys) {
				t.Errorf("pooled metrics %v, want %v", l.Pooled, tc.keys)
			}
		})
	}
}

func sortedKeys(m map[string]float64) []string {
	keys := slices.Collect(maps.Keys(m))
	slices.Sort(keys)
	return keys
}

// Pooled scores print as libvmaf's tool prints them: every model's mean,
// then each bootstrap collection's interval.
func TestPooledPrintOrder(t *testing.T) {
	res := vmafScore(t, "-r", goldenY4M(t, smallRef), "-d", goldenY4M(t, smallDist), "--frame_cnt", "2", "-q",
		"-m", "version=vmaf_b_v0.6.3", "-m", "version=vmaf_v0.6.1:name=v061")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	lines := strings.Split(strings.TrimSpace(res.stdout), "\n")
	want := []string{"vmaf_b_v0.6.3: ", "vmaf_v0.6.1: ", "vmaf_b_v0.6.3: "}
	if len(lines) != len(want) {
		t.Fatalf("stdout %q, want %d lines", res.stdout, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d %q, want it to start %q", i, lines[i], w)
		}
	}
	if !strings.Contains(lines[2], "ci.p95: [") {
		t.Errorf("last line %q lacks the interval", lines[2])
	}
}

// -o may name a pipe (/dev/stdout piped on, a FIFO), which libvmaf's
// tool writes like any file; the document then goes out whole at the end.
func TestOutputToPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	read := make(chan []byte, 1)
	go func() {
		data, err := os.ReadFile(fifo)
		if err != nil {
			t.Error(err)
		}
		read <- data
	}()
	res := vmafScore(t, "-r", goldenY4M(t, smallRef), "-d", goldenY4M(t, smallDist), "--frame_cnt", "2", "-q", "--json", "-o", fifo)
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	var l scoreLog
	if err := json.Unmarshal(<-read, &l); err != nil {
		t.Fatal(err)
	}
	if len(l.Frames) != 2 || l.Pooled["vmaf"] == nil {
		t.Errorf("%d frames, pooled %v", len(l.Frames), l.Pooled)
	}
}
