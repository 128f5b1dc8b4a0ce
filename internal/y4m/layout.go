package y4m

import (
	"bufio"
	"bytes"
)

// Layout is how a stream stores the chroma planes of a subsampled picture
// whose width (or, for 4:2:0, height) is odd. Frames are always delivered
// with Padded planes; the layout only says what the stream holds.
type Layout int

const (
	// Padded chroma planes round their size up, ⌈W/2⌉ samples a row, as
	// the YUV4MPEG2 convention and FFmpeg have it.
	Padded Layout = iota
	// Truncated chroma planes round their size down, W>>1 samples a row:
	// libvmaf's pictures, and what its vmaf tool reads from raw and y4m
	// files. Read into a Padded frame, the missing last column (and row)
	// repeats its neighbour.
	Truncated
)

func (l Layout) String() string {
	if l == Truncated {
		return "truncated"
	}
	return "padded"
}

// StoredPlaneSize returns the width and height in samples of plane i as a
// stream in layout l stores it.
func (f Format) StoredPlaneSize(i int, l Layout) (w, h int) {
	w, h = f.PlaneSize(i)
	if i == 0 || l != Truncated {
		return w, h
	}
	switch f.Chroma {
	case "420":
		return f.Width >> 1, f.Height >> 1
	case "422":
		return f.Width >> 1, f.Height
	}
	return w, h
}

// StoredFrameSize is the size in bytes of one frame's samples in layout l.
func (f Format) StoredFrameSize(l Layout) int {
	n := 0
	for i := 0; i < f.NumPlanes(); i++ {
		w, h := f.StoredPlaneSize(i, l)
		n += w * h * f.BytesPerSample()
	}
	return n
}

// layoutsDiffer reports whether Padded and Truncated frames of f differ.
func (f Format) layoutsDiffer() bool {
	return f.StoredFrameSize(Padded) != f.StoredFrameSize(Truncated)
}

// padPlane fills the samples a Truncated stream leaves out of chroma plane
// i of fr, the last column and row, by repeating their neighbours, so the
// frame is a complete Padded picture.
func (f Format) padPlane(fr *Frame, i int) {
	pw, ph := f.PlaneSize(i)
	sw, sh := f.StoredPlaneSize(i, Truncated)
	if sw == 0 || sh == 0 {
		return // nothing stored to repeat (a 1-sample-wide picture)
	}
	bps := f.BytesPerSample()
	stride := fr.Strides[i]
	plane := fr.Planes[i]
	if pw > sw {
		for y := 0; y < sh; y++ {
			row := plane[y*stride:]
			copy(row[sw*bps:pw*bps], row[(sw-1)*bps:sw*bps])
		}
	}
	if ph > sh {
		copy(plane[sh*stride:sh*stride+pw*bps], plane[(sh-1)*stride:(sh-1)*stride+pw*bps])
	}
}

// maxFrameHeader bounds a y4m FRAME line with its parameters.
const maxFrameHeader = 128

// detectLayout decides, before the first frame is read, which layout an
// odd-sized y4m stream uses: the one after whose first frame the stream
// ends or the next FRAME marker starts. Padded is assumed when neither
// fits, and then reading fails where the framing breaks.
func (r *Reader) detectLayout() {
	padded := r.format.StoredFrameSize(Padded)
	truncated := r.format.StoredFrameSize(Truncated)
	need := maxFrameHeader + padded + len("FRAME")
	if r.r.Size() < need {
		r.r = bufio.NewReaderSize(r.r, need)
	}
	b, _ := r.r.Peek(need) // shorter at the end of the stream
	nl := bytes.IndexByte(b, '\n')
	if nl < 0 || !bytes.HasPrefix(b, []byte("FRAME")) {
		return
	}
	data := b[nl+1:]
	full := len(b) == need // else data runs to the end of the stream
	endsAt := func(n int) bool {
		if !full && len(data) == n {
			return true
		}
		return len(data) >= n+len("FRAME") && bytes.HasPrefix(data[n:], []byte("FRAME"))
	}
	switch {
	case endsAt(padded):
		r.layout = Padded
	case endsAt(truncated):
		r.layout = Truncated
	}
}
