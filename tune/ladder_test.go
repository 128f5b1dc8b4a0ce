package tune

import (
	"math"
	"math/rand"
	"testing"
)

// checkHull checks the upper hull's properties: bitrate and score rise
// along it, it turns right at every point (concave), and no point lies
// above it.
func checkHull(t *testing.T, points, hull []LadderPoint) {
	t.Helper()
	for i := 1; i < len(hull); i++ {
		if !(hull[i].BitrateKbps > hull[i-1].BitrateKbps && hull[i].VMAF > hull[i-1].VMAF) {
			t.Fatalf("hull not rising at %d: %+v", i, hull)
		}
		if i >= 2 && turn(hull[i-2], hull[i-1], hull[i]) >= 0 {
			t.Fatalf("hull not concave at %d", i)
		}
	}
	for _, p := range points {
		if p.BitrateKbps < hull[0].BitrateKbps || p.BitrateKbps > hull[len(hull)-1].BitrateKbps {
			if p.BitrateKbps < hull[0].BitrateKbps || p.VMAF > hull[len(hull)-1].VMAF {
				t.Fatalf("point %+v outside the hull's span without being dominated", p)
			}
			continue
		}
		for i := 1; i < len(hull); i++ {
			a, b := hull[i-1], hull[i]
			if p.BitrateKbps >= a.BitrateKbps && p.BitrateKbps <= b.BitrateKbps {
				line := a.VMAF + (b.VMAF-a.VMAF)*(p.BitrateKbps-a.BitrateKbps)/(b.BitrateKbps-a.BitrateKbps)
				if p.VMAF > line+1e-9 {
					t.Fatalf("point %+v above the hull segment %+v–%+v", p, a, b)
				}
			}
		}
	}
}

func TestUpperHull(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 200; trial++ {
		var pts []LadderPoint
		for r := 0; r < 3; r++ {
			scale := float64(r + 1)
			for c := 0; c < 6; c++ {
				rate := scale * 100 * math.Exp(-0.15*float64(c)) * (1 + 0.05*rng.Float64())
				pts = append(pts, LadderPoint{BitrateKbps: rate, VMAF: 100 - 300/(rate/scale+3*scale) + rng.Float64()})
			}
		}
		hull := UpperHull(pts)
		checkHull(t, pts, hull)
		for _, n := range []int{1, 2, 4, 50} {
			for _, sp := range []string{"bitrate", "vmaf"} {
				rungs := chooseRungs(hull, n, sp)
				if want := min(n, len(hull)); len(rungs) != want {
					t.Fatalf("%d rungs by %s: got %d", n, sp, len(rungs))
				}
				for i := 1; i < len(rungs); i++ {
					if rungs[i].BitrateKbps <= rungs[i-1].BitrateKbps {
						t.Fatalf("rungs out of order: %+v", rungs)
					}
				}
				if n >= 2 && (rungs[0].BitrateKbps != hull[0].BitrateKbps || rungs[len(rungs)-1].BitrateKbps != hull[len(hull)-1].BitrateKbps) {
					t.Fatalf("%d rungs by %s do not span the hull", n, sp)
				}
			}
		}
	}
}

func TestCodecStrings(t *testing.T) {
	// An x264 SPS (High, level 3.1) in Annex B.
	avc := []byte{0, 0, 0, 1, 0x67, 0x64, 0x00, 0x1f, 0xac, 0, 0, 1, 0x68, 0xee}
	if s, err := avcCodecString(avc); err != nil || s != "avc1.64001F" {
		t.Errorf("avc: %q %v", s, err)
	}
	if _, err := avcCodecString([]byte{1, 2, 3}); err == nil {
		t.Error("avc without an SPS accepted")
	}
	if s, err := vp9CodecString(1920, 1080, 30, 5000, 8); err != nil || s != "vp09.00.40.08" {
		t.Errorf("vp9 1080p30: %q %v", s, err)
	}
	if s, err := vp9CodecString(640, 360, 24, 500, 10); err != nil || s != "vp09.02.21.10" {
		t.Errorf("vp9 360p 10-bit: %q %v", s, err)
	}
}
