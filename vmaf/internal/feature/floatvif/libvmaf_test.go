package floatvif

import (
	"math"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// libvmafCase is what libvmaf 3.2.0's vmaf tool reported (6 decimals) for
// float_vif with these options on four frames of synthAt: reference
// seeds 1..4 with noise 3, distorted seeds 11..14 with noise 9, frame i
// shifted by i.
type libvmafCase struct {
	opts string
	want [][]float64
}

// libvmaf420 is an 80x56 8-bit 4:2:0 stream.
var libvmaf420 = []libvmafCase{
	{"", [][]float64{
		{0.564213, 0.971003, 0.992543, 1.000493},
		{0.571902, 0.970472, 0.989515, 0.996334},
		{0.573958, 0.970723, 0.989546, 0.993721},
		{0.559196, 0.967630, 0.988851, 0.994459},
	}},
	{"vif_kernelscale=0.5", [][]float64{
		{0.485588, 0.892845, 0.962891, 0.997237},
		{0.494545, 0.903086, 0.963688, 0.991397},
		{0.496132, 0.895099, 0.962479, 0.989053},
		{0.481778, 0.888908, 0.954892, 0.982809},
	}},
	{"vif_kernelscale=1.5", [][]float64{
		{0.607751, 0.994525, 1.000820, 1.002094},
		{0.614953, 0.990638, 0.997814, 1.000195},
		{0.618651, 0.991173, 0.997361, 0.999181},
		{0.606225, 0.991901, 0.998932, 1.000288},
	}},
	{"vif_prescale=2:vif_prescale_method=bilinear", [][]float64{
		{0.635602, 0.887698, 0.948210, 0.974268},
		{0.646080, 0.900698, 0.951848, 0.971339},
		{0.642274, 0.891917, 0.949439, 0.972633},
		{0.630149, 0.882504, 0.944283, 0.969658},
	}},
	{"vif_prescale=0.5:vif_prescale_method=bicubic", [][]float64{
		{0.722441, 0.997551, 1.001471, 1.001001},
		{0.732512, 0.993492, 0.999294, 1.000589},
		{0.733057, 0.992298, 0.997965, 0.998200},
		{0.740525, 0.996099, 0.999972, 0.998552},
	}},
	{"vif_prescale=1.5:vif_prescale_method=lanczos4", [][]float64{
		{0.548621, 0.923422, 0.972091, 0.991796},
		{0.557137, 0.932485, 0.972803, 0.987132},
		{0.558742, 0.926001, 0.971424, 0.989756},
		{0.542874, 0.919654, 0.967850, 0.985298},
	}},
	{"vif_prescale=0.7", [][]float64{
		{0.601957, 0.980720, 0.994051, 0.993370},
		{0.607926, 0.973891, 0.989945, 0.993047},
		{0.612068, 0.972907, 0.986951, 0.991139},
		{0.604374, 0.967596, 0.986936, 0.991652},
	}},
	{"vif_sigma_nsq=1:vif_scale1_min_val=0.9:vif_enhn_gain_limit=1.2", [][]float64{
		{0.510002, 0.951172, 0.984323, 0.997544},
		{0.516493, 0.950780, 0.980395, 0.991464},
		{0.518242, 0.952658, 0.982174, 0.989428},
		{0.503343, 0.947063, 0.980395, 0.989639},
	}},
	{"vif_skip_scale0=true:debug=true", [][]float64{
		{0.000000, 0.971003, 0.992543, 1.000493, 0.976760, 8430.478180, 8631.067108, 0.000000, -1.000000, 6305.511230, 6493.811035, 1665.806885, 1678.322388, 459.160065, 458.933685},
		{0.000000, 0.970472, 0.989515, 0.996334, 0.975545, 8211.100616, 8416.934906, 0.000000, -1.000000, 6147.228027, 6334.266602, 1619.510254, 1636.671143, 444.362335, 445.997162},
		{0.000000, 0.970723, 0.989546, 0.993721, 0.975604, 7969.818878, 8169.112915, 0.000000, -1.000000, 5966.422852, 6146.371582, 1574.769531, 1591.406494, 428.626495, 431.334839},
		{0.000000, 0.967630, 0.988851, 0.994459, 0.973203, 7790.535675, 8005.049286, 0.000000, -1.000000, 5820.653320, 6015.369141, 1546.889771, 1564.330811, 422.992584, 425.349335},
	}},
}

// libvmaf444 is a 48x40 10-bit 4:4:4 stream.
var libvmaf444 = []libvmafCase{
	{"", [][]float64{
		{0.561000, 0.968147, 0.990234, 0.999784},
		{0.572373, 0.969652, 0.990890, 1.000236},
		{0.569612, 0.962655, 0.985370, 0.994702},
		{0.559772, 0.963551, 0.986449, 0.993090},
	}},
	{"vif_prescale=1.25:vif_prescale_method=lanczos4", [][]float64{
		{0.568671, 0.945514, 0.979712, 0.990101},
		{0.581127, 0.950920, 0.981706, 0.990026},
		{0.577508, 0.940442, 0.976281, 0.993545},
		{0.567281, 0.943293, 0.976722, 0.985485},
	}},
}

// TestLibvmafOptions checks the options the golden logs do not cover
// (kernel scales, every prescaling method, the noise variance, floors,
// skipping scale 0, debug values) against libvmaf's values.
func TestLibvmafOptions(t *testing.T) {
	for _, stream := range []struct {
		f     feature.Format
		cases []libvmafCase
	}{
		{feature.Format{Width: 80, Height: 56, BitDepth: 8, Chroma: feature.Chroma420}, libvmaf420},
		{feature.Format{Width: 48, Height: 40, BitDepth: 10, Chroma: feature.Chroma444}, libvmaf444},
	} {
		for _, tc := range stream.cases {
			s, err := Kind.Parse(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			x, err := Kind.New(stream.f, s)
			if err != nil {
				t.Fatalf("%q: %v", tc.opts, err)
			}
			out := make([]float64, len(Kind.Outputs(stream.f, s)))
			for i, want := range tc.want {
				ref, dis := synthAt(stream.f, uint32(1+i), 3, i), synthAt(stream.f, uint32(11+i), 9, i)
				if err := x.Extract(i, ref, dis, out); err != nil {
					t.Fatal(err)
				}
				for j := range want {
					if math.Abs(out[j]-want[j]) > 1e-6 {
						t.Errorf("%d-bit %q frame %d output %d: %.6f, libvmaf %.6f", stream.f.BitDepth, tc.opts, i, j, out[j], want[j])
					}
				}
			}
		}
	}
}
