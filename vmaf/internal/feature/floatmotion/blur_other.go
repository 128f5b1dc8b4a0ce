//go:build !amd64 || purego

package floatmotion

func hasAVX2() bool { return false }

func vblur(dst *float32, rows []*float32, f []float32, n int) {
	panic("floatmotion: no vector blur on this platform")
}

func hblur(o, e *float32, f []float32, n int) { panic("floatmotion: no vector blur on this platform") }

func vblur5(dst *float32, rows *[5]*float32, f *[5]float32, n int) {
	panic("floatmotion: no vector blur on this platform")
}

func hblur5(o, e *float32, f *[5]float32, n int) {
	panic("floatmotion: no vector blur on this platform")
}

func absDiff8(a, b *float32, stride, n int, sums *[8]float32) {
	panic("floatmotion: no vector difference on this platform")
}
