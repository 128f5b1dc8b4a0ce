//go:build !amd64 || purego

package speed

func hasAVX2() bool { return false }

const noVector = "speed: no vector kernels on this platform"

func covSumAVX2(x, y *float64, w, h int) float64 { panic(noVector) }
func covSum4AVX2(x *float64, y *[4]*float64, w, h int, out *[4]float64) {
	panic(noVector)
}
func centreAVX2(dst *float64, src *float32, mean float64, n int)       { panic(noVector) }
func mulAVX2(dst, x, y *float32, rows, inner, cols, ldd, ldx, ldy int) { panic(noVector) }
func columnsAVX2(dst *float32, rows []*float32, f []float32, n int)    { panic(noVector) }
func columnsDiff8AVX2(dst *float32, a, b []*byte, f []float32, n int)  { panic(noVector) }
func columnsDiff16AVX2(dst *float32, a, b []*uint16, f []float32, inv float32, n int) {
	panic(noVector)
}
func columnsConv8AVX2(dst *float32, a []*byte, f []float32, n int) { panic(noVector) }
func columnsConv16AVX2(dst *float32, a []*uint16, f []float32, scale float32, n int) {
	panic(noVector)
}
func diff8AVX2(dst *float32, a, b *byte, n int)                   { panic(noVector) }
func diff16AVX2(dst *float32, a, b *uint16, scale float32, n int) { panic(noVector) }
