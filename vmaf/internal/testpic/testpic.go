// Package testpic makes and reads pictures for the extractors' tests:
// planar frames with the engine's layout, synthetic content, and the
// golden clip pairs with libvmaf's scores. It is for tests only.
package testpic

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// Chroma subsamplings, as feature.Chroma (and vmaf.Chroma) number them.
const (
	Chroma420 = feature.Chroma420
	Chroma422 = feature.Chroma422
	Chroma444 = feature.Chroma444
	Chroma400 = feature.Chroma400
)

// Picture is one planar frame laid out as vmaf.Picture is.
type Picture struct {
	Width, Height int
	BitDepth      int
	Chroma        feature.Chroma
	Planes        [3][]byte
	Strides       [3]int
}

// New allocates a picture with tightly packed, zeroed planes.
func New(width, height, bitDepth int, chroma feature.Chroma) (*Picture, error) {
	p := &Picture{Width: width, Height: height, BitDepth: bitDepth, Chroma: chroma}
	for i := 0; i < p.NumPlanes(); i++ {
		w, h := p.PlaneSize(i)
		p.Strides[i] = w * p.BytesPerSample()
		p.Planes[i] = make([]byte, p.Strides[i]*h)
	}
	return p, nil
}

// Format is the picture's stream format.
func (p *Picture) Format() feature.Format {
	return feature.Format{Width: p.Width, Height: p.Height, BitDepth: p.BitDepth, Chroma: p.Chroma}
}

// PlaneSize is the width and height in samples of plane i.
func (p *Picture) PlaneSize(i int) (w, h int) { return p.Format().PlaneSize(i) }

// NumPlanes is 1 for Chroma400, else 3.
func (p *Picture) NumPlanes() int { return p.Format().Planes() }

// BytesPerSample is 1 at 8 bits, else 2.
func (p *Picture) BytesPerSample() int {
	if p.BitDepth > 8 {
		return 2
	}
	return 1
}

// Plane views plane i as extractors read it.
func (p *Picture) Plane(i int) feature.Plane {
	w, h := p.PlaneSize(i)
	return feature.Plane{Data: p.Planes[i], Stride: p.Strides[i], W: w, H: h, BitDepth: p.BitDepth}
}

// Frame views the picture as extractors read it.
func (p *Picture) Frame() *feature.Frame {
	f := &feature.Frame{Format: p.Format()}
	for i := 0; i < p.NumPlanes(); i++ {
		f.Planes[i] = p.Plane(i)
	}
	return f
}

// Synthetic makes a deterministic picture with smooth content plus noise
// (so that filters see both), stored with pad extra bytes per row filled
// with garbage that no extractor may read.
func Synthetic(t testing.TB, w, h, bpc int, chroma feature.Chroma, pad int, seed uint64) *Picture {
	t.Helper()
	p := &Picture{Width: w, Height: h, BitDepth: bpc, Chroma: chroma}
	rng := rand.New(rand.NewPCG(seed, 7))
	maxv := 1<<bpc - 1
	for i := 0; i < p.NumPlanes(); i++ {
		pw, ph := p.PlaneSize(i)
		bps := p.BytesPerSample()
		p.Strides[i] = pw*bps + pad
		p.Planes[i] = make([]byte, p.Strides[i]*ph)
		for j := range p.Planes[i] {
			p.Planes[i][j] = byte(rng.Uint32())
		}
		fx, fy := 0.05+0.1*rng.Float64(), 0.05+0.1*rng.Float64()
		for y := 0; y < ph; y++ {
			for x := 0; x < pw; x++ {
				base := 0.5 + 0.35*math.Sin(fx*float64(x)+fy*float64(y)+float64(i))
				v := int(base*float64(maxv)) + rng.IntN(maxv/16+1) - maxv/32
				v = min(max(v, 0), maxv)
				o := y*p.Strides[i] + x*bps
				if bps == 1 {
					p.Planes[i][o] = byte(v)
				} else {
					p.Planes[i][o], p.Planes[i][o+1] = byte(v), byte(v>>8)
				}
			}
		}
	}
	return p
}

// Shifted returns the picture with a random shift of every sample, a
// stand-in for the next frame or a distorted copy.
func Shifted(t testing.TB, p *Picture, amount int, seed uint64) *Picture {
	t.Helper()
	q := *p
	rng := rand.New(rand.NewPCG(seed, 11))
	maxv := 1<<p.BitDepth - 1
	for i := 0; i < p.NumPlanes(); i++ {
		q.Planes[i] = append([]byte(nil), p.Planes[i]...)
		pl := q.Plane(i)
		for y := 0; y < pl.H; y++ {
			for x := 0; x < pl.W; x++ {
				d := rng.IntN(2*amount+1) - amount
				if pl.BitDepth == 8 {
					r := pl.Row8(y)
					r[x] = byte(min(max(int(r[x])+d, 0), maxv))
				} else {
					r := pl.Row16(y)
					r[x] = uint16(min(max(int(r[x])+d, 0), maxv))
				}
			}
		}
	}
	return &q
}

// Copy copies the samples of src into dst, which has the same geometry
// but maybe other strides.
func Copy(dst, src *Picture) {
	for i := 0; i < src.NumPlanes(); i++ {
		s, d := src.Plane(i), dst.Plane(i)
		n := s.W * src.BytesPerSample()
		for y := 0; y < s.H; y++ {
			copy(d.Data[y*d.Stride:y*d.Stride+n], s.Data[y*s.Stride:y*s.Stride+n])
		}
	}
}
