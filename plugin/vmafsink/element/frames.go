package element

/*
#include <stdlib.h>
#include "gstglue.h"
#include "videocomp.h"
*/
import "C"

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/vmafsink/vmafsink/vmaf"
)

// sampleFormat is how a GstVideoFormat maps onto vmaf.Picture.
type sampleFormat struct {
	bitDepth int
	chroma   vmaf.Chroma
}

var sampleFormats = map[C.GstVideoFormat]sampleFormat{
	C.GST_VIDEO_FORMAT_I420:      {8, vmaf.Chroma420},
	C.GST_VIDEO_FORMAT_Y42B:      {8, vmaf.Chroma422},
	C.GST_VIDEO_FORMAT_Y444:      {8, vmaf.Chroma444},
	C.GST_VIDEO_FORMAT_GRAY8:     {8, vmaf.Chroma400},
	C.GST_VIDEO_FORMAT_I420_10LE: {10, vmaf.Chroma420},
	C.GST_VIDEO_FORMAT_I422_10LE: {10, vmaf.Chroma422},
	C.GST_VIDEO_FORMAT_Y444_10LE: {10, vmaf.Chroma444},
	C.GST_VIDEO_FORMAT_I420_12LE: {12, vmaf.Chroma420},
	C.GST_VIDEO_FORMAT_I422_12LE: {12, vmaf.Chroma422},
	C.GST_VIDEO_FORMAT_Y444_12LE: {12, vmaf.Chroma444},
	// Read through per-component views: YV12 is I420 with its chroma
	// planes swapped (still zero-copy); the semi-planar formats interleave
	// their chroma, and P010/P012 keep their samples in the high bits, so
	// those parts are copied (see mapBuffer).
	C.GST_VIDEO_FORMAT_YV12:      {8, vmaf.Chroma420},
	C.GST_VIDEO_FORMAT_NV12:      {8, vmaf.Chroma420},
	C.GST_VIDEO_FORMAT_NV21:      {8, vmaf.Chroma420},
	C.GST_VIDEO_FORMAT_P010_10LE: {10, vmaf.Chroma420},
	C.GST_VIDEO_FORMAT_P012_LE:   {12, vmaf.Chroma420},
}

// videoFormat is a pad's negotiated format.
type videoFormat struct {
	info   C.GstVideoInfo
	sample sampleFormat
	caps   string // for error messages
}

func parseCaps(caps *C.GstCaps) (*videoFormat, error) {
	f := &videoFormat{}
	cs := C.gst_caps_to_string(caps)
	f.caps = C.GoString(cs)
	C.g_free(C.gpointer(cs))
	if C.vs_info_from_caps(caps, &f.info) == 0 {
		return nil, fmt.Errorf("caps %s are not a video format", f.caps)
	}
	sf, ok := sampleFormats[C.GstVideoFormat(C.vs_info_format(&f.info))]
	if !ok {
		return nil, fmt.Errorf("caps %s: unsupported video format", f.caps)
	}
	f.sample = sf
	return f, nil
}

// short names the format as the mismatch error does: 176x144 I420.
func (f *videoFormat) short() string {
	return fmt.Sprintf("%dx%d %s", C.vs_info_width(&f.info), C.vs_info_height(&f.info),
		C.GoString(C.gst_video_format_to_string(C.GstVideoFormat(C.vs_info_format(&f.info)))))
}

// pictureFormat names a picture's format as short does when f, a pad's
// format, is the picture's (several formats share a sample layout, so
// only the caps tell them apart), else by its sample layout.
func pictureFormat(p *vmaf.Picture, f *videoFormat) string {
	if f != nil && int(C.vs_info_width(&f.info)) == p.Width && int(C.vs_info_height(&f.info)) == p.Height &&
		f.sample == (sampleFormat{p.BitDepth, p.Chroma}) {
		return f.short()
	}
	return fmt.Sprintf("%dx%d %d-bit %s", p.Width, p.Height, p.BitDepth, p.Chroma)
}

// sameStream reports whether two pads' formats can be scored together:
// the same size and the same samples once read, so that a decoder's NV12
// pairs with its source's I420, as their pictures are the same.
func (f *videoFormat) sameStream(o *videoFormat) bool {
	return C.vs_info_width(&f.info) == C.vs_info_width(&o.info) &&
		C.vs_info_height(&f.info) == C.vs_info_height(&o.info) &&
		f.sample == o.sample
}

// mappedFrame is a buffer mapped for reading, seen as a vmaf.Picture
// without copying. The GstVideoFrame lives in C memory and holds its own
// reference to the buffer until Release unmaps it.
type mappedFrame struct {
	frame  *C.GstVideoFrame
	mapped bool // frame holds the buffer
	pic    vmaf.Picture
	pool   *framePool
	// conv holds the components that cannot be viewed in place, reused
	// from frame to frame.
	conv [3][]byte
	// shares counts the frame's holders: 1, 2 when it is both sides of a
	// pair (no-reference mode), or the Runner's copies and the pad's own
	// hold when the fps property repeats it (fps.go).
	shares atomic.Int32
}

// Release unmaps the frame, dropping its buffer reference, and recycles
// it. The scorer calls it from its own goroutines.
func (m *mappedFrame) Release() {
	if m.shares.Add(-1) > 0 {
		return
	}
	m.unmap()
	m.pic.Planes = [3][]byte{}
	m.pool.put(m)
}

func (m *mappedFrame) unmap() {
	if m.mapped {
		C.vs_frame_unmap(m.frame)
		m.mapped = false
	}
}

// framePool recycles mappedFrames, so the streaming threads do not
// allocate once the pipeline's frames in flight have been seen.
type framePool struct {
	mu   sync.Mutex
	free []*mappedFrame
	all  []*mappedFrame
}

func (p *framePool) get() *mappedFrame {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.free); n > 0 {
		m := p.free[n-1]
		p.free = p.free[:n-1]
		return m
	}
	m := &mappedFrame{frame: (*C.GstVideoFrame)(C.calloc(1, C.sizeof_GstVideoFrame)), pool: p}
	p.all = append(p.all, m)
	return m
}

func (p *framePool) put(m *mappedFrame) {
	p.mu.Lock()
	p.free = append(p.free, m)
	p.mu.Unlock()
}

// destroy frees the C memory; every frame must have been released.
func (p *framePool) destroy() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range p.all {
		C.free(unsafe.Pointer(m.frame))
	}
	p.all, p.free = nil, nil
}

// mapBuffer maps buf with the pad's format and describes its components,
// with the strides and offsets GstVideoMeta gives, as a picture. A
// component stored one sample after another in the low bits is viewed in
// place; any other is copied into the frame's own memory. When every
// component was copied the buffer is unmapped at once.
func (p *framePool) mapBuffer(f *videoFormat, buf *C.GstBuffer) (*mappedFrame, error) {
	m := p.get()
	if C.vs_frame_map(m.frame, &f.info, buf) == 0 {
		p.put(m)
		return nil, fmt.Errorf("cannot map a %d-byte buffer as %s", C.gst_buffer_get_size(buf), f.caps)
	}
	m.mapped = true
	m.shares.Store(1)
	pic := &m.pic
	pic.Width = int(C.vs_info_width(&f.info))
	pic.Height = int(C.vs_info_height(&f.info))
	pic.BitDepth = f.sample.bitDepth
	pic.Chroma = f.sample.chroma
	bytes := 1
	if pic.BitDepth > 8 {
		bytes = 2
	}
	views := 0
	for i := range 3 {
		var stride, pstride C.gint
		data := C.vs_frame_comp(m.frame, C.gint(i), &stride, &pstride)
		w, h := pic.PlaneSize(i)
		if data == nil || w == 0 {
			pic.Planes[i], pic.Strides[i] = nil, 0
			continue
		}
		shift := int(C.vs_info_comp_shift(&f.info, C.gint(i)))
		n := int(stride)*(h-1) + (w-1)*int(pstride) + bytes
		src := unsafe.Slice((*byte)(unsafe.Pointer(data)), n)
		if int(pstride) == bytes && shift == 0 {
			pic.Planes[i], pic.Strides[i] = src[:int(stride)*(h-1)+w*bytes], int(stride)
			views++
			continue
		}
		m.conv[i] = copyComponent(m.conv[i], src, w, h, int(stride), int(pstride), bytes, shift)
		pic.Planes[i], pic.Strides[i] = m.conv[i], w*bytes
	}
	if views == 0 {
		m.unmap()
	}
	return m, nil
}

// copyComponent gathers a component whose samples are pstride bytes apart
// and shifted up by shift bits into dst as a tight plane of low-bit
// samples (little-endian words when bytes is 2).
func copyComponent(dst, src []byte, w, h, stride, pstride, bytes, shift int) []byte {
	dst = slices.Grow(dst[:0], w*h*bytes)[:w*h*bytes]
	for y := range h {
		row := src[y*stride:]
		out := dst[y*w*bytes : (y+1)*w*bytes]
		if bytes == 1 {
			for x := range out {
				out[x] = row[x*pstride]
			}
			continue
		}
		for x := range w {
			v := binary.LittleEndian.Uint16(row[x*pstride:]) >> shift
			binary.LittleEndian.PutUint16(out[2*x:], v)
		}
	}
	return dst
}

// rate is the caps' frame rate as N/D, "" when unknown or variable (0/1).
func (f *videoFormat) rate() string {
	var den C.gint
	num := C.vs_info_fps(&f.info, &den)
	if num <= 0 || den <= 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", num, den)
}

// picture is the format as the engine sees it, without planes.
func (f *videoFormat) picture() vmaf.Picture {
	return vmaf.Picture{Width: int(C.vs_info_width(&f.info)), Height: int(C.vs_info_height(&f.info)),
		BitDepth: f.sample.bitDepth, Chroma: f.sample.chroma}
}
