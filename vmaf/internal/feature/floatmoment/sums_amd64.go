//go:build amd64 && !purego

package floatmoment

import "github.com/vmafsink/vmafsink/vmaf/internal/cpu"

// hasAVX2 tells whether the CPU and OS run the AVX2 kernels and the
// process's CPU mask allows them; instances read it when they are made.
func hasAVX2() bool { return cpu.Get().AVX2 }

// sums8 is the sum of n samples (a multiple of 16, at most maxRun8) and
// of their squares.
//
//go:noescape
func sums8(p *byte, n int) (sum, sq int64)

// sums16 is sums8 for samples of up to 12 bits (n at most maxRun16).
//
//go:noescape
func sums16(p *uint16, n int) (sum, sq int64)
