package ciede

import "github.com/vmafsink/vmafsink/vmaf/internal/feature"

// chromaPicker gives, for each luma row, the Cb and Cr sample libvmaf's
// ciede pairs with each luma sample.
//
// For subsampled input libvmaf walks its own chroma buffers, which hold
// W>>1 samples a row (the odd column of odd widths is dropped) in rows 32
// samples aligned and zero padded, Cb's buffer directly followed by
// Cr's. Luma row i takes chroma row i/2 for both 4:2:0 and 4:2:2; along
// the row, 4:2:0 takes sample j/2 while 4:2:2 takes sample j, so that a
// 4:2:2 row runs on through the padding into the following chroma rows.
// The picker reproduces those reads over a view of the frame's planes as
// that buffer: reads past Cb's buffer land in Cr's, and reads past Cr's
// give 0. Those last happen only at odd 4:2:0 heights (the last luma
// row) and at 4:2:2 heights below 4, where libvmaf reads past the memory
// of its picture: there it finds zeros when the picture is large enough
// for the C library to map it on its own (over 128 KB with glibc), and
// whatever the heap holds otherwise, which no one can reproduce.
type chromaPicker struct {
	chroma feature.Chroma
	w      int // luma width
	cw, ch int // samples and rows of libvmaf's chroma planes
	pitch  int // samples from one of libvmaf's chroma rows to the next
	planes [2]feature.Plane
	flat   []int32 // consecutive samples of the buffer, for one row
}

func newChromaPicker(f feature.Format) chromaPicker {
	c := chromaPicker{chroma: f.Chroma, w: f.Width}
	switch f.Chroma {
	case feature.Chroma420:
		c.cw, c.ch = f.Width>>1, f.Height>>1
		c.flat = make([]int32, (f.Width+1)/2)
	case feature.Chroma422:
		c.cw, c.ch = f.Width>>1, f.Height
		c.flat = make([]int32, f.Width)
	default:
		c.cw, c.ch = f.Width, f.Height
	}
	c.pitch = (c.cw + 31) &^ 31
	return c
}

func (c *chromaPicker) reset(f *feature.Frame) {
	c.planes[0], c.planes[1] = f.Planes[1], f.Planes[2]
}

// row fills u and v (luma width) with the chroma of luma row i.
func (c *chromaPicker) row(i int, u, v []int32) {
	switch c.chroma {
	case feature.Chroma444:
		readLuma(c.planes[0], i, u)
		readLuma(c.planes[1], i, v)
	case feature.Chroma422:
		c.read(0, (i/2)*c.pitch, u)
		c.read(1, (i/2)*c.pitch, v)
	default:
		for p, dst := range [2][]int32{u, v} {
			c.read(p, (i/2)*c.pitch, c.flat)
			for j := range dst {
				dst[j] = c.flat[j>>1]
			}
		}
	}
}

// read copies len(dst) consecutive samples of chroma buffer p (0 Cb, 1
// Cr) from flat position k, with libvmaf's layout.
func (c *chromaPicker) read(p, k int, dst []int32) {
	if c.pitch == 0 {
		// No chroma columns at all (width 1): nothing libvmaf owns.
		clear(dst)
		return
	}
	r, col := k/c.pitch, k%c.pitch
	for t := 0; t < len(dst); {
		if r >= c.ch {
			if p == 1 {
				clear(dst[t:])
				return
			}
			p, r = 1, r-c.ch
			continue
		}
		if col < c.cw {
			n := min(c.cw-col, len(dst)-t)
			copySamples(c.planes[p], r, col, dst[t:t+n])
			t, col = t+n, col+n
		} else {
			n := min(c.pitch-col, len(dst)-t)
			clear(dst[t : t+n])
			t, col = t+n, col+n
		}
		if col == c.pitch {
			r, col = r+1, 0
		}
	}
}

// copySamples copies len(dst) samples of row y of p from column x.
func copySamples(p feature.Plane, y, x int, dst []int32) {
	if p.BitDepth == 8 {
		for j, s := range p.Row8(y)[x : x+len(dst)] {
			dst[j] = int32(s)
		}
		return
	}
	for j, s := range p.Row16(y)[x : x+len(dst)] {
		dst[j] = int32(s)
	}
}
