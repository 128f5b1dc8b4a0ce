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
	// ByteRounded is what FFmpeg 5.1's y4m muxer writes for a picture
	// deeper than 8 bits with an odd width: it rounds each chroma row up
	// in bytes rather than samples, so a row holds ⌊W/2⌋ samples and the
	// low byte of the last one. The whole samples are all libvmaf reads
	// of such a row; the last is read as a copy of its neighbour. For
	// 8-bit pictures it is the same as Padded.
	ByteRounded
)

func (l Layout) String() string {
	switch l {
	case Truncated:
		return "truncated"
	case ByteRounded:
		return "byte-rounded"
	}
	return "padded"
}

// StoredPlaneSize returns the width and height in whole samples of plane
// i as a stream in layout l stores it.
func (f Format) StoredPlaneSize(i int, l Layout) (w, h int) {
	w, h = f.PlaneSize(i)
	if i == 0 || l == Padded || (l == ByteRounded && f.BytesPerSample() == 1) {
		return w, h
	}
	switch {
	case f.Chroma == "420" && l == Truncated:
		return f.Width >> 1, f.Height >> 1
	case f.Chroma == "420" || f.Chroma == "422":
		return f.Width >> 1, h
	}
	return w, h
}

// storedRows returns the bytes in each row of plane i, as layout l
// stores it, and the number of rows.
func (f Format) storedRows(i int, l Layout) (rowBytes, rows int) {
	w, h := f.StoredPlaneSize(i, l)
	rowBytes = w * f.BytesPerSample()
	if l == ByteRounded && i > 0 && (f.Chroma == "420" || f.Chroma == "422") {
		rowBytes = (f.Width*f.BytesPerSample() + 1) / 2
	}
	return rowBytes, h
}

// StoredFrameSize is the size in bytes of one frame's samples in layout l.
func (f Format) StoredFrameSize(l Layout) int {
	n := 0
	for i := 0; i < f.NumPlanes(); i++ {
		row, h := f.storedRows(i, l)
		n += row * h
	}
	return n
}

// layoutsDiffer reports whether frames of f differ in size between
// layouts, so that a y4m stream's layout needs detecting.
func (f Format) layoutsDiffer() bool {
	padded := f.StoredFrameSize(Padded)
	return padded != f.StoredFrameSize(Truncated) || padded != f.StoredFrameSize(ByteRounded)
}

// padPlane fills the samples a Truncated or ByteRounded stream leaves out
// of (or incomplete in) chroma plane i of fr, the last column and row, by
// repeating their neighbours, so the frame is a complete Padded picture.
func (f Format) padPlane(fr *Frame, i int, l Layout) {
	pw, ph := f.PlaneSize(i)
	sw, sh := f.StoredPlaneSize(i, l)
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
// ends or the next FRAME marker starts. Padded is assumed when none fits,
// and then reading fails where the framing breaks.
func (r *Reader) detectLayout() {
	padded := r.format.StoredFrameSize(Padded)
	need := maxFrameHeader + padded + len("FRAME") // Padded frames are the largest
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
	for _, l := range []Layout{Padded, Truncated, ByteRounded} {
		if endsAt(r.format.StoredFrameSize(l)) {
			r.layout = l
			return
		}
	}
}
