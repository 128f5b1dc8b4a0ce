package ciede

import "math"

// lab is a CIELAB colour, in float32 as libvmaf keeps it.
type lab struct{ l, a, b float32 }

// Constants of the conversion, computed at run time in float64 from
// float64 operands: that is how a C compiler folds 1.0/1.055 and the
// like, while a Go constant expression would be folded exactly and could
// round differently.
var (
	one = 1.0

	invGammaScale = one / 1.055   // sRGB decoding of the companded part
	invLinearGain = one / 12.92   // sRGB decoding of the linear part
	invWhiteX     = one / 0.95047 // D65 white point
	invWhiteZ     = one / 1.08883
)

const (
	gammaKnee  = 10. / 255.
	labEpsilon = 216.0 / 24389.0
	labKappa   = 24389.0 / 27.0
)

// labConverter takes YCbCr samples of one bit depth to CIELAB, with a
// cache: nearby samples often share all three values (chroma is shared
// by two or four luma samples, and flat areas repeat), and a conversion
// costs six powers. The cache holds exact results, so it changes nothing
// but the time.
type labConverter struct {
	lumaOffset, chromaOffset float64
	invLumaRange, invChroma  float64
	cache                    []labEntry
	bits                     uint // the cache has 2^bits entries
}

type labEntry struct {
	key uint64 // colourKey, 0 while empty
	lab lab
}

// maxCacheBits caps the caches of colours and of pairs: 2^16 entries (1.5
// MB for colours, 1.5 MB for pairs) hit most repeats of 1080p content.
// Smaller pictures get caches about their size.
const maxCacheBits = 16

// cacheBits is the size of the caches for pictures of n samples.
func cacheBits(n int) uint {
	b := uint(8)
	for b < maxCacheBits && 1<<b < n {
		b++
	}
	return b
}

// colourKey packs a sample triple (up to 16 bits each) into a nonzero
// key.
func colourKey(y, u, v int32) uint64 {
	return uint64(y)<<32 | uint64(u)<<16 | uint64(v) | 1<<48
}

// slot is a key's place in a cache of 2^bits entries.
func slot(key uint64, bits uint) uint64 { return (key * 0x9E3779B97F4A7C15) >> (64 - bits) }

func newLabConverter(depth int, bits uint) labConverter {
	scale := float64(int(1) << (depth - 8))
	return labConverter{
		lumaOffset:   16. * scale,
		chromaOffset: 128. * scale,
		invLumaRange: one / (219. * scale),
		invChroma:    one / (224. * scale),
		cache:        make([]labEntry, 1<<bits),
		bits:         bits,
	}
}

// convert is the colour of samples y, u, v, whose colourKey is key.
func (c *labConverter) convert(key uint64, y, u, v int32) lab {
	e := &c.cache[slot(key, c.bits)]
	if e.key == key {
		return e.lab
	}
	e.key, e.lab = key, c.compute(y, u, v)
	return e.lab
}

// compute is libvmaf's conversion: limited-range BT.709 YCbCr to
// non-linear RGB (with its rounded matrix), sRGB decoding, linear RGB to
// XYZ, and XYZ to CIELAB under D65. Everything is in float64 but for
// the three XYZ-to-LAB mappings and the result, which libvmaf rounds to
// float32.
func (c *labConverter) compute(ys, us, vs int32) lab {
	y := (float64(ys) - c.lumaOffset) * c.invLumaRange
	u := (float64(us) - c.chromaOffset) * c.invChroma
	v := (float64(vs) - c.chromaOffset) * c.invChroma

	r := decodeSRGB(y + 1.28033*v)
	g := decodeSRGB(y - 0.21482*u - 0.38059*v)
	b := decodeSRGB(y + 2.12798*u)

	x := r*0.4124564390896921 + g*0.357576077643909 + b*0.18043748326639894
	yy := r*0.21267285140562248 + g*0.715152155287818 + b*0.07217499330655958
	z := r*0.019333895582329317 + g*0.119192025881303 + b*0.9503040785363677

	fx := float64(labCompand(x * invWhiteX))
	fy := float64(labCompand(yy))
	fz := float64(labCompand(z * invWhiteZ))
	return lab{
		l: float32(116.0*fy - 16.0),
		a: float32(500.0 * (fx - fy)),
		b: float32(200.0 * (fy - fz)),
	}
}

func decodeSRGB(c float64) float64 {
	if c > gammaKnee {
		return pow24((c + 0.055) * invGammaScale)
	}
	return c * invLinearGain
}

// pow24 is x^2.4 for x > 0 as math.Pow computes it: x² times
// e^(f·ln x), f being the fraction of the float64 2.4 (not the float64
// 0.4); its other scalings are by powers of two and exact. This skips
// the special cases and splitting that cost more than the two functions.
func pow24(x float64) float64 {
	return x * x * math.Exp(frac24*math.Log(x))
}

var (
	two4   = 2.4
	frac24 = two4 - 2
)

// labCompand is CIELAB's f(t). libvmaf raises to the float64 power
// nearest 1/3 and keeps a float32; the true cube root is within about a
// float64 unit of that power here, so both round to the same float32 but
// for ties too rare to matter, and the cube root is the faster.
func labCompand(t float64) float32 {
	if t > labEpsilon {
		return float32(math.Cbrt(t))
	}
	return float32((labKappa*t + 16.0) * (1.0 / 116.0))
}
