//go:build amd64 && !purego

package speed

import "github.com/vmafsink/vmafsink/vmaf/internal/cpu"

// hasAVX2 tells whether the CPU and OS run the AVX2 (with FMA) kernels
// and the process's CPU mask allows them; instances read it when they
// are made.
func hasAVX2() bool { return cpu.Get().AVX2 }

// covSumAVX2 is covSum over a w×h span, with the same accumulators.
//
//go:noescape
func covSumAVX2(x, y *float64, w, h int) float64

// covSum4AVX2 is covSum of x with each of four spans at once, for
// independent chains; each sum keeps covSum's accumulators and order.
//
//go:noescape
func covSum4AVX2(x *float64, y *[4]*float64, w, h int, out *[4]float64)

// centreAVX2 sets dst[j] to float64(src[j]) − mean for n samples (a
// multiple of 4).
//
//go:noescape
func centreAVX2(dst *float64, src *float32, mean float64, n int)

// mulAVX2 is mulLD, 32 columns at a time.
//
//go:noescape
func mulAVX2(dst, x, y *float32, rows, inner, cols, ldd, ldx, ldy int)

// columnsAVX2 sets dst[j], for n columns (a multiple of 8), to the sum
// over k of f[k]·rows[k][j], the first product taken as it is and each
// next one added in order.
//
//go:noescape
func columnsAVX2(dst *float32, rows []*float32, f []float32, n int)

// columnsDiff8AVX2 is columnsAVX2 over the rows of differences
// a[k][j] − b[k][j], each exact in float32.
//
//go:noescape
func columnsDiff8AVX2(dst *float32, a, b []*byte, f []float32, n int)

// columnsDiff16AVX2 is columnsDiff8AVX2 for 16-bit samples, each
// difference multiplied by inv.
//
//go:noescape
func columnsDiff16AVX2(dst *float32, a, b []*uint16, f []float32, inv float32, n int)

// columnsConv8AVX2 is columnsAVX2 over rows of samples, each converted
// to float32 less 128.
//
//go:noescape
func columnsConv8AVX2(dst *float32, a []*byte, f []float32, n int)

// columnsConv16AVX2 is columnsConv8AVX2 for 16-bit samples, each
// multiplied by scale before 128 is taken off.
//
//go:noescape
func columnsConv16AVX2(dst *float32, a []*uint16, f []float32, scale float32, n int)

// diff8AVX2 sets dst[j] to a[j] − b[j] for n samples (a multiple of 8).
//
//go:noescape
func diff8AVX2(dst *float32, a, b *byte, n int)

// diff16AVX2 sets dst[j] to (a[j] − b[j])·scale for n samples (a
// multiple of 8).
//
//go:noescape
func diff16AVX2(dst *float32, a, b *uint16, scale float32, n int)
