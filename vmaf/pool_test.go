package vmaf

import (
	"math"
	"testing"
)

func TestPool(t *testing.T) {
	var p Pool
	for _, v := range []float64{80, 90, 100} {
		p.Add(&Result{Metrics: []Metric{{"vmaf", v}, {"psnr_y", v / 2}}})
	}
	got, ok := p.Get("vmaf")
	if !ok {
		t.Fatal("vmaf not pooled")
	}
	wantHarm := 3/(1/81.0+1/91.0+1/101.0) - 1
	tests := []struct {
		method PoolMethod
		want   float64
	}{
		{PoolMean, 90}, {PoolMin, 80}, {PoolMax, 100}, {PoolHarmonicMean, wantHarm},
	}
	for _, tc := range tests {
		if v := got.Value(tc.method); math.Abs(v-tc.want) > 1e-12 {
			t.Errorf("%v: got %v, want %v", tc.method, v, tc.want)
		}
	}
	if got.Count != 3 {
		t.Errorf("count %d, want 3", got.Count)
	}
	s := p.Summary()
	if len(s) != 2 || s[0].Name != "vmaf" || s[1].Name != "psnr_y" || s[1].Max != 50 {
		t.Errorf("summary %+v", s)
	}
	r := &Result{Metrics: []Metric{{"vmaf", 1}, {"psnr_y", 2}}}
	if n := testing.AllocsPerRun(100, func() { p.Add(r) }); n != 0 {
		t.Errorf("Add allocates %v times per call", n)
	}
}

func TestParsePoolMethod(t *testing.T) {
	for _, s := range []string{"mean", "harmonic_mean", "harmonic-mean", "min", "max"} {
		if _, err := ParsePoolMethod(s); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	if _, err := ParsePoolMethod("median"); err == nil {
		t.Error("median accepted")
	}
}
