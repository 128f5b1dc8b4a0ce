package cambi

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// TestAntiDither checks the 2x2 averaging against its definition on
// the original picture, with and without the vector kernel.
func TestAntiDither(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, size := range [][2]int{{1, 1}, {2, 2}, {33, 3}, {34, 2}, {65, 4}, {100, 7}} {
		for _, vec := range []bool{false, hasVector()} {
			w, h := size[0], size[1]
			img := make([]uint16, w*h)
			for i := range img {
				img[i] = uint16(rng.IntN(maxLevel + 1))
			}
			orig := slices.Clone(img)
			antiDither(img, w, h, vec)
			at := func(x, y int) uint32 { return uint32(orig[y*w+x]) }
			for y := range h {
				for x := range w {
					var want uint32
					switch {
					case x < w-1 && y < h-1:
						want = (at(x, y) + at(x+1, y) + at(x, y+1) + at(x+1, y+1)) >> 2
					case y < h-1:
						want = (at(x, y) + at(x, y+1)) >> 1
					case x < w-1:
						want = (at(x, y) + at(x+1, y)) >> 1
					default:
						want = at(x, y)
					}
					if uint32(img[y*w+x]) != want {
						t.Fatalf("%dx%d vector %v (%d,%d): %d, want %d", w, h, vec, x, y, img[y*w+x], want)
					}
				}
			}
		}
	}
}

// TestLevelRows checks the vector kernel's histogram rows against the
// configuration's table, for every level a picture can hold and for
// bands at the bottom, in the middle and at the top of the range.
func TestLevelRows(t *testing.T) {
	if !hasVector() {
		t.Skip("no AVX-512")
	}
	rng := rand.New(rand.NewPCG(9, 10))
	f := feature.Format{Width: 1920, Height: 1080, BitDepth: 10, Chroma: feature.Chroma420}
	for _, opts := range []string{
		"", "cambi_vis_lum_threshold=150:max_log_contrast=5", "cambi_vis_lum_threshold=300",
		"tvi_threshold=0.9:max_log_contrast=5", "tvi_threshold=0.0001:max_log_contrast=0",
	} {
		s, err := Kind.Parse(opts)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := newConfig(f, s)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.bandSize == 0 {
			continue
		}
		const n = 4099
		img, mask, got := make([]uint16, n), make([]uint8, n), make([]int16, n)
		for i := range img {
			img[i] = uint16(i % 1100)
			if i%7 == 3 {
				img[i] = uint16(rng.IntN(1 << 16))
			}
			mask[i] = uint8(rng.IntN(4) / 3)
		}
		done := levelRowsPrefix(img, mask, got, &cfg)
		if done != n&^31 {
			t.Fatalf("%q: %d done, want %d", opts, done, n&^31)
		}
		for i := range done {
			want := cfg.levelRow[img[i]&maxLevelMask] | int16(int8(mask[i])-1)
			if got[i] != want {
				t.Fatalf("%q: level %d mask %d: row %d, want %d", opts, img[i], mask[i], got[i], want)
			}
		}
	}
}

// TestDecimate checks the in-place decimation against its definition,
// with and without the vector kernels, for both sample types.
func TestDecimate(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, size := range [][2]int{{1, 1}, {2, 3}, {31, 5}, {64, 4}, {65, 9}, {130, 7}, {200, 3}} {
		w, h := size[0], size[1]
		nw, nh := (w+1)/2, (h+1)/2
		img := make([]uint16, w*h)
		mask := make([]uint8, w*h)
		for i := range img {
			img[i], mask[i] = uint16(rng.IntN(1025)), uint8(rng.IntN(2))
		}
		for _, vec := range []bool{false, hasVector()} {
			gotImg, gotMask := slices.Clone(img), slices.Clone(mask)
			if vec {
				decimate(gotImg, w, nw, nh, evensPrefix16)
				decimate(gotMask, w, nw, nh, evensPrefix8)
			} else {
				decimate(gotImg, w, nw, nh, nil)
				decimate(gotMask, w, nw, nh, nil)
			}
			for y := range nh {
				for x := range nw {
					if gotImg[y*nw+x] != img[2*y*w+2*x] || gotMask[y*nw+x] != mask[2*y*w+2*x] {
						t.Fatalf("%dx%d vector %v (%d,%d): %d %d, want %d %d", w, h, vec, x, y,
							gotImg[y*nw+x], gotMask[y*nw+x], img[2*y*w+2*x], mask[2*y*w+2*x])
					}
				}
			}
		}
	}
}

// TestToTenBit8 checks the 8-bit conversion with and without the
// vector kernel, on a padded plane.
func TestToTenBit8(t *testing.T) {
	for _, w := range []int{1, 31, 32, 33, 100} {
		const h, stride = 3, 128
		data := make([]byte, stride*h)
		for i := range data {
			data[i] = byte(i * 37)
		}
		p := feature.Plane{Data: data, Stride: stride, W: w, H: h, BitDepth: 8}
		g := geometry{w: w, h: h}
		for _, vec := range []bool{false, hasVector()} {
			img := make([]uint16, w*h)
			if err := toTenBit(p, &g, img, vec); err != nil {
				t.Fatal(err)
			}
			for y := range h {
				for x := range w {
					if want := uint16(data[y*stride+x]) << 2; img[y*w+x] != want {
						t.Fatalf("width %d vector %v (%d,%d): %d, want %d", w, vec, x, y, img[y*w+x], want)
					}
				}
			}
		}
	}
}
