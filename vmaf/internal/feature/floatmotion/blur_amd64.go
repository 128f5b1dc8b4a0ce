//go:build amd64 && !purego

package floatmotion

import "golang.org/x/sys/cpu"

// hasAVX2 tells whether the CPU and OS run the AVX2 blur.
var hasAVX2 = cpu.X86.HasAVX2

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
