package vmaf

import (
	"math"
	"path/filepath"
	"testing"
)

// benchPair is frames of one size for the engine benchmarks: golden frames,
// resampled to 8-bit 4:2:0 at the size when they are not already that, as
// scripts/bench-vs-libvmaf.sh makes its raw frames with ffmpeg.
func benchPair(tb testing.TB, width, height, frames int, clips ...string) (ref, dist []*Picture) {
	tb.Helper()
	var name string
	for _, c := range clips {
		if _, _, err := findGolden(filepath.Join("scores", c+".vmaf.json")); err == nil {
			name = c
			break
		}
	}
	if name == "" {
		tb.Skipf("none of the golden pairs %v is available", clips)
	}
	g := loadGolden(tb, name, frames)
	for i := range g.ref {
		ref = append(ref, resample8(g.ref[i], width, height))
		dist = append(dist, resample8(g.dist[i], width, height))
	}
	return ref, dist
}

// resample8 returns p as 8-bit 4:2:0 at width x height, bilinearly
// interpolated, or p itself when it is that already.
func resample8(p *Picture, width, height int) *Picture {
	if p.Width == width && p.Height == height && p.BitDepth == 8 && p.Chroma == Chroma420 {
		return p
	}
	// Built by hand: NewPicture refuses pictures too small to score, which
	// the test of this helper uses.
	out := &Picture{Width: width, Height: height, BitDepth: 8, Chroma: Chroma420}
	for i := 0; i < 3; i++ {
		w, h := out.PlaneSize(i)
		out.Strides[i], out.Planes[i] = w, make([]byte, w*h)
	}
	for i := 0; i < 3; i++ {
		sw, sh := p.PlaneSize(i)
		dw, dh := out.PlaneSize(i)
		resamplePlane(p, i, sw, sh, out.Planes[i], out.Strides[i], dw, dh)
	}
	return out
}

func resamplePlane(p *Picture, plane, sw, sh int, dst []byte, stride, dw, dh int) {
	at := func(x, y int) float64 {
		x, y = min(max(x, 0), sw-1), min(max(y, 0), sh-1)
		if p.BitDepth == 8 {
			return float64(p.Planes[plane][y*p.Strides[plane]+x])
		}
		o := y*p.Strides[plane] + 2*x
		v := int(p.Planes[plane][o]) | int(p.Planes[plane][o+1])<<8
		return float64(v) / float64(int(1)<<(p.BitDepth-8))
	}
	for y := 0; y < dh; y++ {
		fy := (float64(y)+0.5)*float64(sh)/float64(dh) - 0.5
		y0 := int(math.Floor(fy))
		wy := fy - float64(y0)
		for x := 0; x < dw; x++ {
			fx := (float64(x)+0.5)*float64(sw)/float64(dw) - 0.5
			x0 := int(math.Floor(fx))
			wx := fx - float64(x0)
			v := (1-wy)*((1-wx)*at(x0, y0)+wx*at(x0+1, y0)) + wy*((1-wx)*at(x0, y0+1)+wx*at(x0+1, y0+1))
			dst[y*stride+x] = byte(min(max(math.Round(v), 0), 255))
		}
	}
}

func TestResample8(t *testing.T) {
	src := &Picture{Width: 4, Height: 2, BitDepth: 10, Chroma: Chroma420,
		Planes: [3][]byte{make([]byte, 16), make([]byte, 4), make([]byte, 4)}, Strides: [3]int{8, 4, 4}}
	// Luma rows 0..3 and 4..7 (x4 in 10 bits); chroma a constant 512 (128).
	for x := 0; x < 4; x++ {
		for y := 0; y < 2; y++ {
			v := 4 * (4*y + x)
			src.Planes[0][y*src.Strides[0]+2*x] = byte(v)
			src.Planes[0][y*src.Strides[0]+2*x+1] = byte(v >> 8)
		}
	}
	for _, c := range src.Planes[1:] {
		c[0], c[1], c[2], c[3] = 0, 2, 0, 2
	}
	tests := []struct {
		w, h int
		luma []byte
	}{
		{4, 2, []byte{0, 1, 2, 3, 4, 5, 6, 7}},
		{2, 1, []byte{3, 5}}, // centres fall between four samples: (0+1+4+5)/4 rounds up
		{8, 2, []byte{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7}},
	}
	for _, tc := range tests {
		got := resample8(src, tc.w, tc.h)
		if got.BitDepth != 8 || got.Width != tc.w || got.Height != tc.h {
			t.Fatalf("%dx%d: got a %dx%d %d-bit picture", tc.w, tc.h, got.Width, got.Height, got.BitDepth)
		}
		if string(got.Planes[0]) != string(tc.luma) {
			t.Errorf("%dx%d luma = %v, want %v", tc.w, tc.h, got.Planes[0], tc.luma)
		}
		for _, c := range got.Planes[1:] {
			for _, v := range c {
				if v != 128 {
					t.Errorf("%dx%d chroma %v, want all 128", tc.w, tc.h, c)
					break
				}
			}
		}
	}
}
