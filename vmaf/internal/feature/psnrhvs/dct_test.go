package psnrhvs

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFdct8x8 checks the integer transform against the orthonormal 2-D
// DCT-II it approximates: its lifting steps round, so each coefficient
// may be off by a few units, no more.
func TestFdct8x8(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := range 200 {
		peak := []int{255, 1023, 4095}[n%3]
		var b [64]int32
		var x [64]float64
		for k := range b {
			b[k] = int32(r.IntN(peak + 1))
			x[k] = float64(b[k])
		}
		fdct8x8(&b)
		for u := range 8 {
			for v := range 8 {
				var sum float64
				for i := range 8 {
					for j := range 8 {
						sum += x[8*i+j] * math.Cos(float64(2*i+1)*float64(u)*math.Pi/16) * math.Cos(float64(2*j+1)*float64(v)*math.Pi/16)
					}
				}
				sum *= scale(u) * scale(v)
				if d := math.Abs(float64(b[8*u+v]) - sum); d > 4 {
					t.Fatalf("block %d coefficient (%d,%d): %d, want %.2f", n, u, v, b[8*u+v], sum)
				}
			}
		}
	}
}

func scale(u int) float64 {
	if u == 0 {
		return math.Sqrt(1.0 / 8)
	}
	return math.Sqrt(2.0 / 8)
}
