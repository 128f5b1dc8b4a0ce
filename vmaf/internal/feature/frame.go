package feature

import "unsafe"

// Chroma is a frame's chroma subsampling, with the values of vmaf.Chroma.
type Chroma int

const (
	Chroma420 Chroma = iota
	Chroma422
	Chroma444
	Chroma400
)

// Format is what every frame of a stream shares.
type Format struct {
	Width, Height int
	BitDepth      int // 8, 10, 12 or 16
	Chroma        Chroma
}

// PlaneSize is the width and height in samples of plane i (0 luma, 1 Cb,
// 2 Cr); 0, 0 for a chroma plane of a luma-only stream.
func (f Format) PlaneSize(i int) (w, h int) {
	if i == 0 {
		return f.Width, f.Height
	}
	switch f.Chroma {
	case Chroma420:
		return (f.Width + 1) / 2, (f.Height + 1) / 2
	case Chroma422:
		return (f.Width + 1) / 2, f.Height
	case Chroma444:
		return f.Width, f.Height
	}
	return 0, 0
}

// Planes is how many planes a frame of the format has: 1 or 3.
func (f Format) Planes() int {
	if f.Chroma == Chroma400 {
		return 1
	}
	return 3
}

// Plane is a read-only view of one plane. Samples deeper than 8 bits are
// little-endian 16-bit words.
type Plane struct {
	Data     []byte // first sample at Data[0]
	Stride   int    // bytes from one row to the next
	W, H     int    // samples
	BitDepth int
}

// Row8 is row y of an 8-bit plane.
func (p Plane) Row8(y int) []byte {
	o := y * p.Stride
	return p.Data[o : o+p.W]
}

// Row16 is row y of a plane deeper than 8 bits, as words in the
// machine's order, which is little-endian on every platform the engine
// is built for.
func (p Plane) Row16(y int) []uint16 {
	o := y * p.Stride
	b := p.Data[o : o+2*p.W]
	return unsafe.Slice((*uint16)(unsafe.Pointer(unsafe.SliceData(b))), p.W)
}

// At is sample (x, y) as an integer, whatever the depth. It is for the
// portable reference paths and tests, not for kernels.
func (p Plane) At(x, y int) int {
	if p.BitDepth == 8 {
		return int(p.Data[y*p.Stride+x])
	}
	o := y*p.Stride + 2*x
	return int(p.Data[o]) | int(p.Data[o+1])<<8
}

// Frame is one picture of a pair, viewed plane by plane. It is valid only
// during the call it is passed to.
type Frame struct {
	Format
	Planes [3]Plane // Planes[1] and [2] are zero for Chroma400
}
