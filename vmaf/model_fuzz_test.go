package vmaf

import (
	"math"
	"testing"
)

// FuzzParseModel checks that no input makes the parser panic, and that
// every model it accepts can predict: outputs of the promised length,
// clipped where the model clips. Seeds: testdata/fuzz/FuzzParseModel.
func FuzzParseModel(f *testing.F) {
	f.Add([]byte(tinyModel))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseModel(data)
		if err != nil {
			if m != nil {
				t.Fatal("a model and an error")
			}
			return
		}
		names := m.metricNames()
		if len(names) == 0 || names[0] != "vmaf" {
			t.Fatalf("metricNames = %v", names)
		}
		if m.IsCollection() != (len(names) > 1) {
			t.Fatalf("IsCollection %v with metrics %v", m.IsCollection(), names)
		}
		_, _ = m.featureSpecs()
		in := make([]float64, len(m.FeatureNames()))
		for i := range in {
			in[i] = 0.5 + float64(i)/10
		}
		out := make([]float64, len(names))
		m.predict(in, out)
		if s := m.main; s.clip && !math.IsNaN(out[0]) && (out[0] < s.clipMin || out[0] > s.clipMax) {
			t.Fatalf("score %g outside the clip [%g, %g]", out[0], s.clipMin, s.clipMax)
		}
	})
}
