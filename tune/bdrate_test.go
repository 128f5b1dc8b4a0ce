package tune

import (
	"errors"
	"math"
	"path/filepath"
	"testing"
)

// The curves and expected values are Netflix's public test vectors for
// calculate_bd_rate (python/test/calculate_bd_rate_test.py in
// Netflix/vmaf), the definition BDRate follows.
func loadCurve(t *testing.T, name string) []RDPoint {
	t.Helper()
	pts, err := ReadPoints(filepath.Join("testdata", "bdrate", name+".csv"))
	if err != nil {
		t.Fatal(err)
	}
	return pts
}

func mapCurve(pts []RDPoint, f func(RDPoint) RDPoint) []RDPoint {
	out := make([]RDPoint, len(pts))
	for i, p := range pts {
		out[i] = f(p)
	}
	return out
}

func TestBDRateNetflixVectors(t *testing.T) {
	a := loadCurve(t, "a")
	curves := map[string][]RDPoint{
		"identical":   a,
		"slight":      loadCurve(t, "b_slight"),
		"different":   loadCurve(t, "b_different"),
		"times1.1":    mapCurve(a, func(p RDPoint) RDPoint { return RDPoint{p.Rate * 1.1, p.Metric} }),
		"times0.9":    mapCurve(a, func(p RDPoint) RDPoint { return RDPoint{p.Rate * 0.9, p.Metric} }),
		"plus100":     mapCurve(a, func(p RDPoint) RDPoint { return RDPoint{p.Rate + 100, p.Metric} }),
		"minus10":     mapCurve(a, func(p RDPoint) RDPoint { return RDPoint{p.Rate - 10, p.Metric} }),
		"jctvc1":      loadCurve(t, "jctvc1_b"),
		"jctvc2":      loadCurve(t, "jctvc2_b"),
		"jctvc1_base": loadCurve(t, "jctvc1_a"),
		"jctvc2_base": loadCurve(t, "jctvc2_a"),
	}
	// Expected values for the whole range, then at_perc 100, 50 and 0.
	tests := []struct {
		b    string
		base string
		want [4]float64
		// tol: Netflix's own test checks the JCT-VC vectors to 4 places.
		tol float64
	}{
		{"identical", "", [4]float64{0, 0, 0, 0}, 1e-9},
		{"slight", "", [4]float64{0.000537973253591284, 0.07795646560507974, 4.613748580961641e-07, 0}, 1e-9},
		{"different", "", [4]float64{0.0828609163164793, 0.38396884941389553, 0.03800171560649668, 0.23201845983320446}, 1e-9},
		{"times1.1", "", [4]float64{0.1, 0.1, 0.1, 0.1}, 1e-9},
		{"times0.9", "", [4]float64{-0.1, -0.1, -0.1, -0.1}, 1e-9},
		{"plus100", "", [4]float64{0.8570879677536116, 0.01345166624113947, 0.7545138350290654, 2.778050266110539}, 1e-9},
		{"minus10", "", [4]float64{-0.10612811471545303, -0.0013451666241135474, -0.07545138577059218, -0.277805026611054}, 1e-9},
		{"jctvc1", "jctvc1_base", [4]float64{-0.00465215420752807, math.NaN(), math.NaN(), math.NaN()}, 1e-4},
		{"jctvc2", "jctvc2_base", [4]float64{-0.018779823450567612, math.NaN(), math.NaN(), math.NaN()}, 1e-4},
	}
	for _, tc := range tests {
		base := a
		if tc.base != "" {
			base = curves[tc.base]
		}
		for i, perc := range []*float64{nil, ptr(100.0), ptr(50.0), ptr(0.0)} {
			if math.IsNaN(tc.want[i]) {
				continue
			}
			got, err := BDRate(base, curves[tc.b], BDOptions{AtPerc: perc})
			if err != nil {
				t.Errorf("%s [%d]: %v", tc.b, i, err)
				continue
			}
			if math.Abs(got-tc.want[i]) > tc.tol {
				t.Errorf("%s [%d]: BD-rate %.17g, want %.17g (±%g)", tc.b, i, got, tc.want[i], tc.tol)
			}
		}
	}
}

func ptr[T any](v T) *T { return &v }

func TestBDRateRefusals(t *testing.T) {
	a := loadCurve(t, "a")
	jb := loadCurve(t, "jctvc1_b")
	tests := []struct {
		name string
		a, b []RDPoint
		opt  BDOptions
		want error
	}{
		{"no overlap", a, mapCurve(a, func(p RDPoint) RDPoint { return RDPoint{p.Rate, p.Metric + 100} }), BDOptions{}, ErrNoOverlap},
		{"non-monotonic score", loadCurve(t, "nonmono1_a"), jb, BDOptions{}, ErrNonMonotonic},
		{"non-monotonic rate", loadCurve(t, "nonmono2_a"), jb, BDOptions{}, ErrNonMonotonic},
		{"three points", a[:3], a, BDOptions{}, ErrNotEnoughPoints},
		{"empty", nil, a, BDOptions{}, ErrNotEnoughPoints},
		{"zero rate", append([]RDPoint{{0, 1}}, a...), a, BDOptions{}, ErrZeroRate},
		{"bounds beyond the overlap", a, a, BDOptions{MinMetric: 99.5}, ErrNoOverlap},
	}
	for _, tc := range tests {
		_, err := BDRate(tc.a, tc.b, tc.opt)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, err := BDRate(a, a, BDOptions{AtPerc: ptr(101.0)}); err == nil {
		t.Error("at_perc 101 accepted")
	}
}

// TestBDRateOptionsAgainstReference covers the options Netflix's own
// vectors leave out (the convex hull of curves with points off it, and
// metric bounds); the expected values were computed by running Netflix's
// calculate_bd_rate (python/vmaf/tools/bd_rate.py, SciPy 1.10.1) on these
// same curves.
func TestBDRateOptionsAgainstReference(t *testing.T) {
	a, b := loadCurve(t, "a"), loadCurve(t, "b_different")
	// Points under the curve, a repeat, one past the top that scores
	// less, then one that extends the hull below.
	an := append(append([]RDPoint(nil), a...), RDPoint{100, 50}, RDPoint{500, 80}, a[0], RDPoint{9000, 99}, RDPoint{30, 15})
	bn := append(append([]RDPoint(nil), b...), RDPoint{300, 70}, RDPoint{60, 30}, RDPoint{8000, 99.5})
	anBase := an[:len(an)-1]
	bnBase := bn[:len(bn)-1]
	tests := []struct {
		name string
		a, b []RDPoint
		opt  BDOptions
		want float64
	}{
		{"bounds", a, b, BDOptions{MinMetric: 50, MaxMetric: 90}, 0.06033107734051568},
		{"bounds at 30%", a, b, BDOptions{MinMetric: 50, MaxMetric: 90, AtPerc: ptr(30.0)}, 0.0345228160580584},
		{"hull of a convex curve", a, b, BDOptions{ConvexHull: true}, 0.0828609163164793},
		{"hull at 75%", a, b, BDOptions{ConvexHull: true, AtPerc: ptr(75.0)}, 0.046467905316291525},
		{"hull drops points", anBase, bnBase, BDOptions{ConvexHull: true}, 0.0828609163164793},
		{"hull at 40%", anBase, bnBase, BDOptions{ConvexHull: true, AtPerc: ptr(40.0)}, 0.05102476090562025},
		{"hull with bounds", anBase, bnBase, BDOptions{ConvexHull: true, MinMetric: 30, MaxMetric: 85}, 0.07932346449784},
		{"hull extended", an, bn, BDOptions{ConvexHull: true}, 0.47051270146928803},
		{"hull extended at 90%", an, bn, BDOptions{ConvexHull: true, AtPerc: ptr(90.0)}, 4.370409678284786},
	}
	for _, tc := range tests {
		got, err := BDRate(tc.a, tc.b, tc.opt)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: %.17g, want %.17g", tc.name, got, tc.want)
		}
	}
	if _, err := BDRate(anBase, bnBase, BDOptions{}); !errors.Is(err, ErrNonMonotonic) {
		t.Errorf("without the hull: %v, want ErrNonMonotonic", err)
	}
}
