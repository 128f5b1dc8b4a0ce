package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Within each extractor's outputs, and for the models after them, a
// frame's keys come in the order libvmaf's files have them, so that
// scripts that read CSV columns by position read the same columns. (The
// order between extractors in libvmaf's files follows which of its
// threads finished first, so only the order within each is fixed.)
func TestKeyOrderAsLibvmaf(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.json")
	// libvmaf's command for the golden logs, its models in its order.
	args := []string{"-q", "-r", goldenY4M(t, smallRef), "-d", goldenY4M(t, smallDist), "--json", "-o", out,
		"--threads", "2", "-m", "version=vmaf_v0.6.1", "-m", "version=vmaf_v0.6.1neg:name=vmaf_neg",
		"-m", "version=vmaf_float_v0.6.1:name=vmaf_float", "-m", "version=vmaf_4k_v0.6.1:name=vmaf_4k",
		"--feature", "psnr", "--feature", "float_ssim", "--feature", "float_ms_ssim"}
	if res := vmafScore(t, args...); res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	got := frameKeys(t, out)
	var want []string
	for _, dir := range goldenDirs() {
		p := filepath.Join(dir, "scores", "flower_321x179_x264_crf30.vmaf.json")
		if _, err := os.Stat(p); err == nil {
			want = frameKeys(t, p)
			break
		}
	}
	if want == nil {
		t.Fatal("no golden log")
	}
	groups := []struct {
		name string
		re   *regexp.Regexp
	}{
		{"integer adm", regexp.MustCompile(`^integer_(adm|aim)[a-z0-9_]*$`)},
		{"integer vif", regexp.MustCompile(`^integer_vif_scale\d(_egl_1)?$`)},
		{"integer motion", regexp.MustCompile(`^(VMAF_integer_feature_motion_sad_score|integer_motion\d?)$`)},
		{"float adm", regexp.MustCompile(`^(adm\d|aim|adm_scale\d)(_egl_1)?$`)},
		{"float vif", regexp.MustCompile(`^vif_scale\d(_egl_1)?$`)},
		{"float motion", regexp.MustCompile(`^motion\d?$`)},
		{"psnr", regexp.MustCompile(`^psnr_`)},
		{"models", regexp.MustCompile(`^vmaf`)},
	}
	for _, g := range groups {
		pick := func(keys []string) []string {
			var out []string
			for _, k := range keys {
				if g.re.MatchString(k) {
					out = append(out, k)
				}
			}
			return out
		}
		gw, gg := pick(want), pick(got)
		// Only the keys both have: libvmaf writes a few our files leave out
		// by default and the other way round.
		gw = slices.DeleteFunc(gw, func(k string) bool { return !slices.Contains(gg, k) })
		gg = slices.DeleteFunc(gg, func(k string) bool { return !slices.Contains(gw, k) })
		if len(gw) == 0 {
			t.Errorf("%s: no keys in common", g.name)
			continue
		}
		if !slices.Equal(gg, gw) {
			t.Errorf("%s: order %s, libvmaf's %s", g.name, strings.Join(gg, " "), strings.Join(gw, " "))
		}
	}
}

// frameKeys returns the first frame's metric names in file order.
func frameKeys(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Frames []struct {
			Metrics json.RawMessage `json:"metrics"`
		} `json:"frames"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Frames) == 0 {
		t.Fatalf("%s: %v", path, err)
	}
	dec := json.NewDecoder(strings.NewReader(string(doc.Frames[0].Metrics)))
	var keys []string
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}
