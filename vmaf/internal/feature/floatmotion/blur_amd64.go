//go:build amd64 && !purego

package floatmotion

import "github.com/vmafsink/vmafsink/vmaf/internal/cpu"

// hasAVX2 tells whether the CPU and OS run the AVX2 blur and the
// process's CPU mask allows it; instances read it when they are made.
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
