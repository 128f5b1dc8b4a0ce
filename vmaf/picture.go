package vmaf

import "fmt"

// Chroma is a picture's chroma subsampling.
type Chroma int

const (
	Chroma420 Chroma = iota // both chroma planes at half width and half height
	Chroma422               // half width, full height
	Chroma444               // full resolution
	Chroma400               // luma only (GRAY)
)

func (c Chroma) String() string {
	switch c {
	case Chroma420:
		return "420"
	case Chroma422:
		return "422"
	case Chroma444:
		return "444"
	case Chroma400:
		return "400"
	}
	return fmt.Sprintf("Chroma(%d)", int(c))
}

// ParseChroma reads "420", "422", "444" or "400" (libvmaf's -p values).
func ParseChroma(s string) (Chroma, error) {
	for _, c := range []Chroma{Chroma420, Chroma422, Chroma444, Chroma400} {
		if s == c.String() {
			return c, nil
		}
	}
	return 0, fmt.Errorf("vmaf: unknown chroma subsampling %q (want 420, 422, 444 or 400)", s)
}

// Picture is a view of one video frame in planar YUV. It does not own its
// memory: Planes may point into a mapped GStreamer buffer or a decoder's
// frame. Samples deeper than 8 bits are little-endian 16-bit words.
type Picture struct {
	Width, Height int
	BitDepth      int // 8, 10, 12 or 16
	Chroma        Chroma
	Planes        [3][]byte // Y, Cb, Cr; Cb and Cr are nil for Chroma400
	Strides       [3]int    // bytes from one row to the next
}

// NewPicture allocates a picture with tightly packed planes.
func NewPicture(width, height, bitDepth int, chroma Chroma) (*Picture, error) {
	p := &Picture{Width: width, Height: height, BitDepth: bitDepth, Chroma: chroma}
	if err := p.checkFormat(); err != nil {
		return nil, err
	}
	for i := 0; i < p.numPlanes(); i++ {
		w, h := p.PlaneSize(i)
		p.Strides[i] = w * p.bytesPerSample()
		p.Planes[i] = make([]byte, p.Strides[i]*h)
	}
	return p, nil
}

// PlaneSize returns the width and height in samples of plane i.
func (p *Picture) PlaneSize(i int) (w, h int) { return formatOf(p).PlaneSize(i) }

func (p *Picture) numPlanes() int { return formatOf(p).Planes() }

func (p *Picture) bytesPerSample() int {
	if p.BitDepth > 8 {
		return 2
	}
	return 1
}

func (p *Picture) checkFormat() error {
	switch p.BitDepth {
	case 8, 10, 12, 16:
	default:
		return fmt.Errorf("vmaf: unsupported bit depth %d (want 8, 10, 12 or 16)", p.BitDepth)
	}
	if p.Chroma < Chroma420 || p.Chroma > Chroma400 {
		return fmt.Errorf("vmaf: unsupported chroma subsampling %v", p.Chroma)
	}
	// The feature extractors' filters and the 4-level wavelet need a few
	// samples per level; libvmaf rejects the same tiny pictures.
	if p.Width < 16 || p.Height < 16 {
		return fmt.Errorf("vmaf: picture %dx%d is too small (minimum 16x16)", p.Width, p.Height)
	}
	return nil
}

// Validate checks that the picture's format is supported and that every
// plane holds Height rows of Width samples at its stride.
func (p *Picture) Validate() error {
	if err := p.checkFormat(); err != nil {
		return err
	}
	for i := 0; i < p.numPlanes(); i++ {
		w, h := p.PlaneSize(i)
		row := w * p.bytesPerSample()
		if p.Strides[i] < row {
			return fmt.Errorf("vmaf: plane %d stride %d is shorter than its row of %d bytes", i, p.Strides[i], row)
		}
		if need := p.Strides[i]*(h-1) + row; len(p.Planes[i]) < need {
			return fmt.Errorf("vmaf: plane %d has %d bytes, needs %d for %dx%d at stride %d", i, len(p.Planes[i]), need, w, h, p.Strides[i])
		}
	}
	return nil
}

// checkPair checks a submitted pair: each picture valid, both alike, and
// like the stream's format once the first pair has fixed it (format nil
// before that). index names the frame in errors.
func checkPair(format, ref, dist *Picture, index int) error {
	if err := ref.Validate(); err != nil {
		return fmt.Errorf("reference frame %d: %w", index, err)
	}
	if err := dist.Validate(); err != nil {
		return fmt.Errorf("distorted frame %d: %w", index, err)
	}
	if err := sameFormat(ref, dist); err != nil {
		return fmt.Errorf("frame %d: %w", index, err)
	}
	if format != nil && !format.sameGeometry(ref) {
		return fmt.Errorf("vmaf: frame %d is %s but the stream is %s; start a new Context for a new format", index, ref.describe(), format.describe())
	}
	return nil
}

// sameFormat reports an error naming both pictures when their geometry or
// sample format differ.
func sameFormat(ref, dist *Picture) error {
	if !ref.sameGeometry(dist) {
		return fmt.Errorf("vmaf: reference is %s but distorted is %s", ref.describe(), dist.describe())
	}
	return nil
}

func (p *Picture) sameGeometry(o *Picture) bool {
	return p.Width == o.Width && p.Height == o.Height && p.BitDepth == o.BitDepth && p.Chroma == o.Chroma
}

func (p *Picture) describe() string {
	return fmt.Sprintf("%dx%d %s %d-bit", p.Width, p.Height, p.Chroma, p.BitDepth)
}
