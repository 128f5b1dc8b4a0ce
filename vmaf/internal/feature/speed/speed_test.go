package speed

import (
	"math"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

func TestGolden(t *testing.T) {
	featuretest.Golden(t, featuretest.Tolerance{Rel: 1e-4}, ChromaKind.Defaults(), TemporalKind.Defaults())
}

// frame is a frame of format f with every plane filled by fill(plane, x, y).
func frame(f feature.Format, fill func(p, x, y int) int) *feature.Frame {
	var planes [3][]byte
	var strides [3]int
	bytes := 1
	if f.BitDepth > 8 {
		bytes = 2
	}
	for i := 0; i < f.Planes(); i++ {
		w, h := f.PlaneSize(i)
		strides[i] = w*bytes + 7
		planes[i] = make([]byte, strides[i]*h)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				v := fill(i, x, y)
				o := y*strides[i] + x*bytes
				planes[i][o] = byte(v)
				if bytes == 2 {
					planes[i][o+1] = byte(v >> 8)
				}
			}
		}
	}
	return featuretest.NewFrame(f, planes, strides)
}

// noise is a deterministic pseudo-random texture in 0..255.
func noise(seed int) func(p, x, y int) int {
	return func(p, x, y int) int {
		h := uint32(x*73856093^y*19349663^(p+seed)*83492791) * 2654435761
		return int(h >> 24)
	}
}

func TestOutputs(t *testing.T) {
	for _, tc := range []struct {
		kind *feature.Kind
		opts string
		want string
	}{
		{ChromaKind, "", "speed_chroma_u speed_chroma_v speed_chroma_uv"},
		{ChromaKind, "speed_prescale=1.5:speed_prescale_method=bicubic",
			"speed_chroma_u_ps_1.5_psm_bicubic speed_chroma_v_ps_1.5_psm_bicubic speed_chroma_uv_ps_1.5_psm_bicubic"},
		{ChromaKind, "speed_weight_var_mode=3:speed_max_val=2:speed_kernelscale=0.5",
			"speed_chroma_u_ks_0.5_mxv_2_wvm_3 speed_chroma_v_ks_0.5_mxv_2_wvm_3 speed_chroma_uv_ks_0.5_mxv_2_wvm_3"},
		{TemporalKind, "", "speed_temporal"},
		{TemporalKind, "speed_use_ref_diff=true:speed_sigma_nn=0.5:speed_nn_floor=0.2", "speed_temporal_nnf_0.2_snn_0.5_urd"},
		{TemporalKind, "speed_prescale_method=nearest:speed_sigma_nn=0.29", "speed_temporal"},
	} {
		s, err := tc.kind.Parse(tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(tc.kind.Outputs(feature.Format{}, s), " ")
		if got != tc.want {
			t.Errorf("%s %q: %s, want %s", tc.kind.Name, tc.opts, got, tc.want)
		}
	}
}

func TestNewErrors(t *testing.T) {
	hd := feature.Format{Width: 1920, Height: 1080, BitDepth: 8, Chroma: feature.Chroma420}
	for _, tc := range []struct {
		kind *feature.Kind
		f    feature.Format
		opts string
		err  string
	}{
		{ChromaKind, feature.Format{Width: 640, Height: 480, BitDepth: 8, Chroma: feature.Chroma400}, "",
			"feature speed_chroma: the stream has no chroma planes"},
		{ChromaKind, feature.Format{Width: 158, Height: 400, BitDepth: 8, Chroma: feature.Chroma420}, "",
			"feature speed_chroma: plane 79x200 (79x200 after prescaling) is too small: SpEED needs at least 80x80"},
		{TemporalKind, feature.Format{Width: 1, Height: 1, BitDepth: 8, Chroma: feature.Chroma420}, "",
			"feature speed_temporal: plane 1x1 (1x1 after prescaling) is too small: SpEED needs at least 80x80"},
		{TemporalKind, feature.Format{Width: 100, Height: 100, BitDepth: 8, Chroma: feature.Chroma444}, "speed_prescale=0.5",
			"feature speed_temporal: plane 100x100 (50x50 after prescaling) is too small: SpEED needs at least 80x80"},
		{TemporalKind, hd, "speed_kernelscale=3.8",
			"feature speed_temporal: option speed_kernelscale=3.8: not one of the kernel scales libvmaf's filters support"},
		{ChromaKind, hd, "speed_prescale_method=area",
			`feature speed_chroma: option speed_prescale_method="area": want nearest, bilinear, bicubic or lanczos4`},
		{ChromaKind, feature.Format{Width: 1920, Height: 1080, BitDepth: 9, Chroma: feature.Chroma420}, "",
			"feature speed_chroma: bit depth 9 is not supported (8, 10, 12 or 16)"},
		{TemporalKind, hd, "speed_prescale=1.0009",
			"feature speed_temporal: option speed_prescale=1.0009 is within 1e-3 of 1 but changes the 1920x1080 plane's size; use 1"},
	} {
		s, err := tc.kind.Parse(tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if tc.kind.New != nil {
			_, err = tc.kind.New(tc.f, s)
		} else {
			_, err = tc.kind.NewSequential(tc.f, s)
		}
		if err == nil || err.Error() != tc.err {
			t.Errorf("%s %+v %q: got %v, want %s", tc.kind.Name, tc.f, tc.opts, err, tc.err)
		}
	}
}

// TestSmallest runs both kinds on the smallest pictures they accept, in
// every layout and depth, with every prescaling method. Pictures this
// small have fewer samples per block position than the covariance has
// entries, so it is singular and the scores are 0; what matters here is
// that nothing fails.
func TestSmallest(t *testing.T) {
	for _, f := range []feature.Format{
		{Width: 160, Height: 160, BitDepth: 8, Chroma: feature.Chroma420},
		{Width: 161, Height: 81, BitDepth: 10, Chroma: feature.Chroma422},
		{Width: 80, Height: 80, BitDepth: 12, Chroma: feature.Chroma444},
		{Width: 80, Height: 95, BitDepth: 16, Chroma: feature.Chroma444},
	} {
		for _, method := range []string{"nearest", "bilinear", "bicubic", "lanczos4"} {
			opts := "speed_prescale=1.25:speed_prescale_method=" + method
			ref := frame(f, noise(1))
			dis := frame(f, noise(2))
			s, _ := ChromaKind.Parse(opts)
			x, err := ChromaKind.New(f, s)
			if err != nil {
				t.Fatalf("%+v: %v", f, err)
			}
			out := make([]float64, 3)
			if err := x.Extract(0, ref, dis, out); err != nil {
				t.Fatal(err)
			}
			for _, v := range out {
				if math.IsNaN(v) || v < 0 {
					t.Errorf("%+v %s: speed_chroma %v", f, opts, out)
				}
			}
			s, _ = TemporalKind.Parse(opts)
			q, err := TemporalKind.NewSequential(f, s)
			if err != nil {
				t.Fatalf("%+v: %v", f, err)
			}
			var got []float64
			emit := func(i int, v []float64) { got = append(got, v[0]) }
			q.Push(0, ref, dis, emit)
			q.Push(1, dis, ref, emit)
			if len(got) != 2 || got[0] != 0 || math.IsNaN(got[1]) || got[1] < 0 {
				t.Errorf("%+v %s: speed_temporal %v", f, opts, got)
			}
		}
	}
}

func TestIdentical(t *testing.T) {
	// Identical pictures have identical entropies everywhere: SpEED 0.
	f := feature.Format{Width: 640, Height: 480, BitDepth: 8, Chroma: feature.Chroma420}
	a, b := frame(f, noise(3)), frame(f, noise(4))
	x, err := ChromaKind.New(f, ChromaKind.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, 3)
	x.Extract(0, a, a, out)
	if out[0] != 0 || out[1] != 0 || out[2] != 0 {
		t.Errorf("speed_chroma of a picture against itself: %v", out)
	}
	x.Extract(0, a, b, out)
	if out[0] <= 0 || out[1] <= 0 {
		t.Errorf("speed_chroma of different pictures: %v", out)
	}
}

// TestFlatPlane checks libvmaf's handling of a singular covariance: a flat
// plane on both sides gives 0, and the mean takes the other plane's score.
func TestFlatPlane(t *testing.T) {
	f := feature.Format{Width: 320, Height: 240, BitDepth: 8, Chroma: feature.Chroma444}
	flatV := func(seed int) func(p, x, y int) int {
		n := noise(seed)
		return func(p, x, y int) int {
			if p == 2 {
				return 100
			}
			return n(p, x, y)
		}
	}
	x, err := ChromaKind.New(f, ChromaKind.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, 3)
	x.Extract(0, frame(f, flatV(5)), frame(f, flatV(6)), out)
	if out[0] <= 0 || out[1] != 0 || out[2] != out[0] {
		t.Errorf("speed_chroma with flat V planes: %v, want u > 0, v 0, uv = u", out)
	}
}

func TestMaxVal(t *testing.T) {
	f := feature.Format{Width: 640, Height: 480, BitDepth: 8, Chroma: feature.Chroma420}
	s, _ := ChromaKind.Parse("speed_max_val=0.001")
	x, err := ChromaKind.New(f, s)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, 3)
	x.Extract(0, frame(f, noise(7)), frame(f, noise(8)), out)
	if out[0] != 0.001 || out[1] != 0.001 || out[2] != 0.001 {
		t.Errorf("speed_chroma clipped at 0.001: %v", out)
	}
}

func benchFormat() (feature.Format, *feature.Frame, *feature.Frame) {
	f := feature.Format{Width: 1920, Height: 1080, BitDepth: 8, Chroma: feature.Chroma420}
	return f, frame(f, noise(1)), frame(f, noise(2))
}

func BenchmarkChroma(b *testing.B) {
	f, ref, dis := benchFormat()
	x, err := ChromaKind.New(f, ChromaKind.Defaults())
	if err != nil {
		b.Fatal(err)
	}
	out := make([]float64, 3)
	b.ReportAllocs()
	for b.Loop() {
		x.Extract(0, ref, dis, out)
	}
}

func BenchmarkTemporal(b *testing.B) {
	f, ref, dis := benchFormat()
	q, err := TemporalKind.NewSequential(f, TemporalKind.Defaults())
	if err != nil {
		b.Fatal(err)
	}
	emit := func(int, []float64) {}
	q.Push(0, ref, dis, emit)
	b.ReportAllocs()
	i := 1
	for b.Loop() {
		if i%2 == 0 {
			q.Push(i, ref, dis, emit)
		} else {
			q.Push(i, dis, ref, emit)
		}
		i++
	}
}

// TestFormats makes instances for every layout and depth at sizes from
// 1×1 up: each either refuses the format with an error or computes
// finite values without failing.
func TestFormats(t *testing.T) {
	for _, depth := range []int{8, 10, 12, 16} {
		for _, c := range []feature.Chroma{feature.Chroma420, feature.Chroma422, feature.Chroma444, feature.Chroma400} {
			for _, size := range [][2]int{{1, 1}, {2, 3}, {79, 80}, {80, 80}, {161, 163}, {321, 170}} {
				f := feature.Format{Width: size[0], Height: size[1], BitDepth: depth, Chroma: c}
				ref, dis := frame(f, noise(1)), frame(f, noise(2))
				if x, err := ChromaKind.New(f, ChromaKind.Defaults()); err == nil {
					out := make([]float64, 3)
					if err := x.Extract(0, ref, dis, out); err != nil {
						t.Errorf("%+v: %v", f, err)
					}
					for _, v := range out {
						if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
							t.Errorf("%+v: speed_chroma %v", f, out)
						}
					}
				} else if !strings.HasPrefix(err.Error(), "feature speed_chroma: ") {
					t.Errorf("%+v: %v", f, err)
				}
				if q, err := TemporalKind.NewSequential(f, TemporalKind.Defaults()); err == nil {
					var got []float64
					emit := func(_ int, v []float64) { got = append(got, v[0]) }
					for i, fr := range []*feature.Frame{ref, dis, ref} {
						if err := q.Push(i, fr, fr, emit); err != nil {
							t.Errorf("%+v: %v", f, err)
						}
					}
					if err := q.Flush(emit); err != nil || len(got) != 3 {
						t.Errorf("%+v: %v, %d values", f, err, len(got))
					}
					for _, v := range got {
						if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
							t.Errorf("%+v: speed_temporal %v", f, got)
						}
					}
				} else if !strings.HasPrefix(err.Error(), "feature speed_temporal: ") {
					t.Errorf("%+v: %v", f, err)
				}
			}
		}
	}
}
