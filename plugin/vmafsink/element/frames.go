package element

/*
#include <stdlib.h>
#include "gstglue.h"
*/
import "C"

import (
	"fmt"
	"sync"
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

// sameStream reports whether two pads' formats can be scored together.
func (f *videoFormat) sameStream(o *videoFormat) bool {
	return C.vs_info_width(&f.info) == C.vs_info_width(&o.info) &&
		C.vs_info_height(&f.info) == C.vs_info_height(&o.info) &&
		C.vs_info_format(&f.info) == C.vs_info_format(&o.info)
}

// mappedFrame is a buffer mapped for reading, seen as a vmaf.Picture
// without copying. The GstVideoFrame lives in C memory and holds its own
// reference to the buffer until Release unmaps it.
type mappedFrame struct {
	frame  *C.GstVideoFrame
	mapped bool // frame holds the buffer
	pic    vmaf.Picture
	pool   *framePool
}

// Release unmaps the frame, dropping its buffer reference, and recycles
// it. The scorer calls it from its own goroutines.
func (m *mappedFrame) Release() {
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

// mapBuffer maps buf with the pad's format and describes its planes, with
// the strides and offsets GstVideoMeta gives, as a picture.
func (p *framePool) mapBuffer(f *videoFormat, buf *C.GstBuffer) (*mappedFrame, error) {
	m := p.get()
	if C.vs_frame_map(m.frame, &f.info, buf) == 0 {
		p.put(m)
		return nil, fmt.Errorf("cannot map a %d-byte buffer as %s", C.gst_buffer_get_size(buf), f.caps)
	}
	m.mapped = true
	pic := &m.pic
	pic.Width = int(C.vs_info_width(&f.info))
	pic.Height = int(C.vs_info_height(&f.info))
	pic.BitDepth = f.sample.bitDepth
	pic.Chroma = f.sample.chroma
	bytes := 1
	if pic.BitDepth > 8 {
		bytes = 2
	}
	for i := range 3 {
		var stride C.gint
		data := C.vs_frame_plane(m.frame, C.guint(i), &stride)
		if data == nil {
			pic.Planes[i], pic.Strides[i] = nil, 0
			continue
		}
		w, h := pic.PlaneSize(i)
		n := int(stride)*(h-1) + w*bytes
		pic.Planes[i] = unsafe.Slice((*byte)(unsafe.Pointer(data)), n)
		pic.Strides[i] = int(stride)
	}
	return m, nil
}
