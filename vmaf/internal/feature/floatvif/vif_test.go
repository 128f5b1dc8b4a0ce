package floatvif

import (
	"math"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

// synth is a frame of the format whose planes hold a deterministic
// texture: a gradient, a few sinusoids and a hashed noise of the given
// amplitude, so that ref and dist differ by a seed.
func synth(f feature.Format, seed uint32, noise int) *feature.Frame {
	return synthAt(f, seed, noise, 0)
}

// synthAt is synth with the texture moved by shift samples to the left
// and half as many up, for a moving picture.
func synthAt(f feature.Format, seed uint32, noise, shift int) *feature.Frame {
	var planes [3][]byte
	var strides [3]int
	bytes := 1
	if f.BitDepth > 8 {
		bytes = 2
	}
	peak := 1<<f.BitDepth - 1
	for i := 0; i < f.Planes(); i++ {
		w, h := f.PlaneSize(i)
		strides[i] = w*bytes + 5 // a stride wider than the row
		planes[i] = make([]byte, strides[i]*h)
		for y := range h {
			for x := range w {
				u, z := x+shift, y+shift/2
				v := float64(u*3+z*2)/float64(w+h)*100 + 60*math.Sin(float64(u)/5+float64(i)) + 40*math.Cos(float64(z)/7)
				hash := (uint32(x)*73856093 ^ uint32(y)*19349663 ^ seed*83492791) % 1024
				v += float64(int(hash%uint32(2*noise+1)) - noise)
				s := int(v+110) << (f.BitDepth - 8)
				s = min(max(s, 0), peak)
				o := y*strides[i] + x*bytes
				planes[i][o] = byte(s)
				if bytes == 2 {
					planes[i][o+1] = byte(s >> 8)
				}
			}
		}
	}
	return featuretest.NewFrame(f, planes, strides)
}

func TestOutputs(t *testing.T) {
	f := feature.Format{Width: 64, Height: 64, BitDepth: 8}
	for _, tc := range []struct{ opts, want string }{
		{"", "vif_scale0 vif_scale1 vif_scale2 vif_scale3"},
		{"vif_enhn_gain_limit=1", "vif_scale0_egl_1 vif_scale1_egl_1 vif_scale2_egl_1 vif_scale3_egl_1"},
		{"vif_prescale_method=bicubic:vif_prescale=0.5:vif_enhn_gain_limit=1.5",
			"vif_scale0_egl_1.5_ps_0.5_pm_bicubic vif_scale1_egl_1.5_ps_0.5_pm_bicubic vif_scale2_egl_1.5_ps_0.5_pm_bicubic vif_scale3_egl_1.5_ps_0.5_pm_bicubic"},
		{"vif_skip_scale0=true:debug=true", "vif_scale0_ssclz vif_scale1_ssclz vif_scale2_ssclz vif_scale3_ssclz " +
			"vif_ssclz vif_num_ssclz vif_den_ssclz vif_num_scale0_ssclz vif_den_scale0_ssclz vif_num_scale1_ssclz vif_den_scale1_ssclz " +
			"vif_num_scale2_ssclz vif_den_scale2_ssclz vif_num_scale3_ssclz vif_den_scale3_ssclz"},
		{"vif_kernelscale=1:vif_sigma_nsq=2", "vif_scale0 vif_scale1 vif_scale2 vif_scale3"},
	} {
		s, err := Kind.Parse(tc.opts)
		if err != nil {
			t.Fatalf("%q: %v", tc.opts, err)
		}
		if got := strings.Join(Kind.Outputs(f, s), " "); got != tc.want {
			t.Errorf("%q: outputs\n%s\nwant\n%s", tc.opts, got, tc.want)
		}
	}
}

func TestNewErrors(t *testing.T) {
	for _, tc := range []struct {
		w, h, depth int
		opts, want  string
	}{
		{15, 64, 8, "", "need at least 16x16"},
		{64, 15, 8, "", "need at least 16x16"},
		{1, 1, 8, "", "need at least 16x16"},
		{0, 0, 8, "", "empty picture"},
		{64, 64, 9, "", "bit depth 9"},
		{64, 64, 8, "vif_kernelscale=0.9", "vif_kernelscale=0.9 is not one of"},
		{64, 64, 8, "vif_prescale_method=area", `vif_prescale_method="area"`},
		{64, 64, 8, "vif_prescale=0.2", "13x13 after prescaling"},
		{4000, 64, 8, "vif_prescale=2:vif_prescale_method=bilinear", "at most 7680"},
		{31, 40, 8, "vif_kernelscale=2", "need at least 32x32"},
	} {
		s, err := Kind.Parse(tc.opts)
		if err != nil {
			t.Fatalf("%q: %v", tc.opts, err)
		}
		_, err = Kind.New(feature.Format{Width: tc.w, Height: tc.h, BitDepth: tc.depth}, s)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "feature float_vif: ") {
			t.Errorf("%dx%d %d-bit %q: error %v, want one containing %q", tc.w, tc.h, tc.depth, tc.opts, err, tc.want)
		}
	}
}

// TestEveryFormat runs every depth and chroma layout at sizes around the
// minimum: New refuses or Extract succeeds, and nothing panics.
func TestEveryFormat(t *testing.T) {
	for _, depth := range []int{8, 10, 12, 16} {
		for _, c := range []feature.Chroma{feature.Chroma420, feature.Chroma422, feature.Chroma444, feature.Chroma400} {
			for _, size := range [][2]int{{1, 1}, {2, 3}, {15, 16}, {16, 16}, {17, 19}, {33, 16}} {
				for _, opts := range []string{"", "vif_prescale=1.3:vif_prescale_method=lanczos4", "vif_prescale=3.7:vif_prescale_method=bicubic",
					"vif_prescale=2.5:vif_prescale_method=bilinear", "vif_prescale=1.9"} {
					f := feature.Format{Width: size[0], Height: size[1], BitDepth: depth, Chroma: c}
					s, _ := Kind.Parse(opts)
					x, err := Kind.New(f, s)
					if err != nil {
						continue
					}
					out := make([]float64, len(Kind.Outputs(f, s)))
					if err := x.Extract(0, synth(f, 1, 3), synth(f, 2, 9), out); err != nil {
						t.Errorf("%+v %q: %v", f, opts, err)
					}
					for i, v := range out {
						if math.IsNaN(v) {
							t.Errorf("%+v %q: output %d is NaN", f, opts, i)
						}
					}
					x.Close()
				}
			}
		}
	}
}

func TestLog2Approx(t *testing.T) {
	for _, x := range []float32{1, 1.5, 2, 3, 10, 1000, 1e-3, 1 + 1e-6, 65535} {
		if got, want := float64(log2Approx(x)), math.Log2(float64(x)); math.Abs(got-want) > 1e-4 {
			t.Errorf("log2Approx(%g) = %g, want %g", x, got, want)
		}
	}
	if got := log2Approx(0); !math.IsInf(float64(got), -1) {
		t.Errorf("log2Approx(0) = %g, want -Inf", got)
	}
	if got := log2Approx(-1); !math.IsNaN(float64(got)) {
		t.Errorf("log2Approx(-1) = %g, want NaN", got)
	}
	// Exact powers of two come out exact: the polynomial is zero at 1.
	if got := log2Approx(0.25); got != -2 {
		t.Errorf("log2Approx(0.25) = %g, want -2", got)
	}
}

func TestGaussian(t *testing.T) {
	for _, tc := range []struct {
		kernel float32
		sizes  [4]int
	}{
		{1, [4]int{17, 9, 5, 3}},
		{0.5, [4]int{9, 5, 3, 3}},
		{1.5, [4]int{27, 15, 9, 5}},
		{360.0 / 97, [4]int{65, 35, 19, 13}},
	} {
		for scale, size := range tc.sizes {
			g := gaussian(scale, tc.kernel)
			if len(g) != size {
				t.Errorf("kernel %g scale %d: %d taps, want %d", tc.kernel, scale, len(g), size)
			}
			var sum float64
			for i, v := range g {
				sum += float64(v)
				if v != g[len(g)-1-i] {
					t.Errorf("kernel %g scale %d: not symmetric at %d", tc.kernel, scale, i)
				}
			}
			if math.Abs(sum-1) > 1e-6 {
				t.Errorf("kernel %g scale %d: taps sum to %g", tc.kernel, scale, sum)
			}
		}
	}
}

func BenchmarkExtract1080p(b *testing.B) {
	f := feature.Format{Width: 1920, Height: 1080, BitDepth: 8, Chroma: feature.Chroma420}
	x, err := Kind.New(f, Kind.Defaults())
	if err != nil {
		b.Fatal(err)
	}
	ref, dis := synth(f, 1, 3), synth(f, 2, 9)
	out := make([]float64, 4)
	b.ReportAllocs()
	for b.Loop() {
		if err := x.Extract(0, ref, dis, out); err != nil {
			b.Fatal(err)
		}
	}
}
