//go:build amd64 && !purego

package kit

// haveKernels says this build has the vector kernels.
const haveKernels = true

// centre8 is Centre8's kernel for n samples (a multiple of 8); AVX2.
//
//go:noescape
func centre8(dst *float32, src *byte, n int)

// centre16 is Centre16's kernel for n samples (a multiple of 8), with
// scale = 1/div; AVX2.
//
//go:noescape
func centre16(dst *float32, src *uint16, scale float32, n int)
