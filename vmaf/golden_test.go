package vmaf

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/internal/testclips"
	"github.com/vmafsink/vmafsink/internal/y4m"
)

// The accuracy oracle: clip pairs with libvmaf 3.2.0's per-frame output,
// looked up in the order of testclips.Dirs: testdata/goldens holds the few
// pairs the repository carries, the full set lives in ../shared/goldens
// next to the checkout when it is there.

type goldenPair struct {
	name   string // e.g. flower_576x324_x264_crf22
	ref    []*Picture
	dist   []*Picture
	frames []map[string]float64 // libvmaf's metrics per frame
}

// goldenRoot is the repository root seen from this package.
const goldenRoot = ".."

// goldenNames lists the pairs available: those in testdata, plus the
// shared set when present.
func goldenNames(t testing.TB) []string {
	var names []string
	for _, p := range testclips.Glob(goldenRoot, filepath.Join("scores", "*.vmaf.json")) {
		names = append(names, strings.TrimSuffix(filepath.Base(p), ".vmaf.json"))
	}
	if len(names) == 0 {
		t.Fatalf("no golden pairs found in %v", goldenDirs())
	}
	return names
}

func goldenDirs() []string { return testclips.Dirs(goldenRoot) }

// findGolden returns the path of file (relative to a goldens directory),
// plain or compressed.
func findGolden(rel string) (path string, compressed bool, err error) {
	return testclips.Find(goldenRoot, rel)
}

func openGoldenClip(t testing.TB, file string) io.ReadCloser {
	t.Helper()
	p, compressed, err := findGolden(filepath.Join("clips", file))
	if err != nil {
		t.Fatal(err)
	}
	if !compressed {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	cmd := exec.Command("xz", "-dc", p)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("xz: %v", err)
	}
	return readCloser{out, func() error { out.Close(); return cmd.Wait() }}
}

type readCloser struct {
	io.Reader
	close func() error
}

func (r readCloser) Close() error { return r.close() }

// readClip reads up to max frames (all when max <= 0) of a y4m clip.
func readClip(t testing.TB, file string, max int) []*Picture {
	t.Helper()
	rc := openGoldenClip(t, file)
	defer rc.Close()
	r, err := y4m.NewReader(rc)
	if err != nil {
		t.Fatal(err)
	}
	f := r.Format()
	chroma, err := ParseChroma(f.Chroma)
	if err != nil {
		t.Fatal(err)
	}
	var pics []*Picture
	for max <= 0 || len(pics) < max {
		fr := y4m.NewFrame(f)
		err := r.ReadFrame(fr)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		pics = append(pics, &Picture{Width: f.Width, Height: f.Height, BitDepth: f.BitDepth,
			Chroma: chroma, Planes: fr.Planes, Strides: fr.Strides})
	}
	return pics
}

// loadGolden reads a pair and libvmaf's scores for it, limited to max
// frames when max > 0 (mind that motion2 of the last frame read then lacks
// its successor).
func loadGolden(t testing.TB, name string, max int) *goldenPair {
	t.Helper()
	p, _, err := findGolden(filepath.Join("scores", name+".vmaf.json"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Frames []struct {
			FrameNum int                `json:"frameNum"`
			Metrics  map[string]float64 `json:"metrics"`
		} `json:"frames"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	g := &goldenPair{name: name}
	for _, fr := range log.Frames {
		g.frames = append(g.frames, fr.Metrics)
	}
	// <content>_<W>x<H>_<distortion>: the reference is <content>_<W>x<H>_ref.
	parts := strings.SplitN(name, "_", 3)
	g.ref = readClip(t, parts[0]+"_"+parts[1]+"_ref.y4m", max)
	g.dist = readClip(t, name+".y4m", max)
	if len(g.ref) != len(g.dist) {
		t.Fatalf("%s: %d reference frames but %d distorted", name, len(g.ref), len(g.dist))
	}
	if max > 0 && len(g.frames) > max {
		g.frames = g.frames[:max]
	}
	return g
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
