package kit

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestLog10(t *testing.T) {
	// Values from glibc's log10, which libvmaf calls; math.Log10 gives the
	// first one a bit lower.
	for _, tc := range []struct{ x, want float64 }{
		{12.378107732759576, 1.0926542582517214},
		{5286585.365853659, 6.723175249428513},
		{317130.0, 5.501237327546433},
		{248976013.04347825, 8.396157508121206},
		{713.2280355380059, 2.853228406068305},
	} {
		if got := Log10(tc.x); got != tc.want {
			t.Errorf("log10(%v) = %.17g, glibc gives %.17g", tc.x, got, tc.want)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 100000; i++ {
		x := math.Exp(rng.Float64()*80 - 20)
		got, want := Log10(x), math.Log10(x)
		if math.Abs(got-want) > 4.5e-16*math.Max(1, math.Abs(want)) {
			t.Fatalf("log10(%v) = %.17g, want %.17g", x, got, want)
		}
	}
}
