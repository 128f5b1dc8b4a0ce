//go:build amd64 && !purego

package psnrhvs

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/cpu"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

// TestVectorBits checks the AVX-512 kernel against the portable code bit
// for bit: smooth and noisy pictures, flat and extreme ones, every depth,
// widths around multiples of the 16 blocks a call takes, and planes that
// end right after their last sample, with the two planes' strides
// differing.
func TestVectorBits(t *testing.T) {
	v := newVecScratch()
	if v == nil {
		t.Skip("no AVX-512")
	}
	for _, tc := range []struct {
		w, h, depth int
		fill        string
	}{
		{120, 15, 8, "synth"}, {113, 8, 8, "noise"}, {114, 22, 10, "noise"},
		{127, 30, 12, "extreme"}, {330, 41, 8, "flat"}, {225, 9, 10, "synth"},
		{1920, 36, 8, "synth"}, {961, 50, 12, "noise"}, {400, 64, 8, "extreme"},
		{250, 29, 10, "edges"}, {250, 29, 8, "edges"},
	} {
		for _, tight := range []bool{true, false} {
			ref := testPlane(tc.w, tc.h, tc.depth, tc.fill, 1, tight)
			dist := testPlane(tc.w, tc.h, tc.depth, tc.fill, 2, !tight) // strides differ
			for p := range planeWeights {
				want := planeError(ref, dist, tc.w, tc.h, tc.depth, &planeWeights[p])
				got := v.planeError(ref, dist, tc.w, tc.h, tc.depth, &planeWeights[p])
				if math.Float64bits(got) != math.Float64bits(want) {
					t.Errorf("%dx%d %d-bit %s tight %v weights %d: vector %v, portable %v",
						tc.w, tc.h, tc.depth, tc.fill, tight, p, got, want)
				}
			}
		}
	}
}

// testPlane makes a w×h plane; tight ones end at their last sample,
// others have a padded stride.
func testPlane(w, h, depth int, fill string, seed uint64, tight bool) feature.Plane {
	r := rand.New(rand.NewPCG(seed, uint64(w*h)))
	bps := (depth + 7) / 8
	stride := w * bps
	if !tight {
		stride += 3 * bps
	}
	data := make([]byte, stride*(h-1)+w*bps)
	peak := 1<<depth - 1
	for y := range h {
		for x := range w {
			var v int
			switch fill {
			case "synth":
				v = clamp((60+(3*x+2*y)%140+r.IntN(31)-15+int(seed)*3)<<(depth-8), peak)
			case "noise":
				v = r.IntN(peak + 1)
			case "extreme":
				v = peak * r.IntN(2)
			case "flat":
				v = int(seed) * 40 << (depth - 8)
				if x > w/2 {
					v += r.IntN(2)
				}
			case "edges":
				v = clamp(((x/5+y/3)%2*150+int(seed))<<(depth-8), peak)
			}
			put(data, y*stride+x*bps, v, bps)
		}
	}
	return featuretest.NewFrame(feature.Format{Width: w, Height: h, BitDepth: depth, Chroma: feature.Chroma400},
		[3][]byte{data}, [3]int{stride}).Planes[0]
}

// TestVectorMask checks that the CPU mask, read when an instance is
// made, turns the kernel off.
func TestVectorMask(t *testing.T) {
	defer cpu.SetMask(cpu.Mask())
	cpu.SetMask(cpu.AVX512)
	x, err := Kind.New(feature.Format{Width: 64, Height: 64, BitDepth: 8, Chroma: feature.Chroma420}, Kind.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if x.(*extractor).vec != nil {
		t.Error("AVX-512 masked off, but the instance has the vector kernel")
	}
}

func clamp(v, peak int) int { return max(0, min(v, peak)) }

func put(b []byte, o, v, bps int) {
	b[o] = byte(v)
	if bps == 2 {
		b[o+1] = byte(v >> 8)
	}
}
