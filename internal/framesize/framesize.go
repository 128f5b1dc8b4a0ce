// Package framesize bounds the size of a video frame an input may claim,
// so that a reader refuses a header (a y4m's, a raw input's options, a
// decoder's parameters) before it allocates a frame of that size: a 12
// KiB file whose header says 32768x32768 must not cost gigabytes.
package framesize

import "fmt"

// Bounds on a frame: each side at most MaxSide pixels, and at most
// MaxPixels in all, which 8K UHD (7680x4320, 33 Mpixels) is well within.
const (
	MaxSide   = 16384
	MaxPixels = 1 << 26 // 8192x8192
)

// Check says why a frame of width x height is refused, or returns nil.
func Check(width, height int) error {
	switch {
	case width <= 0 || height <= 0:
		return fmt.Errorf("frame size %dx%d is not positive", width, height)
	case width > MaxSide || height > MaxSide:
		return fmt.Errorf("frame size %dx%d: a side is at most %d pixels", width, height, MaxSide)
	case width*height > MaxPixels:
		return fmt.Errorf("frame size %dx%d: %d pixels; a frame has at most %d (8192x8192)", width, height, width*height, MaxPixels)
	}
	return nil
}
