//go:build !amd64 || purego

package cambi

func hasVector() bool { return false }

func modeRow(a, b, c, out []uint16) { modeRowGo(a, b, c, out) }
