package ffsource

import (
	"fmt"
	"sort"

	"github.com/asticode/go-astiav"

	"github.com/vmafsink/vmafsink/vmaf"
)

// Format is the geometry and sample format of the pictures a Source
// delivers: one of the engine's planar layouts.
type Format struct {
	Width, Height int
	BitDepth      int // 8, 10, 12 or 16
	Chroma        vmaf.Chroma
}

func (f Format) String() string {
	return fmt.Sprintf("%dx%d %s %d-bit", f.Width, f.Height, f.Chroma, f.BitDepth)
}

// planarFor picks the engine layout that keeps a pixel format's
// information: its chroma subsampling (4:4:4 for RGB and odd layouts such
// as 4:1:1 or 4:4:0, which the engine does not have) and its depth rounded
// up to 8, 10, 12 or 16 bits.
func planarFor(pf astiav.PixelFormat) (depth int, chroma vmaf.Chroma, err error) {
	d, ok := describePixelFormat(pf)
	if !ok || pf == astiav.PixelFormatNone {
		return 0, 0, fmt.Errorf("unknown pixel format")
	}
	if d.flags&pixFlagHWAccel != 0 {
		return 0, 0, fmt.Errorf("unsupported pixel format %s (hardware frames)", pf.Name())
	}
	switch {
	case d.depth <= 8:
		depth = 8
	case d.depth <= 10:
		depth = 10
	case d.depth <= 12:
		depth = 12
	default:
		depth = 16
	}
	switch {
	case d.components <= 2 && d.flags&(pixFlagRGB|pixFlagPAL) == 0:
		chroma = vmaf.Chroma400 // gray, with or without alpha
	case d.flags&(pixFlagRGB|pixFlagPAL) != 0:
		chroma = vmaf.Chroma444
	case d.log2w == 1 && d.log2h == 1:
		chroma = vmaf.Chroma420
	case d.log2w == 1 && d.log2h == 0:
		chroma = vmaf.Chroma422
	case d.log2w >= 1 && d.log2h >= 1:
		chroma = vmaf.Chroma420 // 4:1:0 and the like: nearest coarser layout we have
	case d.log2w >= 1:
		chroma = vmaf.Chroma422 // 4:1:1
	default:
		chroma = vmaf.Chroma444 // 4:4:4 and 4:4:0
	}
	return depth, chroma, nil
}

// pixelFormatOf is FFmpeg's pixel format for an engine layout.
func pixelFormatOf(depth int, chroma vmaf.Chroma) astiav.PixelFormat {
	name := "gray"
	if chroma != vmaf.Chroma400 {
		name = "yuv" + chroma.String() + "p"
	}
	if depth > 8 {
		name += fmt.Sprintf("%dle", depth)
	}
	return astiav.FindPixelFormatByName(name)
}

var scaleFlags = map[string]astiav.SoftwareScaleContextFlag{
	"fast_bilinear": astiav.SoftwareScaleContextFlagFastBilinear,
	"bilinear":      astiav.SoftwareScaleContextFlagBilinear,
	"bicubic":       astiav.SoftwareScaleContextFlagBicubic,
	"experimental":  astiav.SoftwareScaleContextFlagX,
	"neighbor":      astiav.SoftwareScaleContextFlagPoint,
	"area":          astiav.SoftwareScaleContextFlagArea,
	"bicublin":      astiav.SoftwareScaleContextFlagBicublin,
	"gauss":         astiav.SoftwareScaleContextFlagGauss,
	"sinc":          astiav.SoftwareScaleContextFlagSinc,
	"lanczos":       astiav.SoftwareScaleContextFlagLanczos,
	"spline":        astiav.SoftwareScaleContextFlagSpline,
}

// ScaleAlgorithms lists the names ParseScaleAlgorithm accepts: swscale's
// algorithms under FFmpeg's -sws_flags names.
func ScaleAlgorithms() []string {
	names := make([]string, 0, len(scaleFlags))
	for n := range scaleFlags {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ParseScaleAlgorithm checks a scaling algorithm's name.
func ParseScaleAlgorithm(name string) (string, error) {
	if _, ok := scaleFlags[name]; !ok {
		return "", fmt.Errorf("ffsource: unknown scaling algorithm %q", name)
	}
	return name, nil
}
