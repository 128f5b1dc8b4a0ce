package ffsource

import (
	"fmt"

	"github.com/asticode/go-astiav"

	"github.com/vmafsink/vmafsink/vmaf"
)

// PixelFormat is FFmpeg's pixel format for pictures in format f.
func (f Format) PixelFormat() astiav.PixelFormat { return pixelFormatOf(f.BitDepth, f.Chroma) }

// NewFrame allocates an FFmpeg frame in format f, for an encoder, and a
// picture that views its planes. The picture is valid until the frame is
// freed.
func NewFrame(f Format) (*astiav.Frame, *vmaf.Picture, error) {
	pf := f.PixelFormat()
	if pf == astiav.PixelFormatNone {
		return nil, nil, fmt.Errorf("no FFmpeg pixel format for %s", f)
	}
	fr := astiav.AllocFrame()
	fr.SetWidth(f.Width)
	fr.SetHeight(f.Height)
	fr.SetPixelFormat(pf)
	if err := fr.AllocBuffer(0); err != nil {
		fr.Free()
		return nil, nil, fmt.Errorf("allocating a %s picture: %w", f, err)
	}
	pic, err := ViewFrame(fr, f)
	if err != nil {
		fr.Free()
		return nil, nil, err
	}
	return fr, pic, nil
}

// ViewFrame returns a picture viewing frame fr's planes without copying,
// when fr is in format f (as a decoder's output in the encoder's format
// is). The picture is valid while fr holds its buffers.
func ViewFrame(fr *astiav.Frame, f Format) (*vmaf.Picture, error) {
	if fr.Width() != f.Width || fr.Height() != f.Height || fr.PixelFormat() != f.PixelFormat() {
		return nil, fmt.Errorf("frame is %dx%d %s, want %s", fr.Width(), fr.Height(), fr.PixelFormat().Name(), f)
	}
	c := converter{out: f, outPF: f.PixelFormat()}
	if !c.positiveStrides(fr) {
		return nil, fmt.Errorf("frame is stored bottom-up")
	}
	p := new(vmaf.Picture)
	c.view(p, fr)
	return p, nil
}

// ScaleFlag is the swscale flag of an algorithm named as
// ParseScaleAlgorithm takes it.
func ScaleFlag(name string) (astiav.SoftwareScaleContextFlag, error) {
	f, ok := scaleFlags[name]
	if !ok {
		return 0, fmt.Errorf("ffsource: unknown scaling algorithm %q", name)
	}
	return f, nil
}
