package ciede

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestPow7 checks pow7 against x⁷ computed exactly and rounded once.
func TestPow7(t *testing.T) {
	xs := []float32{0, 1, 25, 0.1, 1e-3, 3.14159, 47.123456, 127.99, 180.5, 1e-20, 1e5}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		// Chromas of CIELAB colours lie in 0..~200.
		xs = append(xs, r.Float32()*200)
	}
	for _, x := range xs {
		exact := new(big.Float).SetPrec(0).SetFloat64(float64(x))
		p := new(big.Float).SetPrec(1000).SetInt64(1)
		for range 7 {
			p.Mul(p, exact)
		}
		want, _ := p.Float64()
		if got := pow7(x); got != want {
			t.Errorf("pow7(%v) = %v, want %v", x, got, want)
		}
	}
	if got := pow7(25); got != math.Pow(25, 7) {
		t.Errorf("pow7(25) = %v", got)
	}
}
