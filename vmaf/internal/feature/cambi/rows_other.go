//go:build !amd64 || purego

package cambi

func antiDitherPrefix(r0, r1 []uint16) int                                     { return 0 }
func flatPrefix(row, below []uint16, out []uint8) int                          { return 0 }
func slideColsPrefix(cols []int32, add, sub []uint8) int                       { return 0 }
func boxInterior(cols []int32, out []uint8, limit int32) int                   { return 0 }
func levelRowsPrefix(img []uint16, mask []uint8, out []int16, cfg *config) int { return 0 }

func evensPrefix16(dst, src []uint16) int       { return 0 }
func evensPrefix8(dst, src []uint8) int         { return 0 }
func widenPrefix(dst []uint16, src []uint8) int { return 0 }

func cRowPrefix(hist []uint16, rows []int16, img []uint16, best, pos []float32, cfg *config) (n, k int) {
	return 0, 0
}

func skipUnchanged(add, sub []int16, from int, addLevel, subLevel int16) int { return from }
