package main

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

func TestPresetExpansion(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		models   []string
		features []string
		common   bool
	}{
		{[]string{"--aom_ctc", "v1.0"},
			[]string{"version=vmaf_v0.6.1:name=vmaf", "version=vmaf_v0.6.1neg:name=vmaf_neg"},
			[]string{"psnr=reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5", "ciede", "float_ssim=enable_db=true:clip_db=true",
				"float_ms_ssim=enable_db=true:clip_db=true", "psnr_hvs"}, false},
		{[]string{"--aom_ctc", "v7.0", "--feature", "float_psnr"},
			[]string{"version=vmaf_v0.6.1:name=vmaf", "version=vmaf_v0.6.1neg:name=vmaf_neg"},
			[]string{"psnr=reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5", "ciede", "float_ssim=scale=1:enable_db=true:clip_db=true",
				"float_ms_ssim=enable_db=true:clip_db=true", "psnr_hvs", "cambi", "float_psnr"}, true},
		{[]string{"--nflx_ctc", "v1.0"},
			[]string{"version=vmaf_4k_v0.6.1:name=vmaf", "version=vmaf_4k_v0.6.1neg:name=vmaf_neg"},
			[]string{"psnr=enable_chroma=true:enable_apsnr=true", "float_ssim=enable_db=true:clip_db=true", "cambi"}, false},
	} {
		s, err := parseArgs(append([]string{"-r", "r.y4m", "-d", "d.y4m"}, tc.args...))
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if !slices.Equal(s.models, tc.models) || !slices.Equal(s.features, tc.features) || s.commonBitDepth != tc.common {
			t.Errorf("%v: models %q features %q common %v", tc.args, s.models, s.features, s.commonBitDepth)
		}
	}
}

// TestAOMCTC scores a golden pair with the AOM preset and checks the
// extractors it adds against libvmaf's extra log, and that the stream's
// aggregate PSNR is written.
func TestAOMCTC(t *testing.T) {
	const pair = "flower_576x324_x264_crf22"
	out := filepath.Join(t.TempDir(), "out.json")
	res := vmafScore(t, "-r", goldenY4M(t, "flower_576x324_ref.y4m"), "-d", goldenY4M(t, pair+".y4m"),
		"--aom_ctc", "v7.0", "--threads", "2", "--json", "-o", out, "-q")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Frames []struct {
			Metrics map[string]float64 `json:"metrics"`
		} `json:"frames"`
		Aggregate map[string]float64 `json:"aggregate_metrics"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"apsnr_y", "apsnr_cb", "apsnr_cr"} {
		if v, ok := got.Aggregate[k]; !ok || !(v > 20 && v < 100) {
			t.Errorf("aggregate %s = %v (present %v)", k, v, ok)
		}
	}
	extra := extraLog(t, pair)
	for i, f := range got.Frames {
		for _, k := range []string{"ciede2000", "psnr_hvs", "psnr_hvs_y", "cambi", "vmaf"} {
			want, ok := extra[i][k]
			if !ok && k == "vmaf" {
				continue
			}
			if d := math.Abs(f.Metrics[k] - want); !ok || d > 1e-3 {
				t.Errorf("frame %d %s: %v, libvmaf %v (in its log: %v)", i, k, f.Metrics[k], want, ok)
			}
		}
		if _, ok := f.Metrics["float_ssim"]; !ok {
			t.Fatalf("frame %d: no float_ssim", i)
		}
	}
}

// extraLog reads libvmaf's per-frame log of the extra extractors for a
// pair from the shared goldens.
func extraLog(t *testing.T, pair string) []map[string]float64 {
	t.Helper()
	for _, dir := range goldenDirs() {
		p := filepath.Join(dir, "extra", pair+".extra.json.xz")
		if _, err := os.Stat(p); err != nil {
			continue
		}
		data, err := exec.Command("xz", "-dc", p).Output()
		if err != nil {
			t.Fatalf("xz -dc %s: %v", p, err)
		}
		var log struct {
			Frames []struct {
				Metrics map[string]float64 `json:"metrics"`
			} `json:"frames"`
		}
		if err := json.Unmarshal(data, &log); err != nil {
			t.Fatal(err)
		}
		var out []map[string]float64
		for _, f := range log.Frames {
			out = append(out, f.Metrics)
		}
		return out
	}
	t.Fatalf("no extra/%s.extra.json.xz in %v", pair, goldenDirs())
	return nil
}

// TestCPUMask scores a pair with the vector kernels and without them
// (--cpumask 31 turns every set off): the logs must be identical.
func TestCPUMask(t *testing.T) {
	dir := t.TempDir()
	var logs [2][]byte
	for i, mask := range []string{"0", "31"} {
		out := filepath.Join(dir, mask+".json")
		res := vmafScore(t, "-r", goldenY4M(t, smallRef), "-d", goldenY4M(t, smallDist), "--cpumask", mask,
			"--feature", "float_vif", "--feature", "float_adm", "--feature", "float_motion", "-q", "--json", "-o", out)
		if res.code != 0 {
			t.Fatalf("--cpumask %s: exit %d: %s", mask, res.code, res.stderr)
		}
		var err error
		if logs[i], err = os.ReadFile(out); err != nil {
			t.Fatal(err)
		}
	}
	// Only the measured speed may differ.
	fps := regexp.MustCompile(`"fps": [^,]*,`)
	if a, b := fps.ReplaceAll(logs[0], nil), fps.ReplaceAll(logs[1], nil); string(a) != string(b) || len(a) == len(logs[0]) {
		t.Errorf("scores differ with the vector kernels turned off (or the logs have no fps field to ignore)")
	}
}
