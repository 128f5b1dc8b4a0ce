//go:build amd64 && !purego

package floatmotion

import "github.com/vmafsink/vmafsink/vmaf/internal/cpu"

// hasAVX2 tells whether the CPU and OS run the AVX2 kernels and the
// process's CPU mask allows them; instances read it when they are made.
func hasAVX2() bool { return cpu.Get().AVX2 }

// vblur is the blur's vertical pass over n columns (a multiple of 8):
// dst[j] is the sum over k of f[k]·rows[k][j].
//
//go:noescape
func vblur(dst *float32, rows []*float32, f []float32, n int)

// hblur is the horizontal pass over n outputs (a multiple of 8): o[j] is
// the sum over k of f[k]·e[j+k].
//
//go:noescape
func hblur(o, e *float32, f []float32, n int)

// vblur5 is vblur for five taps.
//
//go:noescape
func vblur5(dst *float32, rows *[5]*float32, f *[5]float32, n int)

// hblur5 is hblur for five taps.
//
//go:noescape
func hblur5(o, e *float32, f *[5]float32, n int)

// absDiff8 adds to sums[k], in column order, |a[j] − b[j]| of the first
// n columns (a multiple of 8) of the k-th of 8 rows stride samples apart
// in a and b.
//
//go:noescape
func absDiff8(a, b *float32, stride, n int, sums *[8]float32)
