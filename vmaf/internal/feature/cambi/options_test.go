package cambi

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// TestOutputs checks the names against those libvmaf 3.2.0 reported for
// the same options: only the distorted score carries the parameters.
func TestOutputs(t *testing.T) {
	f := feature.Format{Width: 1920, Height: 1080, BitDepth: 8}
	for _, tc := range []struct{ opts, want string }{
		{"", "cambi"},
		{"full_ref=true", "cambi cambi_source cambi_full_reference"},
		{"full_ref=true:enc_width=1280:enc_height=720", "cambi_ench_720_encw_1280 cambi_source cambi_full_reference"},
		{"cambi_high_res_speedup=1080:window_size=33:topk=0.2", "cambi_hrs_1080_topk_0.2_ws_33"},
		{"tvi_threshold=0.01:max_log_contrast=3:cambi_topk=0.9:enc_bitdepth=10", "cambi_ctpk_0.9_encbd_10_mlc_3_tvit_0.01"},
		{"eotf=pq:cambi_vis_lum_threshold=5:max_log_contrast=5", "cambi_vlt_5_eotf_pq_mlc_5"},
		{"cambi_eotf=pq:max_log_contrast=0:cambi_max_val=2", "cambi_ceot_pq_cmxv_2_mlc_0"},
		{"src_width=3840:src_height=2160:heatmaps_path=/tmp/x", "cambi_srch_2160_srcw_3840"},
		{"window_size=65:eotf=bt1886", "cambi"},
	} {
		s, err := Kind.Parse(tc.opts)
		if err != nil {
			t.Fatalf("%q: %v", tc.opts, err)
		}
		if got := strings.Join(Kind.Outputs(f, s), " "); got != tc.want {
			t.Errorf("%q: outputs %q, want %q", tc.opts, got, tc.want)
		}
	}
}

func TestNewErrors(t *testing.T) {
	hd := feature.Format{Width: 1920, Height: 1080, BitDepth: 8}
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		f    feature.Format
		opts string
		err  string // part of the error
	}{
		{feature.Format{Width: 200, Height: 200, BitDepth: 8}, "", "enc_width x enc_height 200x200"},
		{hd, "src_width=3840:src_height=720", "opposite directions"},
		{hd, "eotf=hlg", `option eotf="hlg"`},
		{hd, "eotf=pq:cambi_eotf=linear", `option cambi_eotf="linear"`},
		{feature.Format{Width: 3840, Height: 2160, BitDepth: 8}, "window_size=127", "option window_size=127"},
		{feature.Format{Width: 1920, Height: 1080, BitDepth: 9}, "", "bit depth 9"},
		{hd, "heatmaps_path=" + notDir + "/sub", "heatmaps_path"},
	} {
		s, err := Kind.Parse(tc.opts)
		if err != nil {
			t.Fatalf("%q: %v", tc.opts, err)
		}
		// Check refuses what New refuses whatever the stream: the EOTFs.
		if err := Kind.Check(s); (err != nil) != strings.Contains(tc.opts, "eotf") {
			t.Errorf("%q: Check: %v", tc.opts, err)
		}
		x, err := Kind.New(tc.f, s)
		if err == nil {
			x.Close()
			t.Errorf("%v %q: no error, want %q", tc.f, tc.opts, tc.err)
			continue
		}
		if !strings.HasPrefix(err.Error(), "feature cambi: ") || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%v %q: error %q, want one with %q", tc.f, tc.opts, err, tc.err)
		}
	}
}

// TestFormats runs every depth and chroma, down to the smallest sizes
// libvmaf accepts and windows wider than the coarsest scales, and checks
// that the values are sane and reproducible.
func TestFormats(t *testing.T) {
	for _, size := range [][2]int{{216, 1}, {1, 216}, {216, 216}, {217, 3}, {3000, 216}, {641, 359}} {
		for _, depth := range []int{8, 10, 12, 16} {
			for _, chroma := range []feature.Chroma{feature.Chroma420, feature.Chroma422, feature.Chroma444, feature.Chroma400} {
				f := feature.Format{Width: size[0], Height: size[1], BitDepth: depth, Chroma: chroma}
				s, _ := Kind.Parse("full_ref=true")
				x, err := Kind.New(f, s)
				if err != nil {
					t.Fatalf("%v: %v", f, err)
				}
				ref, dist := bandedFrame(f, 0), bandedFrame(f, 3)
				out := make([]float64, 3)
				for range 2 {
					prev := slices.Clone(out)
					if err := x.Extract(0, ref, dist, out); err != nil {
						t.Fatalf("%v: %v", f, err)
					}
					for _, v := range out {
						if math.IsNaN(v) || v < 0 || v > 1000 {
							t.Fatalf("%v: values %v", f, out)
						}
					}
					if prev[0] != 0 && !slices.Equal(prev, out) {
						t.Fatalf("%v: frame scored %v then %v", f, prev, out)
					}
				}
				x.Close()
			}
		}
	}
}

// bandedFrame is a staircase of flat bands a few levels apart (at the
// plane's depth), which CAMBI should see as banding; shift moves it.
func bandedFrame(f feature.Format, shift int) *feature.Frame {
	fr := &feature.Frame{Format: f}
	bps := 1
	if f.BitDepth > 8 {
		bps = 2
	}
	for i := 0; i < f.Planes(); i++ {
		w, h := f.PlaneSize(i)
		p := feature.Plane{Data: make([]byte, w*h*bps), Stride: w * bps, W: w, H: h, BitDepth: f.BitDepth}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				v := (100 + (x+shift)/40 + y/70) << (f.BitDepth - 8)
				if bps == 1 {
					p.Data[y*p.Stride+x] = byte(v)
				} else {
					p.Data[y*p.Stride+2*x], p.Data[y*p.Stride+2*x+1] = byte(v), byte(v>>8)
				}
			}
		}
		fr.Planes[i] = p
	}
	return fr
}

// TestBanding checks the response itself: a staircase of 1-level steps
// in 8 bits bands, a flat picture does not.
func TestBanding(t *testing.T) {
	f := feature.Format{Width: 640, Height: 360, BitDepth: 8, Chroma: feature.Chroma420}
	x, err := Kind.New(f, Kind.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	out := make([]float64, 1)
	banded := bandedFrame(f, 0)
	if err := x.Extract(0, banded, banded, out); err != nil || out[0] < 1 {
		t.Errorf("staircase: cambi %v (%v), want a clear response", out[0], err)
	}
	flat := bandedFrame(feature.Format{Width: 640, Height: 360, BitDepth: 8, Chroma: feature.Chroma420}, 0)
	for i := range flat.Planes[0].Data {
		flat.Planes[0].Data[i] = 100
	}
	if err := x.Extract(1, flat, flat, out); err != nil || out[0] != 0 {
		t.Errorf("flat: cambi %v (%v), want 0", out[0], err)
	}
}

func TestSampleRange(t *testing.T) {
	f := feature.Format{Width: 320, Height: 240, BitDepth: 10, Chroma: feature.Chroma420}
	x, err := Kind.New(f, Kind.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	fr := bandedFrame(f, 0)
	fr.Planes[0].Data[2*100], fr.Planes[0].Data[2*100+1] = 0x00, 0x04 // 1024
	err = x.Extract(7, fr, fr, make([]float64, 1))
	if err == nil || !strings.Contains(err.Error(), "feature cambi: frame 7: sample 1024 exceeds the 10-bit maximum 1023") {
		t.Errorf("error %v", err)
	}
}
