//go:build !amd64 || purego

package floatmotion

func hasAVX2() bool { return false }

func vblur(dst *float32, rows []*float32, f []float32, n int) {
	panic("floatmotion: no vector blur on this platform")
}

func hblur(o, e *float32, f []float32, n int) { panic("floatmotion: no vector blur on this platform") }
