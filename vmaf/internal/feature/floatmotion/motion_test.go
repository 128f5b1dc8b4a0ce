package floatmotion

import (
	"math"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

// synthAt is a frame of the format whose planes hold a deterministic
// texture (a gradient, a few sinusoids, a hashed noise of the given
// amplitude) moved by shift samples to the left and half as many up.
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

// libvmafCase is what libvmaf 3.2.0's vmaf tool reported (6 decimals) for
// float_motion with these options on four frames of synthAt: reference
// seeds 1..4 with noise 3, frame i shifted by i.
type libvmafCase struct {
	opts string
	want [][]float64
}

// libvmaf420 is an 80x56 8-bit 4:2:0 stream.
var libvmaf420 = []libvmafCase{
	{"", [][]float64{
		{0.000000, 0.000000, 4.203411},
		{4.203411, 4.203411, 4.203411},
		{4.264052, 3.842114, 3.842114},
		{3.842114, 3.842114, 3.842114},
	}},
	{"debug=false", [][]float64{
		{0.000000, 4.203411},
		{4.203411, 4.203411},
		{3.842114, 3.842114},
		{3.842114, 3.842114},
	}},
	{"motion_filter_size=3", [][]float64{
		{0.000000, 0.000000, 4.266100},
		{4.266100, 4.266100, 4.266100},
		{4.333552, 3.915373, 3.915373},
		{3.915373, 3.915373, 3.915373},
	}},
	{"motion_filter_size=1", [][]float64{
		{0.000000, 0.000000, 4.374777},
		{4.374777, 4.374777, 4.374777},
		{4.471205, 4.019420, 4.019420},
		{4.019420, 4.019420, 4.019420},
	}},
	{"motion_add_scale1=true", [][]float64{
		{0.000000, 0.000000, 8.382297},
		{8.382297, 8.382297, 8.382297},
		{8.504410, 7.661849, 7.661849},
		{7.661849, 7.661849, 7.661849},
	}},
	{"motion_add_uv=true", [][]float64{
		{0.000000, 0.000000, 13.006762},
		{13.006762, 13.006762, 13.006762},
		{13.013567, 12.027580, 12.027580},
		{12.027580, 12.027580, 12.027580},
	}},
	{"motion_fps_weight=2:motion_blend_factor=0.5:motion_blend_offset=3", [][]float64{
		{0.000000, 0.000000, 5.703411},
		{8.406822, 8.406822, 5.703411},
		{8.528104, 7.684227, 5.342114},
		{7.684227, 7.684227, 5.342114},
	}},
	{"motion_max_val=2", [][]float64{
		{0.000000, 0.000000, 2.000000},
		{2.000000, 2.000000, 2.000000},
		{2.000000, 2.000000, 2.000000},
		{2.000000, 2.000000, 2.000000},
	}},
	{"motion_force_zero=true", [][]float64{
		{0.000000, 0.000000, 0.000000},
		{0.000000, 0.000000, 0.000000},
		{0.000000, 0.000000, 0.000000},
		{0.000000, 0.000000, 0.000000},
	}},
}

// libvmaf444 is a 48x40 10-bit 4:4:4 stream.
var libvmaf444 = []libvmafCase{
	{"", [][]float64{
		{0.000000, 0.000000, 4.761236},
		{4.761236, 4.761236, 4.761236},
		{4.886493, 4.025861, 4.025861},
		{4.025861, 4.025861, 4.025861},
	}},
	{"motion_add_uv=true:motion_add_scale1=true", [][]float64{
		{0.000000, 0.000000, 26.998303},
		{26.998303, 26.998303, 26.998303},
		{28.393268, 24.923358, 24.923358},
		{24.923358, 24.923358, 24.923358},
	}},
	{"motion_add_uv=true:motion_filter_size=3", [][]float64{
		{0.000000, 0.000000, 13.744746},
		{13.744746, 13.744746, 13.744746},
		{14.495423, 12.736418, 12.736418},
		{12.736418, 12.736418, 12.736418},
	}},
}

// run pushes the frames through an instance and returns what it emitted,
// checking that every frame comes out once, in order.
func run(t *testing.T, f feature.Format, s feature.Settings, frames []*feature.Frame) [][]float64 {
	t.Helper()
	x, err := Kind.NewSequential(f, s)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var got [][]float64
	emit := func(index int, out []float64) {
		if index != len(got) {
			t.Fatalf("emitted frame %d, want %d", index, len(got))
		}
		got = append(got, append([]float64(nil), out...))
	}
	for i, fr := range frames {
		if err := x.Push(i, fr, fr, emit); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.Flush(emit); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(frames) {
		t.Fatalf("emitted %d frames of %d", len(got), len(frames))
	}
	return got
}

// TestLibvmafOptions checks every option against libvmaf's values.
func TestLibvmafOptions(t *testing.T) {
	for _, stream := range []struct {
		f     feature.Format
		cases []libvmafCase
	}{
		{feature.Format{Width: 80, Height: 56, BitDepth: 8, Chroma: feature.Chroma420}, libvmaf420},
		{feature.Format{Width: 48, Height: 40, BitDepth: 10, Chroma: feature.Chroma444}, libvmaf444},
	} {
		var frames []*feature.Frame
		for i := range 4 {
			frames = append(frames, synthAt(stream.f, uint32(1+i), 3, i))
		}
		for _, tc := range stream.cases {
			s, err := Kind.Parse(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			got := run(t, stream.f, s, frames)
			// The tables hold motion, motion2, motion3; the
			// extractor writes motion2 first, as libvmaf's does.
			for _, row := range got {
				if len(row) == 3 {
					row[outMotion2], row[outMotion] = row[outMotion], row[outMotion2]
				}
			}
			for i, want := range tc.want {
				for j := range want {
					if math.Abs(got[i][j]-want[j]) > 1e-6 {
						t.Errorf("%d-bit %q frame %d output %d: %.6f, libvmaf %.6f", stream.f.BitDepth, tc.opts, i, j, got[i][j], want[j])
					}
				}
			}
		}
	}
}

// TestShortStreams checks the first frame's values in streams of one to
// three frames: libvmaf gives a lone frame a motion3 of 0 and otherwise
// blends the second frame's motion into the first's motion3.
func TestShortStreams(t *testing.T) {
	f := feature.Format{Width: 80, Height: 56, BitDepth: 8, Chroma: feature.Chroma420}
	var frames []*feature.Frame
	for i := range 3 {
		frames = append(frames, synthAt(f, uint32(1+i), 3, i))
	}
	full := libvmaf420[0].want
	for n := 1; n <= 3; n++ {
		got := run(t, f, Kind.Defaults(), frames[:n])
		if n == 1 {
			if got[0][2] != 0 {
				t.Errorf("one frame: motion3 %g, want 0", got[0][2])
			}
			continue
		}
		// Every frame but the last has all it needs, as in the longer stream.
		for i := range n - 1 {
			for j := range got[i] {
				if math.Abs(got[i][j]-full[i][j]) > 1e-6 {
					t.Errorf("%d frames: frame %d output %d: %.6f, want %.6f", n, i, j, got[i][j], full[i][j])
				}
			}
		}
		// The last frame's motion2 is its own motion.
		last := got[n-1]
		if last[1] != last[0] || last[2] != last[0] {
			t.Errorf("%d frames: last frame %v, want motion2 and motion3 equal to motion", n, last)
		}
	}
}

func TestOutputs(t *testing.T) {
	f := feature.Format{Width: 64, Height: 64, BitDepth: 8}
	for _, tc := range []struct{ opts, want string }{
		{"", "motion2 motion motion3"},
		{"debug=false", "motion2 motion3"},
		{"motion_force_zero=true", "motion2_force_0 motion_force_0 motion3_force_0"},
		{"motion_filter_size=3:motion_add_uv=true", "motion2_mau_mfs_3 motion_mau_mfs_3 motion3_mau_mfs_3"},
		{"motion_max_val=2.5:motion_fps_weight=2:debug=false", "motion2_mfw_2_mmxv_2.5 motion3_mfw_2_mmxv_2.5"},
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
	for _, tc := range []struct {
		f          feature.Format
		opts, want string
	}{
		{feature.Format{Width: 2, Height: 64, BitDepth: 8}, "", "needs at least 3x3"},
		{feature.Format{Width: 1, Height: 1, BitDepth: 8}, "motion_filter_size=3", "needs at least 2x2"},
		{feature.Format{Width: 64, Height: 64, BitDepth: 9}, "", "bit depth 9"},
		{feature.Format{Width: 64, Height: 64, BitDepth: 8, Chroma: feature.Chroma400}, "motion_add_uv=true", "needs chroma planes"},
		{feature.Format{Width: 4, Height: 64, BitDepth: 8, Chroma: feature.Chroma420}, "motion_add_uv=true", "plane 1 is 2x32"},
		{feature.Format{Width: 64, Height: 64, BitDepth: 8, Chroma: feature.Chroma422}, "motion_add_uv=true:motion_add_scale1=true", "not supported for subsampled chroma"},
		{feature.Format{Width: 16000, Height: 64, BitDepth: 8}, "motion_add_scale1=true", "at most 7680"},
	} {
		s, err := Kind.Parse(tc.opts)
		if err != nil {
			t.Fatalf("%q: %v", tc.opts, err)
		}
		_, err = Kind.NewSequential(tc.f, s)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "feature float_motion: ") {
			t.Errorf("%+v %q: error %v, want one containing %q", tc.f, tc.opts, err, tc.want)
		}
	}
}

// TestEveryFormat runs every depth and chroma layout at sizes around the
// minimum: New refuses or every frame comes out, and nothing panics.
func TestEveryFormat(t *testing.T) {
	for _, depth := range []int{8, 10, 12, 16} {
		for _, c := range []feature.Chroma{feature.Chroma420, feature.Chroma422, feature.Chroma444, feature.Chroma400} {
			for _, size := range [][2]int{{1, 1}, {2, 3}, {3, 3}, {5, 4}, {7, 9}, {33, 16}} {
				for _, opts := range []string{"", "motion_add_uv=true", "motion_add_scale1=true", "motion_add_uv=true:motion_add_scale1=true",
					"motion_filter_size=3", "motion_force_zero=true"} {
					f := feature.Format{Width: size[0], Height: size[1], BitDepth: depth, Chroma: c}
					s, _ := Kind.Parse(opts)
					if _, err := Kind.NewSequential(f, s); err != nil {
						continue
					}
					frames := []*feature.Frame{synthAt(f, 1, 3, 0), synthAt(f, 2, 3, 1), synthAt(f, 3, 3, 2)}
					for _, out := range run(t, f, s, frames) {
						for i, v := range out {
							if math.IsNaN(v) {
								t.Errorf("%+v %q: output %d is NaN", f, opts, i)
							}
						}
					}
				}
			}
		}
	}
}

func BenchmarkPush1080p(b *testing.B) {
	f := feature.Format{Width: 1920, Height: 1080, BitDepth: 8, Chroma: feature.Chroma420}
	x, err := Kind.NewSequential(f, Kind.Defaults())
	if err != nil {
		b.Fatal(err)
	}
	frames := []*feature.Frame{synthAt(f, 1, 3, 0), synthAt(f, 2, 3, 1)}
	emit := func(int, []float64) {}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := x.Push(i, frames[i%2], frames[i%2], emit); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
