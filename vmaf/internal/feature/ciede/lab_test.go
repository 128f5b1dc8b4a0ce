package ciede

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPow24 checks that pow24 gives math.Pow's values over the range of
// decoded sRGB components (including out-of-gamut ones up to 2).
func TestPow24(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 200000 {
		x := 0.03 + r.Float64()*2
		if got, want := pow24(x), math.Pow(x, 2.4); got != want {
			t.Fatalf("pow24(%v) = %v, math.Pow %v", x, got, want)
		}
	}
}
