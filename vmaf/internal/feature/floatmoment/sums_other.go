//go:build !amd64 || purego

package floatmoment

func hasAVX2() bool { return false }

func sums8(p *byte, n int) (sum, sq int64) { panic("floatmoment: no vector kernels on this platform") }

func sums16(p *uint16, n int) (sum, sq int64) {
	panic("floatmoment: no vector kernels on this platform")
}
