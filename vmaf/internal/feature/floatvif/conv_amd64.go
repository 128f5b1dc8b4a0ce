//go:build amd64 && !purego

package floatvif

import "github.com/vmafsink/vmafsink/vmaf/internal/cpu"

// hasAVX2 tells whether the CPU and OS run the AVX2 filters and the
// process's CPU mask allows them; instances read it when they are made.
func hasAVX2() bool { return cpu.Get().AVX2 }

// vconv5 is the vertical pass of vertical5 over n columns (a multiple of
// 8), ra[k] and rb[k] pointing at the k-th tap's rows of ref and dis.
//
//go:noescape
func vconv5(m1, m2, xx, yy, xy *float32, ra, rb []*float32, f []float32, n int)

// hconv is the horizontal pass over n outputs (a multiple of 8): o[j] is
// the sum over k of f[k]·e[j+k].
//
//go:noescape
func hconv(o, e *float32, f []float32, n int)

// statVec is statistic.row's per-sample terms for n samples (a multiple
// of 8), into nv and dv; below is the float32 threshold equivalent to
// comparing a variance, widened, with nsq.
//
//go:noescape
func statVec(mu1, mu2, xx, yy, xy, nv, dv *float32, n int, limit, inv, below float32, nsq float64)

// vconv2 is vconv5 for the means alone.
//
//go:noescape
func vconv2(m1, m2 *float32, ra, rb []*float32, f []float32, n int)
