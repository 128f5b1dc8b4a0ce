package pipelines

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
	"github.com/vmafsink/vmafsink/vmaf"
)

// goldenTolerance bounds |element − libvmaf| for the model score. The
// element gives exactly the engine's numbers (checked bit for bit below);
// this only guards against comparing with the wrong frames. libvmaf's log
// has 6 decimals.
const goldenTolerance = 5e-6

// TestElementScoresEqualEngine runs the golden pairs through a pipeline
// and checks that every frame message carries exactly the engine's
// numbers, for 8-bit 4:2:0, 10-bit 4:2:0 and 8-bit 4:4:4, in both pairing
// modes, and that the results file says the same.
func TestElementScoresEqualEngine(t *testing.T) {
	tests := []struct {
		name, content, dist string
		pairing             string
		extras              bool // psnr, ssim and ms-ssim
		goldenFrames        int  // frames to check against libvmaf (clips cut short end early)
		format              string
	}{
		{"i420-timestamp", "flower_576x324", "x264_crf22", "timestamp", true, 48, "json"},
		{"i420-order", "flower_576x324", "x264_crf22", "order", false, 48, "xml"},
		{"i420_10le", "rain_1280x720", "x265_crf30", "timestamp", false, 3, "csv"},
		{"y444", "storm_640x360", "x264_crf35", "order", false, 24, "json"},
	}
	if testing.Short() {
		tests = tests[:1]
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ref := gsttest.Clip(t, tc.content+"_ref")
			dist := gsttest.Clip(t, tc.content+"_"+tc.dist)
			results := filepath.Join(t.TempDir(), "results."+tc.format)
			props := fmt.Sprintf("pairing=%s threads=2 results-filename=%s results-format=%s", tc.pairing, results, tc.format)
			cfg := vmaf.Config{Models: []*vmaf.Model{mustModel(t, "vmaf_v0.6.1")}, Threads: 2}
			if tc.extras {
				props += " psnr=true ssim=true ms-ssim=true"
				cfg.Features = []string{"psnr", "float_ssim", "float_ms_ssim"}
			}
			run := gsttest.Launch(t, 10*time.Minute, fmt.Sprintf("%s ! v.ref_sink %s ! v.dist_sink vmafsink name=v %s",
				gsttest.RawSource(t, ref), gsttest.RawSource(t, dist), props))
			run.MustSucceed(t)

			want := gsttest.EngineScores(t, ref, dist, cfg)
			frames := run.Frames()
			if len(frames) != len(want) || len(frames) == 0 {
				t.Fatalf("%d frame messages, engine scored %d frames", len(frames), len(want))
			}
			golden := gsttest.Golden(t, tc.content+"_"+tc.dist)
			for i, m := range frames {
				if idx := m.Uint(t, "index"); idx != uint64(i) {
					t.Fatalf("message %d has index %d", i, idx)
				}
				if got := m.Fields["model"]; got != "vmaf_v0.6.1" {
					t.Errorf("frame %d names model %q, want vmaf_v0.6.1", i, got)
				}
				if ts := time.Duration(m.Uint(t, "timestamp")); (ts - time.Duration(i)*time.Second/24).Abs() > time.Millisecond {
					t.Errorf("frame %d timestamp %v, want frame %d at 24 fps", i, ts, i)
				}
				for name, v := range want[i] {
					if got := m.Float(t, name); got != v {
						t.Errorf("frame %d %s = %v, engine %v", i, name, got, v)
					}
				}
				if got, want := m.Float(t, "score"), want[i]["vmaf"]; got != want {
					t.Errorf("frame %d score = %v, engine %v", i, got, want)
				}
				if i < tc.goldenFrames {
					if d := math.Abs(m.Float(t, "score") - golden[i]["vmaf"]); d > goldenTolerance {
						t.Errorf("frame %d score %v, libvmaf %v (|diff| %.2g)", i, m.Float(t, "score"), golden[i]["vmaf"], d)
					}
				}
				if tc.extras {
					for alias, name := range map[string]string{"psnr-y": "psnr_y", "ssim": "float_ssim", "ms-ssim": "float_ms_ssim"} {
						if m.Float(t, alias) != want[i][name] {
							t.Errorf("frame %d %s = %v, engine's %s %v", i, alias, m.Float(t, alias), name, want[i][name])
						}
					}
				}
			}
			p := run.Pooled(t)
			if n := p.Uint(t, "frames-scored"); n != uint64(len(want)) {
				t.Errorf("pooled frames-scored %d, want %d", n, len(want))
			}
			var sum float64
			for _, w := range want {
				sum += w["vmaf"]
			}
			if got, mean := p.Float(t, "score"), sum/float64(len(want)); math.Abs(got-mean) > 1e-9 {
				t.Errorf("pooled score %v, mean of frames %v", got, mean)
			}
			checkResultsFile(t, results, tc.format, want)
		})
	}
}

// checkResultsFile reads the results file back and compares it with the
// engine's scores at the precision libvmaf's formats print (6 decimals).
func checkResultsFile(t *testing.T, path, format string, want []map[string]float64) {
	t.Helper()
	frames := gsttest.ReadResults(t, path, format)
	if len(frames) != len(want) {
		t.Fatalf("results file has %d frames, want %d", len(frames), len(want))
	}
	for i, f := range frames {
		if f.Num != i || f.Model != "vmaf_v0.6.1" {
			t.Errorf("results frame %d: frameNum %d model %q", i, f.Num, f.Model)
		}
		for name, v := range want[i] {
			key := name
			if name == "integer_motion" {
				// libvmaf's tool writes the motion SAD under its internal name.
				key = "VMAF_integer_feature_motion_sad_score"
			}
			got, ok := f.Metrics[key]
			if !ok || math.Abs(got-v) > 5e-7*math.Max(1, math.Abs(v)) {
				t.Errorf("results frame %d %s = %v (present %v), engine %v", i, name, got, ok, v)
			}
		}
	}
}

func mustModel(t *testing.T, spec string) *vmaf.Model {
	t.Helper()
	m, err := vmaf.ParseModelSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
