//go:build !amd64 || purego

package floatpsnr

func hasAVX2() bool { return false }

func sse8(a, b *byte, n int) int64 { panic("floatpsnr: no vector kernels on this platform") }

func sse16(a, b *uint16, n int) int64 { panic("floatpsnr: no vector kernels on this platform") }
