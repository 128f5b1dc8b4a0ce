package tune

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/asticode/go-astiav"

	"github.com/vmafsink/vmafsink/internal/ffsource"
)

// Scaling is a ladder rung's resolution: the source is scaled down with
// the Down filter before encoding, and the decoded encode scaled back to
// the source's size with Up before it is scored, as a player would show
// it (per-title encoding's measure).
type Scaling struct {
	Width, Height int
	Down, Up      string // swscale algorithms: lanczos, bicubic, ...
}

// Default scaling filters.
const (
	DefaultDownscale = "lanczos"
	DefaultUpscale   = "bicubic"
)

func (sc *Scaling) String() string { return fmt.Sprintf("%dx%d", sc.Width, sc.Height) }

// ffmpegArgs scale as ffmpeg's scale filter does with the same
// algorithm.
func (sc *Scaling) ffmpegArgs() []string {
	return []string{"-vf", fmt.Sprintf("scale=%d:%d:flags=%s", sc.Width, sc.Height, sc.Down)}
}

// ParseResolutions reads "1280x720,640x360".
func ParseResolutions(s string) ([][2]int, error) {
	var out [][2]int
	for _, r := range strings.Split(s, ",") {
		w, h, ok := strings.Cut(strings.TrimSpace(r), "x")
		wi, err1 := strconv.Atoi(w)
		hi, err2 := strconv.Atoi(h)
		if !ok || err1 != nil || err2 != nil || wi < 16 || hi < 16 || wi > 16384 || hi > 16384 {
			return nil, fmt.Errorf("resolution %q: want WIDTHxHEIGHT, each from 16 to 16384", r)
		}
		if wi%2 != 0 || hi%2 != 0 {
			return nil, fmt.Errorf("resolution %q: 4:2:0 encoders need even sizes", r)
		}
		out = append(out, [2]int{wi, hi})
	}
	return out, nil
}

// scaler converts frames between two sizes of one pixel format.
type scaler struct {
	sws *astiav.SoftwareScaleContext
	out ffsource.Format
}

func newScaler(in, out ffsource.Format, algo string) (*scaler, error) {
	flag, err := ffsource.ScaleFlag(algo)
	if err != nil {
		return nil, err
	}
	sws, err := astiav.CreateSoftwareScaleContext(in.Width, in.Height, in.PixelFormat(), out.Width, out.Height, out.PixelFormat(),
		astiav.NewSoftwareScaleContextFlags(flag))
	if err != nil {
		return nil, fmt.Errorf("scaling %s to %s: %w", in, out, err)
	}
	return &scaler{sws: sws, out: out}, nil
}

// scale returns a new frame holding f scaled, and a picture viewing it.
func (s *scaler) scale(f *astiav.Frame) (*astiav.Frame, error) {
	dst, _, err := ffsource.NewFrame(s.out)
	if err != nil {
		return nil, err
	}
	if err := s.sws.ScaleFrame(f, dst); err != nil {
		dst.Free()
		return nil, fmt.Errorf("scaling to %s: %w", s.out, err)
	}
	return dst, nil
}

func (s *scaler) close() {
	if s != nil && s.sws != nil {
		s.sws.Free()
	}
}
