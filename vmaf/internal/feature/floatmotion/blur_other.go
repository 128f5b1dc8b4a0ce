//go:build !amd64 || purego

package floatmotion

const hasAVX2 = false

func vblur(dst *float32, rows []*float32, f []float32, n int) {
	panic("floatmotion: no vector blur on this platform")
}

func hblur(o, e *float32, f []float32, n int) { panic("floatmotion: no vector blur on this platform") }
