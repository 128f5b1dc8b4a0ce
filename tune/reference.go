package tune

import (
	"errors"
	"fmt"
	"io"

	"github.com/asticode/go-astiav"

	"github.com/vmafsink/vmafsink/internal/ffsource"
	"github.com/vmafsink/vmafsink/vmaf"
)

// Reference is a source decoded once into memory, in one of the engine's
// layouts: every probe encodes these frames and scores its decoded
// output against them. Its memory is width × height × frames × the
// layout's bytes per pixel (1.5 for 8-bit 4:2:0).
type Reference struct {
	Path   string
	Format ffsource.Format
	Rate   astiav.Rational // frames per second
	frames []*astiav.Frame
	pics   []*vmaf.Picture
}

// MaxReferenceBytes bounds the memory a decoded reference may take.
const MaxReferenceBytes = 8 << 30

// LoadReference decodes path's first video stream into memory.
func LoadReference(path string, opts ffsource.Options) (*Reference, error) {
	src, err := ffsource.Open(path, opts)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	info := src.Info()
	r := &Reference{Path: path, Format: info.Format, Rate: info.FrameRateQ}
	if r.Rate.Num() <= 0 || r.Rate.Den() <= 0 {
		return nil, fmt.Errorf("%s: the frame rate is unknown", path)
	}
	frameBytes := int64(info.Format.Width) * int64(info.Format.Height) * 3 * int64((info.Format.BitDepth+7)/8)
	for {
		f, err := src.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			r.Close()
			return nil, err
		}
		if int64(len(r.frames)+1)*frameBytes > MaxReferenceBytes {
			f.Release()
			r.Close()
			return nil, fmt.Errorf("%s: more than %d GiB decoded; cut the source shorter or use --sample", path, MaxReferenceBytes>>30)
		}
		fr, pic, err := ffsource.NewFrame(info.Format)
		if err != nil {
			f.Release()
			r.Close()
			return nil, err
		}
		copyPicture(pic, f.Picture)
		f.Release()
		r.frames = append(r.frames, fr)
		r.pics = append(r.pics, pic)
	}
	if len(r.frames) == 0 {
		return nil, fmt.Errorf("%s: no frames", path)
	}
	return r, nil
}

// Frames is the number of frames decoded.
func (r *Reference) Frames() int { return len(r.frames) }

// Duration is the reference's length in seconds.
func (r *Reference) Duration() float64 { return float64(len(r.frames)) / r.Rate.Float64() }

// Close frees the frames.
func (r *Reference) Close() {
	for _, f := range r.frames {
		f.Free()
	}
	r.frames, r.pics = nil, nil
}

// copyPicture copies src's samples into dst of the same format.
func copyPicture(dst, src *vmaf.Picture) {
	bps := 1
	if src.BitDepth > 8 {
		bps = 2
	}
	for i := range src.Planes {
		if src.Planes[i] == nil {
			continue
		}
		w, h := src.PlaneSize(i)
		for y := 0; y < h; y++ {
			copy(dst.Planes[i][y*dst.Strides[i]:y*dst.Strides[i]+w*bps], src.Planes[i][y*src.Strides[i]:])
		}
	}
}
