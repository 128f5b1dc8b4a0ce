package main

import (
	"math/rand/v2"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf"
)

// signatureByDefinition is signatureOf's definition, sample by sample.
func signatureByDefinition(p *vmaf.Picture) signature {
	var sum [sigCols * sigRows]float64
	var cnt [sigCols * sigRows]int
	for y := 0; y < p.Height; y += 2 {
		line := p.Planes[0][y*p.Strides[0]:]
		for x := 0; x < p.Width; x += 2 {
			v := int(line[x])
			if p.BitDepth > 8 {
				v = int(line[2*x]) | int(line[2*x+1])<<8
			}
			c := (y*sigRows/p.Height)*sigCols + x*sigCols/p.Width
			sum[c] += float64(v)
			cnt[c]++
		}
	}
	scale := 1.0
	if p.BitDepth > 8 {
		scale = 1 / float64(int(1)<<(p.BitDepth-8))
	}
	var s signature
	for i := range s {
		if cnt[i] > 0 {
			s[i] = float32(sum[i] / float64(cnt[i]) * scale)
		}
	}
	return s
}

func TestSignatureOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct{ w, h, depth int }{
		{1920, 1080, 8}, {576, 324, 8}, {7680, 4320, 8}, {33, 17, 8}, {16, 16, 8}, {18, 16, 8}, {31, 19, 8},
		{1280, 720, 10}, {37, 23, 10}, {64, 36, 12}, {31, 17, 16},
	} {
		p, err := vmaf.NewPicture(tc.w, tc.h, tc.depth, vmaf.Chroma420)
		if err != nil {
			t.Fatal(err)
		}
		for i := range p.Planes[0] {
			p.Planes[0][i] = byte(rng.UintN(256))
		}
		if tc.depth > 8 {
			for i := 1; i < len(p.Planes[0]); i += 2 {
				p.Planes[0][i] &= byte(1<<(tc.depth-8) - 1)
			}
		} else if tc.w == 7680 {
			for i := range p.Planes[0] {
				p.Planes[0][i] = 255 // the widest columns at the lanes' limit
			}
		}
		if got, want := signatureOf(p), signatureByDefinition(p); got != want {
			t.Errorf("%dx%d %d-bit: signature %v, by definition %v", tc.w, tc.h, tc.depth, got, want)
		}
	}
}

func BenchmarkSignatureOf(b *testing.B) {
	p, err := vmaf.NewPicture(1920, 1080, 8, vmaf.Chroma420)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		signatureOf(p)
	}
}

func BenchmarkSignatureByDefinition(b *testing.B) {
	p, err := vmaf.NewPicture(1920, 1080, 8, vmaf.Chroma420)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		signatureByDefinition(p)
	}
}
