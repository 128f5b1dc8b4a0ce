//go:build amd64 && !purego

package floatpsnr

import "github.com/vmafsink/vmafsink/vmaf/internal/cpu"

// hasAVX2 tells whether the CPU and OS run the AVX2 kernels and the
// process's CPU mask allows them; instances read it when they are made.
func hasAVX2() bool { return cpu.Get().AVX2 }

// sse8 is the sum of (a[j] − b[j])² over n samples (a multiple of 16, at
// most maxRun8).
//
//go:noescape
func sse8(a, b *byte, n int) int64

// sse16 is sse8 for samples of up to 12 bits (n at most maxRun16).
//
//go:noescape
func sse16(a, b *uint16, n int) int64
