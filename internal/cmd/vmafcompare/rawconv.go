package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/vmafsink/vmafsink/internal/y4m"
)

// geometry is what libvmaf's tool needs to read raw frames: -w -h -p -b.
type geometry struct {
	width, height int
	chroma        string // "420", "422" or "444"
	bitDepth      int
	frames        int
}

// chromaShift is the log2 subsampling of the chroma planes.
func chromaShift(chroma string) (x, y int) {
	switch chroma {
	case "420":
		return 1, 1
	case "422":
		return 1, 0
	}
	return 0, 0
}

// convertClip reads up to maxFrames frames (all when 0) of a y4m stream and
// writes them to raw in the layout libvmaf's vmaf tool reads, and, when y4mOut
// is not nil, also as a y4m stream.
//
// libvmaf sizes each chroma plane as (W >> ssx) x (H >> ssy), rounding down,
// and reads exactly that many bytes; y4m and ffmpeg round up. So for odd
// sizes the last chroma column (and for 4:2:0 the last chroma row) is left
// out of the raw file, which is what libvmaf would score of such a picture.
func convertClip(in io.Reader, raw, y4mOut io.Writer, maxFrames int) (geometry, error) {
	r, err := y4m.NewReader(in)
	if err != nil {
		return geometry{}, err
	}
	f := r.Format()
	if f.Chroma == "400" {
		return geometry{}, errors.New("libvmaf's vmaf tool reads no 4:0:0 (mono) input")
	}
	g := geometry{width: f.Width, height: f.Height, chroma: f.Chroma, bitDepth: f.BitDepth}
	sx, sy := chromaShift(f.Chroma)
	bps := f.BytesPerSample()

	rw := bufio.NewWriterSize(raw, 1<<20)
	var yw *bufio.Writer
	if y4mOut != nil {
		yw = bufio.NewWriterSize(y4mOut, 1<<20)
		fmt.Fprintf(yw, "YUV4MPEG2 W%d H%d F%d:%d Ip A1:1 C%s\n",
			f.Width, f.Height, max(f.FrameRateNum, 1), max(f.FrameRateDen, 1), y4mColorspace(f))
	}
	fr := y4m.NewFrame(f)
	for maxFrames == 0 || g.frames < maxFrames {
		err := r.ReadFrame(fr)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return g, err
		}
		for i := 0; i < 3; i++ {
			w, h := f.Width, f.Height
			if i > 0 {
				w, h = f.Width>>sx, f.Height>>sy
			}
			for y := 0; y < h; y++ {
				off := y * fr.Strides[i]
				rw.Write(fr.Planes[i][off : off+w*bps])
			}
			if yw != nil {
				if i == 0 {
					yw.WriteString("FRAME\n")
				}
				yw.Write(fr.Planes[i])
			}
		}
		g.frames++
	}
	if g.frames == 0 {
		return g, errors.New("clip has no frames")
	}
	if err := rw.Flush(); err != nil {
		return g, fmt.Errorf("writing raw frames: %w", err)
	}
	if yw != nil {
		if err := yw.Flush(); err != nil {
			return g, fmt.Errorf("writing y4m frames: %w", err)
		}
	}
	return g, nil
}

// y4mColorspace is the C tag for f, as ffmpeg writes it.
func y4mColorspace(f y4m.Format) string {
	switch {
	case f.BitDepth > 8:
		return fmt.Sprintf("%sp%d", f.Chroma, f.BitDepth)
	case f.Chroma == "420":
		return "420jpeg"
	}
	return f.Chroma
}
