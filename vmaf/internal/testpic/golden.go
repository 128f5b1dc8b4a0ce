package testpic

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/internal/testclips"
	"github.com/vmafsink/vmafsink/internal/y4m"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// The accuracy oracle: clip pairs with libvmaf 3.2.0's per-frame output,
// looked up in the order of testclips.Dirs (the full set lives in
// ../shared/goldens next to the checkout).

// Golden is a clip pair with libvmaf's scores/ log for it.
type Golden struct {
	Name      string // e.g. flower_576x324_x264_crf22
	Ref, Dist []*Picture
	Frames    []map[string]float64 // libvmaf's metrics per frame
}

// root is the repository root, found from this file's place in it.
func root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// GoldenNames lists the pairs available; the test fails when there are
// none.
func GoldenNames(t testing.TB) []string {
	t.Helper()
	var names []string
	for _, p := range testclips.Glob(root(), filepath.Join("scores", "*.vmaf.json")) {
		names = append(names, strings.TrimSuffix(filepath.Base(p), ".vmaf.json"))
	}
	if len(names) == 0 {
		t.Fatalf("no golden pairs found in %v", testclips.Dirs(root()))
	}
	return names
}

// LoadGolden reads a pair and libvmaf's scores for it, limited to max
// frames when max > 0 (mind that motion2 of the last frame read then
// lacks its successor).
func LoadGolden(t testing.TB, name string, max int) *Golden {
	t.Helper()
	p, _, err := testclips.Find(root(), filepath.Join("scores", name+".vmaf.json"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Frames []struct {
			Metrics map[string]float64 `json:"metrics"`
		} `json:"frames"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	g := &Golden{Name: name}
	for _, fr := range log.Frames {
		g.Frames = append(g.Frames, fr.Metrics)
	}
	// <content>_<W>x<H>_<distortion>: the reference is <content>_<W>x<H>_ref.
	parts := strings.SplitN(name, "_", 3)
	g.Ref = readClip(t, parts[0]+"_"+parts[1]+"_ref.y4m", max)
	g.Dist = readClip(t, name+".y4m", max)
	if len(g.Ref) != len(g.Dist) {
		t.Fatalf("%s: %d reference frames but %d distorted", name, len(g.Ref), len(g.Dist))
	}
	if max > 0 && len(g.Frames) > max {
		g.Frames = g.Frames[:max]
	}
	return g
}

// readClip reads up to max frames (all when max <= 0) of a y4m clip.
func readClip(t testing.TB, file string, max int) []*Picture {
	t.Helper()
	rc := openClip(t, file)
	defer rc.Close()
	r, err := y4m.NewReader(rc)
	if err != nil {
		t.Fatal(err)
	}
	f := r.Format()
	chroma, err := parseChroma(f.Chroma)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
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

func parseChroma(s string) (feature.Chroma, error) {
	for c, name := range []string{"420", "422", "444", "400"} {
		if s == name {
			return feature.Chroma(c), nil
		}
	}
	return 0, errors.New("unknown chroma subsampling " + s)
}

func openClip(t testing.TB, file string) io.ReadCloser {
	t.Helper()
	p, compressed, err := testclips.Find(root(), filepath.Join("clips", file))
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
