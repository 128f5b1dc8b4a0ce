package vmaf

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/internal/testclips"
)

// goldenScoreFrames reads libvmaf's per-frame metrics from every golden
// score file, keyed by pair name.
func goldenScoreFrames(t *testing.T) map[string][]map[string]float64 {
	t.Helper()
	out := map[string][]map[string]float64{}
	for _, f := range testclips.Glob(goldenRoot, filepath.Join("scores", "*.vmaf.json")) {
		name := strings.TrimSuffix(filepath.Base(f), ".vmaf.json")
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var log struct {
			Frames []struct {
				Metrics map[string]float64 `json:"metrics"`
			} `json:"frames"`
		}
		if err := json.Unmarshal(data, &log); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, fr := range log.Frames {
			out[name] = append(out[name], fr.Metrics)
		}
	}
	if len(out) == 0 {
		t.Skip("no golden score files")
	}
	return out
}

// TestPredictGoldens feeds libvmaf's printed feature values to each model
// and compares with libvmaf's printed score. The inputs carry 6 decimals,
// so the scores can differ by about 1e-4 through the SVM's slopes.
func TestPredictGoldens(t *testing.T) {
	type check struct {
		metric string
		model  *Model
	}
	var checks []check
	for metric, version := range map[string]string{"vmaf": "vmaf_v0.6.1", "vmaf_neg": "vmaf_v0.6.1neg", "vmaf_4k": "vmaf_4k_v0.6.1"} {
		m, err := BuiltinModel(version)
		if err != nil {
			t.Fatal(err)
		}
		checks = append(checks, check{metric, m})
	}
	// The float model is not built in; its SVM is checked when the file is
	// at hand.
	if m, err := LoadModelFile(filepath.Join(modelsDirPath(), "vmaf_float_v0.6.1.json")); err == nil {
		checks = append(checks, check{"vmaf_float", m})
	}
	const tolerance = 1e-3
	for _, c := range checks {
		worst, worstAt, n := 0.0, "", 0
		in := make([]float64, len(c.model.FeatureNames()))
		out := make([]float64, len(c.model.metricNames()))
		for pair, frames := range goldenScoreFrames(t) {
			for i, fr := range frames {
				want, ok := fr[c.metric]
				if !ok {
					continue
				}
				for j, name := range c.model.FeatureNames() {
					if in[j], ok = fr[name]; !ok {
						t.Fatalf("%s frame %d has no %s", pair, i, name)
					}
				}
				c.model.predict(in, out)
				n++
				if d := math.Abs(out[0] - want); d > worst || worstAt == "" {
					worst, worstAt = d, fmt.Sprintf("%s frame %d", pair, i)
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: no golden frames", c.metric)
			continue
		}
		t.Logf("%s (%s): worst |Δ| %.3g over %d frames, at %s", c.metric, c.model.Version, worst, n, worstAt)
		if worst > tolerance {
			t.Errorf("%s: worst |Δ| %g at %s, above %g", c.metric, worst, worstAt, tolerance)
		}
	}
}

// publishedFrame0 are libvmaf's features for frame 0 of Netflix's golden
// pair (src01_hrc00 vs src01_hrc01), in vmaf_v0.6.1's input order.
var publishedFrame0 = []float64{0.962084, 0, 0.505712, 0.879061, 0.937873, 0.964301}

// TestPredictCollection checks vmaf_b_v0.6.3 against the outputs libvmaf
// 3.2.0 computed for publishedFrame0 (printed with 17 significant digits).
func TestPredictCollection(t *testing.T) {
	m, err := BuiltinModel("vmaf_b_v0.6.3")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{
		"vmaf":           83.171243639342322,
		"vmaf_0001":      84.154729239318101,
		"vmaf_0007":      81.137865757586567,
		"vmaf_0020":      80.481327030678514,
		"vmaf_bagging":   82.275558301093866,
		"vmaf_stddev":    2.3023558805620881,
		"vmaf_ci_p95_lo": 78.728651867773863,
		"vmaf_ci_p95_hi": 86.205578929386462,
	}
	out := make([]float64, len(m.metricNames()))
	m.predict(publishedFrame0, out)
	for i, name := range m.metricNames() {
		if w, ok := want[name]; ok {
			if d := math.Abs(out[i] - w); d > 1e-12 {
				t.Errorf("%s = %.17g, libvmaf gives %.17g", name, out[i], w)
			}
			delete(want, name)
		}
	}
	if len(want) > 0 {
		t.Errorf("metrics missing: %v", want)
	}

	plain, _ := BuiltinModel("vmaf_v0.6.1")
	one := []float64{0}
	plain.predict(publishedFrame0, one)
	if d := math.Abs(one[0] - 83.856301815339165); d > 1e-12 {
		t.Errorf("vmaf_v0.6.1 = %.17g, libvmaf gives 83.856301815339165", one[0])
	}
}

// TestPredictTiny recomputes tinyModel's prediction by hand: normalise,
// RBF kernel over the dense difference (the missing index counts as 0),
// denormalise, clip.
func TestPredictTiny(t *testing.T) {
	m, err := ParseModel([]byte(tinyModel))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range [][2]float64{{0.9, 0.2}, {0.3, 4}, {0.99, 0}} {
		x0, x1 := 1.0*f[0]+0.0, 0.5*f[1]+0.1
		k0 := math.Exp(-0.5 * ((x0-0.5)*(x0-0.5) + (x1-0.25)*(x1-0.25)))
		k1 := math.Exp(-0.5 * ((x0-0.1)*(x0-0.1) + x1*x1))
		want := ((1*k0 - 0.5*k1 + 0.5) + 0.5) / 0.01
		want = math.Max(0, math.Min(100, want))
		out := []float64{0}
		m.predict(f[:], out)
		if math.Abs(out[0]-want) > 1e-9 {
			t.Errorf("predict(%v) = %v, want %v", f, out[0], want)
		}
	}
}

func TestTransform(t *testing.T) {
	poly := transformDict{P: [3]optionalFloat{{Set: true, V: 1}, {Set: true, V: 2}, {Set: true, V: 0.5}}}
	knots := transformDict{HasKnots: true, Knots: [][2]float64{{0, 10}, {10, 10}, {20, 30}, {30, 35}}}
	for _, tc := range []struct {
		name string
		tf   transformDict
		in   float64
		want float64
	}{
		{"polynomial", poly, 2, 1 + 4 + 2},
		{"p1 only", transformDict{P: [3]optionalFloat{1: {Set: true, V: 3}}}, 2, 6},
		{"no terms", transformDict{}, 7, 7},
		{"flat first segment", knots, 5, 10},
		{"below the knots, flat", knots, -4, 10},
		{"rising segment", knots, 15, 20},
		{"shared knot takes the later segment", knots, 20, 30},
		{"above the knots, extrapolated", knots, 40, 40},
		{"single knot is identity", transformDict{HasKnots: true, Knots: [][2]float64{{1, 2}}}, 5, 5},
		{"out_gte_in", transformDict{P: [3]optionalFloat{1: {Set: true, V: 0.5}}, OutGTEIn: true}, 10, 10},
		{"out_lte_in", transformDict{P: [3]optionalFloat{1: {Set: true, V: 2}}, OutLTEIn: true}, 10, 10},
		{"out_lte_in keeps lower", transformDict{P: [3]optionalFloat{1: {Set: true, V: 0.5}}, OutLTEIn: true}, 10, 5},
	} {
		if got := tc.tf.apply(tc.in); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: apply(%g) = %g, want %g", tc.name, tc.in, got, tc.want)
		}
	}
}

func TestTransformFlags(t *testing.T) {
	// vmaf_v0.6.1 carries a score_transform that is not enabled; the spec
	// flag turns it on, and disable_clip lets the score leave [0, 100].
	in := []float64{0.999, 0.5, 0.99, 0.999, 0.999, 0.999}
	score := func(spec string) float64 {
		m, err := ParseModelSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]float64, 1)
		m.predict(in, out)
		return out[0]
	}
	raw := score("version=vmaf_v0.6.1:disable_clip")
	if plain := score("version=vmaf_v0.6.1"); plain != raw || raw >= 100 {
		t.Fatalf("scores %g and %g: want the same, below 100, for these inputs", plain, raw)
	}
	want := 1.70674692 + 1.72643844*raw + -0.00705305*raw*raw
	if want < raw {
		want = raw // out_gte_in
	}
	if want <= 100 {
		t.Fatalf("transformed score %g: want above 100 for these inputs", want)
	}
	if got := score("version=vmaf_v0.6.1:enable_transform:disable_clip"); math.Abs(got-want) > 1e-9 {
		t.Errorf("transformed %g, want %g", got, want)
	}
	if got := score("version=vmaf_v0.6.1:enable_transform"); got != 100 {
		t.Errorf("transformed and clipped %g, want 100", got)
	}
}

func TestPredictAllocs(t *testing.T) {
	for _, v := range []string{"vmaf_v0.6.1", "vmaf_b_v0.6.3"} {
		m, err := BuiltinModel(v)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]float64, len(m.metricNames()))
		if a := testing.AllocsPerRun(10, func() { m.predict(publishedFrame0, out) }); a != 0 {
			t.Errorf("%s: predict allocates %v times", v, a)
		}
	}
}

func BenchmarkPredict(b *testing.B) {
	for _, v := range []string{"vmaf_v0.6.1", "vmaf_b_v0.6.3"} {
		m, _ := BuiltinModel(v)
		out := make([]float64, len(m.metricNames()))
		b.Run(v, func(b *testing.B) {
			for b.Loop() {
				m.predict(publishedFrame0, out)
			}
		})
	}
}
