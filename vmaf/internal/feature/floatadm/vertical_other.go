//go:build !amd64

package floatadm

func hasSSE2() bool { return false }

func vertical(lo, hi, r0, r1, r2, r3 []float32) { verticalGo(lo, hi, r0, r1, r2, r3, 0) }

func horizontal(src, lo, hi []float32, end int) { horizontalGo(src, lo, hi, 1, end) }
