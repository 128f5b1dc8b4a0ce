package main

import (
	"fmt"
	"os"

	"github.com/vmafsink/vmafsink/internal/y4m"
)

// A raw file read with -w and -h swapped still divides into whole frames,
// so its size cannot tell. Its first picture can: read with the right
// width, each row lies under the one it continues in the picture, and
// vertically adjacent samples differ little; read with the wrong width,
// the sample below is one from far along the real row.

// swapMinGain is how many times smoother the first picture's rows must
// run into each other with width and height swapped for the warning; and
// swapMinLevels how many 8-bit luma levels apart, so that flat pictures
// (black, a test card) never warn.
const (
	swapMinGain   = 2.0
	swapMinLevels = 2.0
)

// rawSwapWarning says when a raw file's first picture looks like one of
// height×width rather than the width×height given; "" otherwise, or when
// the file cannot be read that way (a pipe, a short file).
func rawSwapWarning(path string, f *os.File, rf y4m.Format) string {
	w, h := rf.Width, rf.Height
	if w == h || f == os.Stdin {
		return ""
	}
	bps := 1
	if rf.BitDepth > 8 {
		bps = 2
	}
	luma := make([]byte, w*h*bps)
	if _, err := f.ReadAt(luma, 0); err != nil {
		return "" // shorter than a picture: the size check speaks of it
	}
	given := rowStep(luma, w, h, bps, rf.BitDepth)
	swapped := rowStep(luma, h, w, bps, rf.BitDepth)
	if given < swapMinGain*swapped || given-swapped < swapMinLevels {
		return ""
	}
	return fmt.Sprintf("%s: its first picture looks like %dx%d, not the %dx%d given (rows run on %.1f times more smoothly that way: mean luma step %.1f against %.1f); are -w and -h swapped? then -w %d -h %d",
		path, h, w, w, h, given/swapped, swapped, given, h, w)
}

// rowStep is the mean absolute difference, in 8-bit levels, between
// vertically adjacent luma samples of a w×h picture stored row by row.
func rowStep(luma []byte, w, h, bps, depth int) float64 {
	sample := func(i int) int {
		if bps == 1 {
			return int(luma[i])
		}
		return int(luma[2*i]) | int(luma[2*i+1])<<8
	}
	var sum int64
	for y := 0; y+1 < h; y++ {
		for x := 0; x < w; x++ {
			d := sample(y*w+x) - sample((y+1)*w+x)
			if d < 0 {
				d = -d
			}
			sum += int64(d)
		}
	}
	n := float64((h - 1) * w)
	if n == 0 {
		return 0
	}
	return float64(sum) / n / float64(int(1)<<max(depth-8, 0))
}
