package kit

import (
	"math/rand/v2"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/cpu"
)

// The vector conversions give the scalar loops' values at every length,
// for 8-bit and each deep bit depth's divisor.
func TestCentreVectorMatchesScalar(t *testing.T) {
	if !haveKernels || !cpu.Get().AVX2 {
		t.Skip("no AVX2 kernels in this build or on this CPU")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 41 {
		s8 := make([]byte, n)
		for i := range s8 {
			s8[i] = byte(rng.UintN(256))
		}
		vec, sc := make([]float32, n), make([]float32, n)
		Centre8(vec, s8, true)
		Centre8(sc, s8, false)
		for i := range vec {
			if vec[i] != sc[i] || sc[i] != float32(s8[i])-128 {
				t.Fatalf("Centre8 n=%d [%d]: vector %v, scalar %v", n, i, vec[i], sc[i])
			}
		}
		for _, div := range []float32{4, 16, 256} {
			s16 := make([]uint16, n)
			for i := range s16 {
				s16[i] = uint16(rng.UintN(uint(256 * div)))
			}
			Centre16(vec, s16, div, true)
			Centre16(sc, s16, div, false)
			for i := range vec {
				if vec[i] != sc[i] {
					t.Fatalf("Centre16 div=%v n=%d [%d]: vector %v, scalar %v", div, n, i, vec[i], sc[i])
				}
			}
		}
	}
}
