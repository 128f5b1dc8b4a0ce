package floatvif

import "github.com/vmafsink/vmafsink/vmaf/internal/feature"

// load converts a plane to float32 as libvmaf's float extractors do:
// deeper samples divided down to the 8-bit range (10-bit by 4, 12-bit by
// 16, 16-bit by 256), then centred by subtracting 128.
func load(dst plane, src feature.Plane) {
	if src.BitDepth == 8 {
		for y := range dst.h {
			d, s := dst.row(y), src.Row8(y)[:dst.w]
			for x, v := range s {
				d[x] = float32(v) - 128
			}
		}
		return
	}
	// libvmaf knows 10, 12 and 16 bits; New refuses other depths.
	div := float32(4)
	switch src.BitDepth {
	case 12:
		div = 16
	case 16:
		div = 256
	}
	for y := range dst.h {
		d, s := dst.row(y), src.Row16(y)[:dst.w]
		for x, v := range s {
			d[x] = float32(v)/div - 128
		}
	}
}
