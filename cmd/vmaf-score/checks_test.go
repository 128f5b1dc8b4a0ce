package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What the control plane warns of, the command line warns of too, on
// stderr and in the results: a model meant for another display size, and
// an HDR input against an SDR one.
func TestInputWarnings(t *testing.T) {
	ref := goldenY4M(t, "flower_576x324_ref.y4m")
	pq := encode(t, ref, "flower_pq.mkv", "-frames:v", "2", "-c:v", "libx264", "-crf", "20",
		"-color_trc", "smpte2084", "-color_primaries", "bt2020", "-colorspace", "bt2020nc")
	uhd := encode(t, ref, "flower_2160p.y4m", "-frames:v", "1", "-vf", "scale=3840:2160")
	tests := []struct {
		name string
		args []string
		want string // "" for no warning
	}{
		{"4K model on 576x324", []string{"-r", ref, "-d", ref, "-m", "version=vmaf_4k_v0.6.1"},
			"model vmaf_4k_v0.6.1 is meant for 4K (2160p) viewing; on 576x324 input its scores saturate near 100"},
		{"1080p model on 2160p", []string{"-r", uhd, "-d", uhd},
			"model vmaf_v0.6.1 is meant for 1080p viewing; for 3840x2160 input vmaf_4k_v0.6.1 fits better"},
		{"PQ against SDR", []string{"-r", ref, "-d", pq},
			"dynamic ranges differ: reference SDR (or not stated), distorted HDR (PQ)"},
		{"fitting", []string{"-r", ref, "-d", ref}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, format := range []string{"--json", "--xml"} {
				out := filepath.Join(t.TempDir(), "out")
				res := vmafScore(t, append(tc.args, "-q", "--frame_cnt", "1", format, "-o", out)...)
				if res.code != 0 {
					t.Fatalf("exit %d: %s", res.code, res.stderr)
				}
				got := resultWarnings(t, out, format)
				if tc.want == "" {
					if res.stderr != "" || len(got) != 0 {
						t.Errorf("stderr %q, results %q; want no warning", res.stderr, got)
					}
					if data, _ := os.ReadFile(out); strings.Contains(string(data), "warnings") {
						t.Errorf("%s: a run without warnings has a warnings section", format)
					}
					continue
				}
				if !strings.Contains(res.stderr, "vmaf-score: warning: "+tc.want) {
					t.Errorf("stderr %q, want %q", res.stderr, tc.want)
				}
				if len(got) != 1 || !strings.HasPrefix(got[0], tc.want) {
					t.Errorf("%s results warnings %q, want %q", format, got, tc.want)
				}
			}
		})
	}
}

func resultWarnings(t *testing.T, path, format string) []string {
	t.Helper()
	if format == "--json" {
		return readWarnings(t, path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Warnings []struct {
			Message string `xml:"message,attr"`
		} `xml:"warnings>warning"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []string
	for _, w := range doc.Warnings {
		out = append(out, w.Message)
	}
	return out
}

// A rotated encode (or -w and -h given the wrong way round) is named as
// such.
func TestSwappedSizes(t *testing.T) {
	ref := goldenY4M(t, "flower_576x324_ref.y4m")
	rotated := encode(t, ref, "flower_rotated.y4m", "-frames:v", "2", "-vf", "transpose=1")
	res := vmafScore(t, "-q", "-r", ref, "-d", rotated)
	want := "dimensions do not match: reference 576x324, distorted 324x576 (the width and height of one are swapped"
	if res.code != exitError || !strings.Contains(res.stderr, want) {
		t.Errorf("exit %d, stderr %q, want %q", res.code, res.stderr, want)
	}
}
