package vmaf

import (
	"testing"

	"github.com/vmafsink/vmafsink/internal/testclips"
	"github.com/vmafsink/vmafsink/vmaf/internal/testpic"
)

// The accuracy oracle: clip pairs with libvmaf 3.2.0's per-frame output,
// read by testpic (the full set lives in ../shared/goldens next to the
// checkout), viewed here as Pictures.

type goldenPair struct {
	name   string // e.g. flower_576x324_x264_crf22
	ref    []*Picture
	dist   []*Picture
	frames []map[string]float64 // libvmaf's metrics per frame
}

// goldenRoot is the repository root seen from this package.
const goldenRoot = ".."

// goldenNames lists the pairs available.
func goldenNames(t testing.TB) []string { return testpic.GoldenNames(t) }

// findGolden returns the path of file (relative to a goldens directory),
// plain or compressed.
func findGolden(rel string) (path string, compressed bool, err error) {
	return testclips.Find(goldenRoot, rel)
}

// loadGolden reads a pair and libvmaf's scores for it, limited to max
// frames when max > 0 (mind that motion2 of the last frame read then lacks
// its successor).
func loadGolden(t testing.TB, name string, max int) *goldenPair {
	t.Helper()
	g := testpic.LoadGolden(t, name, max)
	return &goldenPair{name: g.Name, ref: pictures(g.Ref), dist: pictures(g.Dist), frames: g.Frames}
}

func pictures(ps []*testpic.Picture) []*Picture {
	out := make([]*Picture, len(ps))
	for i, p := range ps {
		out[i] = &Picture{Width: p.Width, Height: p.Height, BitDepth: p.BitDepth,
			Chroma: Chroma(p.Chroma), Planes: p.Planes, Strides: p.Strides}
	}
	return out
}

func TestGoldenLoader(t *testing.T) {
	names := goldenNames(t)
	g := loadGolden(t, names[0], 2)
	if len(g.ref) != 2 || len(g.frames) != 2 {
		t.Fatalf("%s: got %d pictures and %d golden frames", g.name, len(g.ref), len(g.frames))
	}
	if err := g.ref[0].Validate(); err != nil {
		t.Fatal(err)
	}
	if _, ok := g.frames[0]["vmaf"]; !ok {
		t.Fatalf("%s: golden frame has no vmaf metric", g.name)
	}
}
