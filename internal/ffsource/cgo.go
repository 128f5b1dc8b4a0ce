package ffsource

// Accessors for AVFrame fields and pixel format descriptors that
// go-astiav does not expose without copying.

/*
#cgo pkg-config: libavutil libswscale
#include <libavutil/frame.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

static uint8_t *vs_plane(const AVFrame *f, int i) { return f->data[i]; }
static int vs_linesize(const AVFrame *f, int i) { return f->linesize[i]; }
static int64_t vs_best_effort_ts(const AVFrame *f) { return f->best_effort_timestamp; }
static int64_t vs_duration(const AVFrame *f) { return f->pkt_duration; }

static int vs_pixfmt_desc(int fmt, int *ncomp, int *log2w, int *log2h, int *depth, uint64_t *flags) {
	const AVPixFmtDescriptor *d = av_pix_fmt_desc_get((enum AVPixelFormat)fmt);
	if (!d) return -1;
	*ncomp = d->nb_components;
	*log2w = d->log2_chroma_w;
	*log2h = d->log2_chroma_h;
	*depth = d->comp[0].depth;
	*flags = d->flags;
	return 0;
}
*/
import "C"

import (
	"unsafe"

	"github.com/asticode/go-astiav"
)

func cFrame(f *astiav.Frame) *C.AVFrame { return (*C.AVFrame)(f.UnsafePointer()) }

// planeView returns plane i of a decoded frame as a slice over FFmpeg's
// memory, rows*linesize bytes long, and its stride. The slice is valid
// while the frame holds its buffer reference.
func planeView(f *astiav.Frame, i, rows int) ([]byte, int) {
	c := cFrame(f)
	stride := int(C.vs_linesize(c, C.int(i)))
	p := C.vs_plane(c, C.int(i))
	if p == nil || stride <= 0 || rows <= 0 {
		return nil, stride
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(p)), stride*rows), stride
}

func frameLinesize(f *astiav.Frame, i int) int { return int(C.vs_linesize(cFrame(f), C.int(i))) }

// frameTimestamp is FFmpeg's best guess of the frame's presentation time
// (the decoder's reordered pts, else the packet dts), in stream time base.
func frameTimestamp(f *astiav.Frame) int64 { return int64(C.vs_best_effort_ts(cFrame(f))) }

// frameDuration is the duration of the packet the frame came from, in
// stream time base; 0 when unknown.
func frameDuration(f *astiav.Frame) int64 { return int64(C.vs_duration(cFrame(f))) }

// pixDesc is what the engine conversion needs from a pixel format.
type pixDesc struct {
	components   int
	log2w, log2h int // chroma subsampling shifts
	depth        int // bits per luma sample
	flags        uint64
}

const (
	pixFlagBE        = C.AV_PIX_FMT_FLAG_BE
	pixFlagHWAccel   = C.AV_PIX_FMT_FLAG_HWACCEL
	pixFlagPlanar    = C.AV_PIX_FMT_FLAG_PLANAR
	pixFlagRGB       = C.AV_PIX_FMT_FLAG_RGB
	pixFlagBitstream = C.AV_PIX_FMT_FLAG_BITSTREAM
	pixFlagPAL       = C.AV_PIX_FMT_FLAG_PAL
	pixFlagFloat     = C.AV_PIX_FMT_FLAG_FLOAT
)

// convertible reports whether swscale can read pixel format f.
func convertible(f astiav.PixelFormat) bool {
	return C.sws_isSupportedInput(C.enum_AVPixelFormat(f)) > 0
}

func describePixelFormat(f astiav.PixelFormat) (pixDesc, bool) {
	var ncomp, log2w, log2h, depth C.int
	var flags C.uint64_t
	if C.vs_pixfmt_desc(C.int(f), &ncomp, &log2w, &log2h, &depth, &flags) != 0 {
		return pixDesc{}, false
	}
	return pixDesc{int(ncomp), int(log2w), int(log2h), int(depth), uint64(flags)}, true
}
