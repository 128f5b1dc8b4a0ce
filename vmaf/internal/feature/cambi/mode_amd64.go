//go:build amd64 && !purego

package cambi

import "github.com/vmafsink/vmafsink/vmaf/internal/cpu"

// hasVector tells whether the process's CPU mask lets the AVX-512
// kernels run; instances read it when they are made.
func hasVector() bool { return cpu.Get().AVX512 }

// mode3x32 sets out[i] to mode3(a[i], b[i], c[i]) for i < n, n a
// multiple of 32, with AVX-512.
//
//go:noescape
func mode3x32(a, b, c, out *uint16, n int)

// modeRow is mode3 of a, b and c lane by lane into out (all of len(out)
// levels at least): 32 levels at a time with AVX-512, the rest with
// lanesMode3.
func modeRow(a, b, c, out []uint16) {
	n := len(out)
	n32 := n &^ 31
	if n32 > 0 {
		_, _, _ = a[n32-1], b[n32-1], c[n32-1]
		mode3x32(&a[0], &b[0], &c[0], &out[0], n32)
	}
	modeRowGo(a[n32:], b[n32:], c[n32:], out[n32:])
}
