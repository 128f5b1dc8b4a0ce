//go:build amd64 && !purego

package cambi

import (
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/cpu"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// TestVectorMask checks that the CPU mask, read when an instance is
// made, turns the vector kernels off.
func TestVectorMask(t *testing.T) {
	defer cpu.SetMask(cpu.Mask())
	f := feature.Format{Width: 320, Height: 240, BitDepth: 8, Chroma: feature.Chroma420}
	for _, tc := range []struct {
		mask uint64
		want bool
	}{{0, cpu.X86.AVX512}, {cpu.AVX512, false}, {cpu.SSE2, false}} {
		cpu.SetMask(tc.mask)
		x, err := Kind.New(f, Kind.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		if got := x.(*extractor).vec; got != tc.want {
			t.Errorf("mask %#x: vector kernels %v, want %v", tc.mask, got, tc.want)
		}
	}
}
