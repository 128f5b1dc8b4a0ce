//go:build !amd64

package floatadm

// divRow sets q[j] = n[j]/d[j]. libvmaf divides exactly where it is built
// without SSE2 (its x86 builds use a reciprocal estimate; see
// div_amd64.go).
func divRow(q, n, d []float32) {
	d = d[:len(q)]
	n = n[:len(q)]
	for j := range q {
		q[j] = n[j] / d[j]
	}
}
