package y4m

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"github.com/vmafsink/vmafsink/internal/framesize"
	"io"
	"strconv"
	"strings"
)

// Format describes the frames of a stream.
type Format struct {
	Width, Height int
	BitDepth      int    // 8, 10, 12 or 16
	Chroma        string // "420", "422", "444" or "400"
	FrameRateNum  int    // 0 when unknown
	FrameRateDen  int
}

// PlaneSize returns the width and height in samples of plane i.
func (f Format) PlaneSize(i int) (w, h int) {
	if i == 0 {
		return f.Width, f.Height
	}
	switch f.Chroma {
	case "420":
		return (f.Width + 1) / 2, (f.Height + 1) / 2
	case "422":
		return (f.Width + 1) / 2, f.Height
	case "444":
		return f.Width, f.Height
	}
	return 0, 0
}

// NumPlanes is 1 for "400" and 3 otherwise.
func (f Format) NumPlanes() int {
	if f.Chroma == "400" {
		return 1
	}
	return 3
}

// BytesPerSample is 1 for 8-bit and 2 (little-endian) for deeper samples.
func (f Format) BytesPerSample() int {
	if f.BitDepth > 8 {
		return 2
	}
	return 1
}

// FrameSize is the size in bytes of one tightly packed frame.
func (f Format) FrameSize() int {
	n := 0
	for i := 0; i < f.NumPlanes(); i++ {
		w, h := f.PlaneSize(i)
		n += w * h * f.BytesPerSample()
	}
	return n
}

// Frame is one decoded frame: tightly packed planes (stride = width ×
// bytes per sample).
type Frame struct {
	Planes  [3][]byte
	Strides [3]int
}

// NewFrame allocates a frame for f.
func NewFrame(f Format) *Frame {
	fr := &Frame{}
	for i := 0; i < f.NumPlanes(); i++ {
		w, h := f.PlaneSize(i)
		fr.Strides[i] = w * f.BytesPerSample()
		fr.Planes[i] = make([]byte, fr.Strides[i]*h)
	}
	return fr
}

// Reader reads frames one at a time from a Y4M or raw stream.
type Reader struct {
	r      *bufio.Reader
	src    io.Reader // what r reads, for SkipFrames
	format Format
	layout Layout
	y4m    bool
	frames int
}

// NewReader reads a YUV4MPEG2 stream header from r.
func NewReader(r io.Reader) (*Reader, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	line, err := br.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("y4m: reading stream header: %w", err)
	}
	f, err := parseHeader(strings.TrimSuffix(line, "\n"))
	if err != nil {
		return nil, err
	}
	rd := &Reader{r: br, src: r, format: f, y4m: true}
	if f.layoutsDiffer() {
		rd.detectLayout()
	}
	return rd, nil
}

// NewRawReader reads headerless planar frames of format f from r, with
// chroma planes in the Padded layout.
func NewRawReader(r io.Reader, f Format) (*Reader, error) {
	return NewRawReaderLayout(r, f, Padded)
}

// NewRawReaderLayout reads headerless planar frames of format f, stored
// in layout l, from r.
func NewRawReaderLayout(r io.Reader, f Format, l Layout) (*Reader, error) {
	if f.Width <= 0 || f.Height <= 0 {
		return nil, fmt.Errorf("y4m: raw input needs a positive width and height, got %dx%d", f.Width, f.Height)
	}
	if err := framesize.Check(f.Width, f.Height); err != nil {
		return nil, fmt.Errorf("y4m: raw input: %w", err)
	}
	if err := checkDepthChroma(f); err != nil {
		return nil, err
	}
	if l != Padded && l != Truncated && l != ByteRounded {
		return nil, fmt.Errorf("y4m: unknown chroma layout %d", int(l))
	}
	return &Reader{r: bufio.NewReaderSize(r, 1<<20), src: r, format: f, layout: l}, nil
}

// Format returns the stream's frame format.
func (r *Reader) Format() Format { return r.format }

// Layout returns how the stream stores its chroma planes.
func (r *Reader) Layout() Layout { return r.layout }

// FrameBytes is the size of one frame's samples in the stream, without a
// y4m frame header.
func (r *Reader) FrameBytes() int { return r.format.StoredFrameSize(r.layout) }

func checkDepthChroma(f Format) error {
	switch f.BitDepth {
	case 8, 10, 12, 16:
	default:
		return fmt.Errorf("y4m: unsupported bit depth %d", f.BitDepth)
	}
	switch f.Chroma {
	case "420", "422", "444", "400":
	default:
		return fmt.Errorf("y4m: unsupported chroma %q", f.Chroma)
	}
	return nil
}

func parseHeader(line string) (Format, error) {
	fields := strings.Fields(line)
	if len(fields) == 0 || fields[0] != "YUV4MPEG2" {
		return Format{}, errors.New("y4m: not a YUV4MPEG2 stream (missing signature)")
	}
	f := Format{BitDepth: 8, Chroma: "420"}
	for _, tok := range fields[1:] {
		if len(tok) < 2 {
			continue
		}
		val := tok[1:]
		switch tok[0] {
		case 'W':
			n, err := strconv.Atoi(val)
			if err != nil || n <= 0 {
				return Format{}, fmt.Errorf("y4m: bad width %q", val)
			}
			f.Width = n
		case 'H':
			n, err := strconv.Atoi(val)
			if err != nil || n <= 0 {
				return Format{}, fmt.Errorf("y4m: bad height %q", val)
			}
			f.Height = n
		case 'F':
			num, den, ok := strings.Cut(val, ":")
			if ok {
				f.FrameRateNum, _ = strconv.Atoi(num)
				f.FrameRateDen, _ = strconv.Atoi(den)
			}
		case 'C':
			if err := parseColorspace(val, &f); err != nil {
				return Format{}, err
			}
		}
	}
	if f.Width == 0 || f.Height == 0 {
		return Format{}, errors.New("y4m: header has no width or height")
	}
	if err := framesize.Check(f.Width, f.Height); err != nil {
		return Format{}, fmt.Errorf("y4m: header: %w", err)
	}
	return f, nil
}

func parseColorspace(c string, f *Format) error {
	switch {
	case c == "mono":
		f.Chroma, f.BitDepth = "400", 8
		return nil
	case strings.HasPrefix(c, "mono"):
		d, err := strconv.Atoi(c[4:])
		if err != nil {
			return fmt.Errorf("y4m: unsupported colorspace %q", c)
		}
		f.Chroma, f.BitDepth = "400", d
		return checkDepthChroma(*f)
	}
	if len(c) < 3 {
		return fmt.Errorf("y4m: unsupported colorspace %q", c)
	}
	switch c[:3] {
	case "420", "422", "444":
		f.Chroma = c[:3]
	default:
		return fmt.Errorf("y4m: unsupported colorspace %q", c)
	}
	rest := c[3:]
	switch {
	case rest == "" || rest == "jpeg" || rest == "paldv" || rest == "mpeg2":
		f.BitDepth = 8
	case strings.HasPrefix(rest, "p"):
		d, err := strconv.Atoi(rest[1:])
		if err != nil {
			return fmt.Errorf("y4m: unsupported colorspace %q", c)
		}
		f.BitDepth = d
	default:
		return fmt.Errorf("y4m: unsupported colorspace %q", c)
	}
	return checkDepthChroma(*f)
}

// ReadFrame reads the next frame into fr, which must have been made for
// this reader's format. It returns io.EOF at a clean end of stream and
// io.ErrUnexpectedEOF for a truncated frame.
func (r *Reader) ReadFrame(fr *Frame) error {
	if r.y4m {
		// ReadSlice keeps the marker in the reader's buffer: no
		// allocation per frame.
		line, err := r.r.ReadSlice('\n')
		if err != nil {
			if err == io.EOF && len(line) == 0 {
				return io.EOF
			}
			return fmt.Errorf("y4m: frame %d: truncated frame header", r.frames)
		}
		if !bytes.HasPrefix(line, []byte("FRAME")) {
			return fmt.Errorf("y4m: frame %d: expected FRAME marker, got %q", r.frames, bytes.TrimSpace(line))
		}
	}
	for i := 0; i < r.format.NumPlanes(); i++ {
		row, h := r.format.storedRows(i, r.layout)
		for y := 0; y < h; y++ {
			dst := fr.Planes[i][y*fr.Strides[i] : y*fr.Strides[i]+row]
			if _, err := io.ReadFull(r.r, dst); err != nil {
				if err == io.EOF && !r.y4m && i == 0 && y == 0 {
					return io.EOF
				}
				return fmt.Errorf("y4m: frame %d: %w", r.frames, io.ErrUnexpectedEOF)
			}
		}
		if r.layout != Padded {
			r.format.padPlane(fr, i, r.layout)
		}
	}
	r.frames++
	return nil
}
