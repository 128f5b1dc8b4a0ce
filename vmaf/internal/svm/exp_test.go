package svm

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

const bigPrec = 320

// bigExp is exp(x) to about 300 bits: the Taylor series of x/2^12, then
// squared 12 times.
func bigExp(x float64) float64 {
	const halvings = 12
	y := new(big.Float).SetPrec(bigPrec).SetFloat64(math.Ldexp(x, -halvings))
	sum := new(big.Float).SetPrec(bigPrec).SetInt64(1)
	term := new(big.Float).SetPrec(bigPrec).SetInt64(1)
	for i := int64(1); i < 60; i++ {
		term.Mul(term, y)
		term.Quo(term, new(big.Float).SetPrec(bigPrec).SetInt64(i))
		sum.Add(sum, term)
	}
	for range halvings {
		sum.Mul(sum, sum)
	}
	f, _ := sum.Float64()
	return f
}

func TestExpTable(t *testing.T) {
	// 2^(1/128) by seven square roots, then its powers.
	step := new(big.Float).SetPrec(bigPrec).SetInt64(2)
	for range 7 {
		step.Sqrt(step)
	}
	v := new(big.Float).SetPrec(bigPrec).SetInt64(1)
	for j, pair := range expTable {
		hi, _ := v.Float64()
		lo, _ := new(big.Float).SetPrec(bigPrec).Sub(v, new(big.Float).SetFloat64(hi)).Float64()
		if pair != [2]float64{hi, lo} {
			t.Errorf("expTable[%d] = %x, want %x", j, pair, [2]float64{hi, lo})
		}
		v.Mul(v, step)
	}
	// ln2 = Σ 1/(k·2^k); the constants split ln2/128 and invert it.
	ln2 := new(big.Float).SetPrec(bigPrec)
	p := new(big.Float).SetPrec(bigPrec).SetInt64(1)
	for k := int64(1); k < 340; k++ {
		p.Quo(p, new(big.Float).SetInt64(2))
		ln2.Add(ln2, new(big.Float).SetPrec(bigPrec).Quo(p, new(big.Float).SetInt64(k)))
	}
	c := new(big.Float).SetPrec(bigPrec).Quo(ln2, new(big.Float).SetInt64(128))
	hi, _ := c.Float64()
	lo, _ := c.Sub(c, new(big.Float).SetFloat64(hi)).Float64()
	inv, _ := new(big.Float).SetPrec(bigPrec).Quo(new(big.Float).SetInt64(128), ln2).Float64()
	if hi != expLn2by128Hi || lo != expLn2by128Lo || inv != expInvLn2x128 {
		t.Errorf("constants %x %x %x, want %x %x %x", expLn2by128Hi, expLn2by128Lo, expInvLn2x128, hi, lo, inv)
	}
}

// TestExpRBFRounding checks expRBF gives the correctly rounded exp over
// the kernel's range and beyond.
func TestExpRBFRounding(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	xs := []float64{0, -0.0, 1, -1, math.Ln2, -math.Ln2 / 256, 699, -699, 1e-300, -745, 710, math.Inf(-1)}
	for range 1000 {
		xs = append(xs, -rng.Float64()*3, -rng.Float64()*60, (rng.Float64()-0.5)*1400)
	}
	wrong, mathWrong := 0, 0
	for _, x := range xs {
		want := 0.0
		if !math.IsInf(x, -1) {
			want = bigExp(x)
		}
		if got := expRBF(x); got != want {
			wrong++
			t.Errorf("expRBF(%x) = %x, want %x", x, got, want)
		}
		if math.Exp(x) != want {
			mathWrong++
		}
	}
	t.Logf("%d arguments: math.Exp misrounds %d, expRBF %d", len(xs), mathWrong, wrong)
}

func BenchmarkExpRBF(b *testing.B) {
	x := -3.5
	var s float64
	for b.Loop() {
		s += expRBF(x)
	}
	_ = s
}
