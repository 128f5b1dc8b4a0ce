package floatadm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDivRowBounds pins what divRow promises on every CPU: the reciprocal
// estimate it starts from stays within the architectural bound of x86's
// RCPSS (relative error at most 1.5·2⁻¹²; Intel and AMD meet it with
// different tables, which is why the quotient's last bit, and a float
// model's sixth decimal, can differ by vendor), and one Newton-Raphson
// step brings n·(1/d) within three float32 ulps of the exact quotient (the step and
// the product each round in float32).
func TestDivRowBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const size = 1 << 14
	n := make([]float32, size)
	d := make([]float32, size)
	for j := range d {
		// Denominators as the decoupling step sees them: positive,
		// spanning many octaves, with every low mantissa pattern.
		d[j] = float32(math.Ldexp(1+r.Float64(), r.IntN(40)-20))
		n[j] = float32(r.NormFloat64() * 100)
	}
	q := make([]float32, size)
	divRow(q, n, d)
	for j := range q {
		want := float64(n[j]) / float64(d[j])
		ulp := math.Abs(float64(math.Nextafter32(float32(want), float32(math.Inf(1)))) - float64(float32(want)))
		if diff := math.Abs(float64(q[j]) - want); diff > 3*ulp {
			t.Fatalf("divRow(%g/%g) = %g, exact %g: off by %.2f ulp", n[j], d[j], q[j], want, diff/ulp)
		}
	}
	assertRcpBound(t, d)
}
