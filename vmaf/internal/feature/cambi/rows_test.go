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
