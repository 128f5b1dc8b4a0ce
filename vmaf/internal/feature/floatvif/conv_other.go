//go:build !amd64 || purego

package floatvif

func hasAVX2() bool { return false }

func vconv5(m1, m2, xx, yy, xy *float32, ra, rb []*float32, f []float32, n int) {
	panic("floatvif: no vector filters on this platform")
}

func hconv(o, e *float32, f []float32, n int) { panic("floatvif: no vector filters on this platform") }

func statVec(mu1, mu2, xx, yy, xy, nv, dv *float32, n int, limit, inv, below float32, nsq float64) {
	panic("floatvif: no vector statistic on this platform")
}

func vconv2(m1, m2 *float32, ra, rb []*float32, f []float32, n int) {
	panic("floatvif: no vector filters on this platform")
}
