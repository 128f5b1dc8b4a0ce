package ffsource

import (
	"fmt"
	"time"

	"github.com/asticode/go-astiav"

	"github.com/vmafsink/vmafsink/vmaf"
)

// slot is one frame a Source decodes into and hands out.
type slot struct {
	in  *astiav.Frame // the decoder's output, referenced until release
	out *astiav.Frame // swscale's output, allocated on first need and kept

	pic      vmaf.Picture // a view of in or out
	pts, dur time.Duration
	index    int
	release  func() // made once, so handing a frame out does not allocate
}

func (sl *slot) destroy() {
	sl.in.Free()
	if sl.out != nil {
		sl.out.Free()
	}
}

// converter turns decoded frames into pictures of one output format.
type converter struct {
	out   Format
	outPF astiav.PixelFormat
	scale string // swscale algorithm for frames of another size; "" refuses them

	sws        *astiav.SoftwareScaleContext
	swsW, swsH int
	swsPF      astiav.PixelFormat
}

func (c *converter) setOutput(f Format, scale string) error {
	pf := pixelFormatOf(f.BitDepth, f.Chroma)
	if pf == astiav.PixelFormatNone {
		return fmt.Errorf("no FFmpeg pixel format for %s", f)
	}
	c.close()
	c.out, c.outPF, c.scale = f, pf, scale
	return nil
}

func (c *converter) close() {
	if c.sws != nil {
		c.sws.Free()
		c.sws = nil
	}
}

// fill makes sl.pic show the frame in sl.in in the output format: a view
// of the decoder's buffer when it already is in that format, otherwise a
// swscale conversion into sl.out (and sl.in is let go at once).
func (c *converter) fill(sl *slot) error {
	in := sl.in
	w, h, pf := in.Width(), in.Height(), in.PixelFormat()
	sameSize := w == c.out.Width && h == c.out.Height
	if !sameSize && c.scale == "" {
		return fmt.Errorf("frame is %dx%d but the output is %dx%d", w, h, c.out.Width, c.out.Height)
	}
	if sameSize && pf == c.outPF && c.positiveStrides(in) {
		c.view(&sl.pic, in)
		return nil
	}
	if err := c.prepareSws(w, h, pf); err != nil {
		return err
	}
	if sl.out == nil {
		sl.out = astiav.AllocFrame()
		sl.out.SetWidth(c.out.Width)
		sl.out.SetHeight(c.out.Height)
		sl.out.SetPixelFormat(c.outPF)
		if err := sl.out.AllocBuffer(0); err != nil {
			return fmt.Errorf("allocating a %s picture: %w", c.out, err)
		}
	}
	if err := c.sws.ScaleFrame(in, sl.out); err != nil {
		return fmt.Errorf("converting %s %dx%d to %s: %w", pf.Name(), w, h, c.out, err)
	}
	in.Unref()
	c.view(&sl.pic, sl.out)
	return nil
}

// positiveStrides rejects frames stored bottom-up, which swscale handles
// but a picture view cannot.
func (c *converter) positiveStrides(f *astiav.Frame) bool {
	for i := 0; i < numPlanes(c.out.Chroma); i++ {
		if frameLinesize(f, i) <= 0 {
			return false
		}
	}
	return true
}

func (c *converter) prepareSws(w, h int, pf astiav.PixelFormat) error {
	if c.sws != nil && w == c.swsW && h == c.swsH && pf == c.swsPF {
		return nil
	}
	c.close()
	// Without scaling the algorithm only matters for chroma resampling
	// (e.g. RGB to 4:4:4 needs none, 4:2:2 to 4:2:0 some); bicubic is
	// FFmpeg's default.
	flag := astiav.SoftwareScaleContextFlagBicubic
	if c.scale != "" {
		flag = scaleFlags[c.scale]
	}
	sws, err := astiav.CreateSoftwareScaleContext(w, h, pf, c.out.Width, c.out.Height, c.outPF,
		astiav.NewSoftwareScaleContextFlags(flag))
	if err != nil {
		return fmt.Errorf("unsupported pixel format %s: swscale cannot convert it to %s", pf.Name(), c.out)
	}
	c.sws, c.swsW, c.swsH, c.swsPF = sws, w, h, pf
	return nil
}

// view points p at frame f's planes.
func (c *converter) view(p *vmaf.Picture, f *astiav.Frame) {
	*p = vmaf.Picture{Width: c.out.Width, Height: c.out.Height, BitDepth: c.out.BitDepth, Chroma: c.out.Chroma}
	for i := 0; i < numPlanes(c.out.Chroma); i++ {
		_, rows := p.PlaneSize(i)
		p.Planes[i], p.Strides[i] = planeView(f, i, rows)
	}
}

func numPlanes(c vmaf.Chroma) int {
	if c == vmaf.Chroma400 {
		return 1
	}
	return 3
}
