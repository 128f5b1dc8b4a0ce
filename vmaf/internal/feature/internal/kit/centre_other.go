//go:build !amd64 || purego

package kit

const haveKernels = false

func centre8(dst *float32, src *byte, n int) { panic("kit: no vector kernels on this platform") }

func centre16(dst *float32, src *uint16, scale float32, n int) {
	panic("kit: no vector kernels on this platform")
}
