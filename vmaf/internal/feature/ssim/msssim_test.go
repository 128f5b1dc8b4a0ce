package ssim

import (
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/testpic"
)

func TestFloatMSSSIMSizeLimit(t *testing.T) {
	tests := []struct {
		w, h int
		ok   bool
	}{
		{176, 176, true},
		{177, 3000, true},
		{175, 1080, false},
		{1920, 175, false},
		{16, 16, false},
	}
	for _, tc := range tests {
		s, err := newFloatMSSSIM(tc.w, tc.h, 8)
		if tc.ok && (err != nil || s == nil) {
			t.Errorf("%dx%d: %v", tc.w, tc.h, err)
		}
		if !tc.ok && (err == nil || !strings.Contains(err.Error(), "float_ms_ssim")) {
			t.Errorf("%dx%d: error %v, want a float_ms_ssim size error", tc.w, tc.h, err)
		}
	}
}

func TestFloatMSSSIMProperties(t *testing.T) {
	checkSSIMProperties(t, msssimScorer, [][2]int{{176, 176}, {203, 185}})
}

func TestFloatMSSSIMNoAllocs(t *testing.T) {
	a := testpic.Synthetic(t, 199, 181, 12, testpic.Chroma400, 2, 1)
	b := testpic.Shifted(t, a, 9, 2)
	s, err := newFloatMSSSIM(199, 181, 12)
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(5, func() { s.compute(a.Plane(0), b.Plane(0)) }); n != 0 {
		t.Fatalf("%v allocations per frame", n)
	}
}

func BenchmarkFloatMSSSIM1080p(b *testing.B) {
	r := testpic.Synthetic(b, 1920, 1080, 8, testpic.Chroma400, 0, 1)
	d := testpic.Shifted(b, r, 4, 2)
	s, err := newFloatMSSSIM(1920, 1080, 8)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s.compute(r.Plane(0), d.Plane(0))
	}
}
