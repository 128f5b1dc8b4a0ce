//go:build !amd64

package floatadm

func decoupleRow(rows *decoupleRows, egl float64) { decoupleGo(rows, 0, egl) }
