package adm

import (
	"fmt"
	"math"
	"os"
	"sort"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/testpic"
)

// admTolerance is half a unit in libvmaf's sixth printed decimal: within
// it, our score prints exactly as libvmaf's.
const admTolerance = 5e-7

// admFeatures names the scores as libvmaf logs them, with suffix appended
// ("" or "_egl_1").
func admFeatures(s admScores, suffix string) map[string]float64 {
	m := map[string]float64{
		"integer_adm2" + suffix: s.adm2,
		"integer_aim" + suffix:  s.aim,
		"integer_adm3" + suffix: s.adm3,
	}
	for i, v := range s.scale {
		m[fmt.Sprintf("integer_adm_scale%d%s", i, suffix)] = v
	}
	return m
}

func admMaxFrames() int {
	if os.Getenv("VMAF_FULL_GOLDENS") == "1" {
		return 0
	}
	return 12
}

// TestADMGoldens compares every ADM feature, with the default and the NEG
// models' gain limit, against libvmaf's log for every golden pair.
func TestADMGoldens(t *testing.T) {
	worst := map[string]float64{}
	where := map[string]string{}
	frames := 0
	for _, name := range testpic.GoldenNames(t) {
		t.Run(name, func(t *testing.T) {
			g := testpic.LoadGolden(t, name, admMaxFrames())
			p := g.Ref[0]
			byGain := map[string]*adm{
				"":       newADM(p.Width, p.Height, p.BitDepth, admOptions{enhnGainLimit: admDefaultGainLimit}),
				"_egl_1": newADM(p.Width, p.Height, p.BitDepth, admOptions{enhnGainLimit: 1}),
			}
			for i, want := range g.Frames {
				frames++
				for suffix, a := range byGain {
					got := admFeatures(a.compute(g.Ref[i].Plane(0), g.Dist[i].Plane(0)), suffix)
					for key, v := range got {
						w, ok := want[key]
						if !ok {
							t.Fatalf("frame %d: libvmaf log has no %s", i, key)
						}
						d := math.Abs(v - w)
						if d > worst[key] || where[key] == "" {
							worst[key], where[key] = d, fmt.Sprintf("%s frame %d", name, i)
						}
						if !(d < admTolerance) {
							t.Errorf("frame %d %s: got %.9f, libvmaf %.6f (diff %.2g)", i, key, v, w, d)
						}
					}
				}
			}
		})
	}
	keys := make([]string, 0, len(worst))
	for k := range worst {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%-28s worst |diff| %.3g (%s)", k, worst[k], where[k])
	}
	t.Logf("%d frames compared", frames)
}

// admTestPlane makes a w x h plane of bpc bits with a smooth gradient plus
// pseudo-random texture, at the given stride (in samples) and offset.
func admTestPlane(w, h, bpc, stride, offset int, seed uint32) feature.Plane {
	bps := 1
	if bpc > 8 {
		bps = 2
	}
	data := make([]byte, (offset+stride*h)*bps)
	maxv := uint32(1)<<bpc - 1
	x := seed | 1
	for i := range h {
		for j := range w {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			v := (uint32(i*7+j*3)*maxv/uint32(7*h+3*w) + x%(maxv/8+1)) & maxv
			k := (offset + i*stride + j) * bps
			if bps == 1 {
				data[k] = byte(v)
			} else {
				data[k], data[k+1] = byte(v), byte(v>>8)
			}
		}
	}
	return feature.Plane{Data: data[offset*bps:], Stride: stride * bps, W: w, H: h, BitDepth: bpc}
}

// TestADMStride checks that the row stride and the bytes between rows do
// not affect the scores.
func TestADMStride(t *testing.T) {
	for _, tc := range []struct{ w, h, bpc int }{{64, 48, 8}, {67, 45, 10}, {97, 63, 12}} {
		t.Run(fmt.Sprintf("%dx%d_%d", tc.w, tc.h, tc.bpc), func(t *testing.T) {
			a := newADM(tc.w, tc.h, tc.bpc, admOptions{enhnGainLimit: admDefaultGainLimit})
			tight := a.compute(admTestPlane(tc.w, tc.h, tc.bpc, tc.w, 0, 1), admTestPlane(tc.w, tc.h, tc.bpc, tc.w, 0, 2))
			padded := a.compute(admTestPlane(tc.w, tc.h, tc.bpc, tc.w+13, 5, 1), admTestPlane(tc.w, tc.h, tc.bpc, tc.w+7, 3, 2))
			if tight != padded {
				t.Fatalf("tight stride %+v, padded stride %+v", tight, padded)
			}
			if tight.adm2 <= 0 || tight.adm2 >= 1 {
				t.Fatalf("adm2 %v outside (0, 1) for a distorted pair", tight.adm2)
			}
		})
	}
}

// TestADMIdentical checks the scores of a picture against itself: nothing
// is added, and the detail kept is all of it, up to the fixed-point
// rounding (libvmaf gives 1.000001 for the flower_same golden).
func TestADMIdentical(t *testing.T) {
	p := admTestPlane(80, 60, 8, 80, 0, 9)
	s := newADM(80, 60, 8, admOptions{enhnGainLimit: admDefaultGainLimit}).compute(p, p)
	if s.aim != 0 {
		t.Fatalf("identical pictures: aim %v, want 0", s.aim)
	}
	for i, v := range append(s.scale[:], s.adm2, s.adm3) {
		if math.Abs(v-1) > 1e-4 {
			t.Fatalf("identical pictures: score %d = %v, want 1", i, v)
		}
	}
}

// TestADMCSFFactors pins the CSF factors to the float bits libvmaf's
// formula gives with glibc (level, then h/v and d).
func TestADMCSFFactors(t *testing.T) {
	want := [admLevels][2]uint32{
		{0x3c8e63ba, 0x3bc106aa},
		{0x3d030286, 0x3c6a46a3},
		{0x3d31a788, 0x3cc7dc06},
		{0x3d3b140b, 0x3d0041c9},
	}
	c := newADMCSF()
	for l, wl := range want {
		if got := [2]uint32{math.Float32bits(c.rf[l][0]), math.Float32bits(c.rf[l][2])}; got != wl {
			t.Errorf("level %d: factors %#x, want %#x", l, got, wl)
		}
	}
	if got := math.Float32bits(admCos1Sq); got != 0x3f7fec0a {
		t.Errorf("cos²(1°) bits %#x, want 0x3f7fec0a", got)
	}
}

// TestADMSIMDLast pins which levels take libvmaf's AVX-512 last-column
// path: band widths of 1 modulo 32 (64 for deep samples) at level 0 and 1
// modulo 8 below.
func TestADMSIMDLast(t *testing.T) {
	for _, tc := range []struct {
		w, bpc int
		want   [admLevels]bool
	}{
		{321, 8, [admLevels]bool{true, true, true, false}},    // bands 161, 81, 41, 21
		{321, 10, [admLevels]bool{false, true, true, false}},  // 161 is not 1 mod 64
		{258, 16, [admLevels]bool{true, true, true, true}},    // 129, 65, 33, 17
		{577, 8, [admLevels]bool{true, true, true, false}},    // 289, 145, 73, 37
		{640, 8, [admLevels]bool{false, false, false, false}}, // 320, 160, 80, 40
		{1920, 8, [admLevels]bool{false, false, false, false}},
		{66, 8, [admLevels]bool{true, true, true, false}}, // 33, 17, 9, 5
	} {
		if got := newADM(tc.w, 64, tc.bpc, admOptions{}).simdLast; got != tc.want {
			t.Errorf("width %d, %d bits: %v, want %v", tc.w, tc.bpc, got, tc.want)
		}
	}
}

// TestADMBadInput checks that planes of the wrong geometry or too short
// give NaN rather than a panic.
func TestADMBadInput(t *testing.T) {
	a := newADM(64, 48, 8, admOptions{})
	good := admTestPlane(64, 48, 8, 64, 0, 1)
	short := good
	short.Data = short.Data[:len(short.Data)-1]
	for name, p := range map[string]feature.Plane{
		"width":     admTestPlane(63, 48, 8, 64, 0, 1),
		"bit depth": admTestPlane(64, 48, 10, 64, 0, 1),
		"short":     short,
	} {
		if s := a.compute(good, p); !math.IsNaN(s.adm2) {
			t.Errorf("%s: adm2 %v, want NaN", name, s.adm2)
		}
	}
	if s := newADM(0, 48, 8, admOptions{}).compute(good, good); !math.IsNaN(s.adm2) {
		t.Errorf("zero-width extractor: adm2 %v, want NaN", s.adm2)
	}
}

func TestADMNoAllocs(t *testing.T) {
	ref := admTestPlane(99, 71, 10, 99, 0, 3)
	dist := admTestPlane(99, 71, 10, 99, 0, 4)
	a := newADM(99, 71, 10, admOptions{enhnGainLimit: 1})
	if n := testing.AllocsPerRun(3, func() { a.compute(ref, dist) }); n != 0 {
		t.Fatalf("compute allocates %v times per call", n)
	}
}

func BenchmarkADM(b *testing.B) {
	for _, k := range admKernelSets() {
		for _, sz := range []struct{ w, h int }{{576, 324}, {1920, 1080}} {
			b.Run(fmt.Sprintf("%s/%dx%d", k.name, sz.w, sz.h), func(b *testing.B) {
				ref := admTestPlane(sz.w, sz.h, 8, sz.w, 0, 5)
				dist := admTestPlane(sz.w, sz.h, 8, sz.w, 0, 6)
				a := newADMWith(sz.w, sz.h, 8, admOptions{enhnGainLimit: admDefaultGainLimit}, k)
				b.ReportAllocs()
				done := testpic.ReportThreadCPU(b)
				for b.Loop() {
					a.compute(ref, dist)
				}
				done()
			})
		}
	}
}
