package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"strings"

	"github.com/vmafsink/vmafsink/internal/y4m"
)

// checkRawSize refuses a raw file whose size is not a whole number of
// frames of the geometry given, which is what a wrong -w, -h, -p or -b
// looks like, and names the geometries that would fit. (libvmaf's tool
// scores what fits and stops at the partial frame.)
func checkRawSize(path string, f *os.File, rf y4m.Format, l y4m.Layout) error {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil // a pipe: its length is not known
	}
	size, frame := st.Size(), int64(rf.StoredFrameSize(l))
	if size%frame == 0 && size > 0 {
		return nil
	}
	msg := fmt.Sprintf("%s: %d bytes is not a whole number of %dx%d %s %d-bit frames (%d bytes each; %.2f frames)",
		path, size, rf.Width, rf.Height, rf.Chroma, rf.BitDepth, frame, float64(size)/float64(frame))
	if fits := fittingGeometries(size, rf); len(fits) > 0 {
		msg += "; check -w/-h/-p/-b: the size fits " + strings.Join(fits, ", ")
	} else {
		msg += "; check -w/-h/-p/-b, or the file is cut short"
	}
	return fmt.Errorf("%s", msg)
}

// commonSizes are the picture sizes a raw file is most likely to hold.
var commonSizes = [][2]int{
	{176, 144}, {352, 288}, {640, 360}, {640, 480}, {720, 480}, {720, 576}, {854, 480}, {960, 540},
	{1280, 720}, {1920, 1080}, {2048, 1080}, {2560, 1440}, {3840, 2160}, {4096, 2160},
}

// fittingGeometries lists the geometries near the one given (the same
// size with another sampling or depth, the width and height swapped, or
// a common size) of which size holds a whole number of frames.
func fittingGeometries(size int64, given y4m.Format) []string {
	var out []string
	seen := map[string]bool{}
	try := func(w, h, depth int, chroma string) {
		if w <= 0 || h <= 0 {
			return
		}
		f := y4m.Format{Width: w, Height: h, BitDepth: depth, Chroma: chroma}
		n := int64(f.StoredFrameSize(y4m.Padded))
		if n == 0 || size%n != 0 || len(out) >= 4 {
			return
		}
		s := fmt.Sprintf("-w %d -h %d -p %s -b %d (%d frames)", w, h, chroma, depth, size/n)
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sizes := [][2]int{{given.Width, given.Height}}
	for d := 1; d <= 16; d++ {
		sizes = append(sizes, [2]int{given.Width, given.Height + d}, [2]int{given.Width, given.Height - d},
			[2]int{given.Width + d, given.Height}, [2]int{given.Width - d, given.Height})
	}
	sizes = append(sizes, commonSizes...)
	for _, wh := range sizes {
		for _, depth := range []int{given.BitDepth, 8, 10} {
			for _, chroma := range []string{given.Chroma, "420", "422", "444"} {
				try(wh[0], wh[1], depth, chroma)
			}
		}
	}
	return out
}

// sampleRange checks that a frame's samples fit its bit depth. 8-bit
// data read with -b 10 pairs bytes into samples far above 1023, which
// would be scored as garbage: libvmaf's tool scores it (80.58 where the
// right -b 8 gives 97.89 on one encode); this tool refuses it.
func sampleRange(fr *y4m.Frame, depth, index int, name string) error {
	if depth <= 8 || depth >= 16 {
		return nil
	}
	var or uint64
	for _, p := range fr.Planes {
		n := len(p) &^ 7
		for i := 0; i < n; i += 8 {
			or |= binary.LittleEndian.Uint64(p[i:])
		}
		for i := n; i+1 < len(p); i += 2 {
			or |= uint64(binary.LittleEndian.Uint16(p[i:]))
		}
	}
	lanes := uint16(or) | uint16(or>>16) | uint16(or>>32) | uint16(or>>48)
	if max := uint16(1)<<depth - 1; lanes&^max != 0 {
		hint := "the file has more bits than it says"
		if depth == 10 || depth == 12 {
			hint = "is it 8-bit? then -b 8"
		}
		return fmt.Errorf("%s: frame %d has samples above %d, out of range for %d-bit input (%s)", name, index, max, depth, hint)
	}
	return nil
}

// sizeFix is the likely fix for inputs of different sizes.
func sizeFix(rf, df picFormat) string {
	if rf.Width == df.Height && rf.Height == df.Width {
		return "the width and height of one are swapped: a rotated encode, or -w and -h given the wrong way round"
	}
	return "use --scale-dist ALGO to scale the distorted video"
}
