package pipeline

import (
	"sync"

	"github.com/vmafsink/vmafsink/vmaf"
)

// spares recycles the pictures the Runner copies long-waiting frames
// into. Pictures are allocated only while the number in use grows; once
// the stream's skew is steady they are reused.
type spares struct {
	mu   sync.Mutex
	free []*sparePicture
}

type sparePicture struct {
	pic  vmaf.Picture
	home *spares
}

// Release returns the picture to its pool; the engine may call it from
// any goroutine.
func (p *sparePicture) Release() {
	p.home.mu.Lock()
	p.home.free = append(p.home.free, p)
	p.home.mu.Unlock()
}

// detach copies f's picture into a spare and gives the host's memory back.
func (sp *spares) detach(f *Frame) error {
	src := f.Picture
	dst, err := sp.get(src)
	if err != nil {
		return err
	}
	for i := range 3 {
		if src.Planes[i] == nil {
			continue
		}
		if src.Strides[i] == dst.pic.Strides[i] && len(src.Planes[i]) >= len(dst.pic.Planes[i]) {
			copy(dst.pic.Planes[i], src.Planes[i])
			continue
		}
		w, h := src.PlaneSize(i)
		row := w
		if src.BitDepth > 8 {
			row *= 2
		}
		for y := range h {
			copy(dst.pic.Planes[i][y*dst.pic.Strides[i]:][:row], src.Planes[i][y*src.Strides[i]:][:row])
		}
	}
	if f.Owner != nil {
		f.Owner.Release()
	}
	f.Picture, f.Owner = &dst.pic, dst
	return nil
}

func (sp *spares) get(like *vmaf.Picture) (*sparePicture, error) {
	sp.mu.Lock()
	for len(sp.free) > 0 {
		p := sp.free[len(sp.free)-1]
		sp.free = sp.free[:len(sp.free)-1]
		if sameFormat(&p.pic, like) {
			sp.mu.Unlock()
			return p, nil
		}
		// A spare of an earlier format: let it go.
	}
	sp.mu.Unlock()
	pic, err := vmaf.NewPicture(like.Width, like.Height, like.BitDepth, like.Chroma)
	if err != nil {
		return nil, err
	}
	return &sparePicture{pic: *pic, home: sp}, nil
}
