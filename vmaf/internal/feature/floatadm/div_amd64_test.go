package floatadm

import (
	"math"
	"testing"
)

func assertRcpBound(t *testing.T, d []float32) {
	t.Helper()
	e := make([]float32, len(d))
	rcpEstimates(e, d)
	for j := range d {
		rel := math.Abs(float64(e[j])*float64(d[j]) - 1)
		if rel > 1.5/4096 {
			t.Fatalf("RCPSS(%g) = %g: relative error %g over 1.5·2⁻¹²", d[j], e[j], rel)
		}
	}
}
