package main

import (
	"encoding/binary"
	"fmt"

	"github.com/vmafsink/vmafsink/vmaf"
)

// deepened delivers an input's pictures at a greater bit depth, each
// sample shifted up by the difference, for --aom_ctc v6.0 and later, which
// score inputs of different depths at the deeper one. (libvmaf 3.2's tool
// reads such input wrongly and crashes, so there is no output of its to
// match; the shift is the usual conversion.)
type deepened struct {
	source
	depth int
	free  chan *vmaf.Picture
}

func newDeepened(src source, depth, buffers int) (*deepened, error) {
	f := src.format()
	d := &deepened{source: src, depth: depth, free: make(chan *vmaf.Picture, buffers)}
	for range buffers {
		p, err := vmaf.NewPicture(f.Width, f.Height, depth, f.Chroma)
		if err != nil {
			return nil, fmt.Errorf("raise to %d bits: %w", depth, err)
		}
		d.free <- p
	}
	return d, nil
}

func (d *deepened) format() picFormat {
	f := d.source.format()
	f.BitDepth = d.depth
	return f
}

func (d *deepened) next() (frame, error) {
	fr, err := d.source.next()
	if err != nil {
		return fr, err
	}
	out := <-d.free
	in := fr.pic
	shift := uint(d.depth - in.BitDepth)
	for i := range 3 {
		if out.Planes[i] == nil {
			continue
		}
		w, h := out.PlaneSize(i)
		for y := range h {
			dst := out.Planes[i][y*out.Strides[i]:][:2*w]
			src := in.Planes[i][y*in.Strides[i]:]
			for x := range w {
				var v uint16
				if in.BitDepth == 8 {
					v = uint16(src[x])
				} else {
					v = binary.LittleEndian.Uint16(src[2*x:])
				}
				binary.LittleEndian.PutUint16(dst[2*x:], v<<shift)
			}
		}
	}
	if fr.release != nil {
		fr.release()
	}
	fr.pic = out
	fr.release = func() { d.free <- out }
	return fr, nil
}
