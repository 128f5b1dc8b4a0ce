// Package featuretest runs an extractor over the golden clip pairs and
// compares its values with libvmaf's, frame by frame, so that each
// extractor's package can test its accuracy on its own.
package featuretest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/vmafsink/vmafsink/internal/testclips"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/testpic"
)

// Pair is a golden clip pair with libvmaf's values for it.
type Pair struct {
	Name      string // e.g. flower_576x324_x264_crf22
	Format    feature.Format
	Ref, Dist []*feature.Frame
	// Frames are libvmaf's metrics, frame by frame, from extra/ (every
	// extractor but the integer ones) merged over scores/.
	Frames []map[string]float64
}

// root is the repository root, found from this file's place in it.
func root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "..")
}

// Pairs lists the pairs that have libvmaf's extra log; the test fails
// when there are none.
func Pairs(t testing.TB) []string {
	t.Helper()
	var names []string
	seen := map[string]bool{}
	for _, pattern := range []string{"*.extra.json", "*.extra.json.xz"} {
		for _, p := range testclips.Glob(root(), filepath.Join("extra", pattern)) {
			name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(p), ".xz"), ".extra.json")
			if !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		}
	}
	if len(names) == 0 {
		t.Fatalf("no golden pairs with extra/ logs in %v", testclips.Dirs(root()))
	}
	sort.Strings(names)
	return names
}

var cache sync.Map // name → *Pair

// Load reads a pair, once per test binary.
func Load(t testing.TB, name string) *Pair {
	t.Helper()
	if p, ok := cache.Load(name); ok {
		return p.(*Pair)
	}
	// The clips and libvmaf's scores/ log come from the engine's golden
	// loader; the extra/ log is laid over that log.
	g := testpic.LoadGolden(t, name, 0)
	p := &Pair{Name: name, Format: g.Ref[0].Format()}
	p.Frames = readLog(t, filepath.Join("extra", name+".extra.json"))
	for i, f := range p.Frames {
		if i < len(g.Frames) {
			for k, v := range g.Frames[i] {
				if _, ok := f[k]; !ok {
					f[k] = v
				}
			}
		}
	}
	for i := range g.Ref {
		p.Ref = append(p.Ref, g.Ref[i].Frame())
		p.Dist = append(p.Dist, g.Dist[i].Frame())
	}
	if len(p.Ref) != len(p.Frames) {
		t.Fatalf("%s: %d frames, %d in the log", name, len(p.Ref), len(p.Frames))
	}
	cache.Store(name, p)
	return p
}

func open(t testing.TB, rel string) []byte {
	t.Helper()
	path, compressed, err := testclips.Find(root(), rel)
	if err != nil {
		t.Fatal(err)
	}
	if !compressed {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	var out, stderr bytes.Buffer
	cmd := exec.Command("xz", "-dc", path)
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("xz -dc %s: %v: %s", path, err, stderr.Bytes())
	}
	return out.Bytes()
}

func readLog(t testing.TB, rel string) []map[string]float64 {
	t.Helper()
	var log struct {
		Frames []struct {
			Metrics map[string]*float64 `json:"metrics"`
		} `json:"frames"`
	}
	if err := json.Unmarshal(open(t, rel), &log); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	// libvmaf writes a value that is not finite (a PSNR of identical
	// pictures) as null, which is read here as NaN: NonFinite.
	out := make([]map[string]float64, len(log.Frames))
	for i, f := range log.Frames {
		out[i] = make(map[string]float64, len(f.Metrics))
		for k, v := range f.Metrics {
			if v == nil {
				out[i][k] = NonFinite
			} else {
				out[i][k] = *v
			}
		}
	}
	return out
}

// NewFrame views planes of the given format as a Frame.
func NewFrame(f feature.Format, planes [3][]byte, strides [3]int) *feature.Frame {
	fr := &feature.Frame{Format: f}
	for i := 0; i < f.Planes(); i++ {
		w, h := f.PlaneSize(i)
		fr.Planes[i] = feature.Plane{Data: planes[i], Stride: strides[i], W: w, H: h, BitDepth: f.BitDepth}
	}
	return fr
}

// Run computes every frame of the pair with an instance of the kind and
// returns the outputs' names and each frame's values.
func Run(t testing.TB, p *Pair, s feature.Settings) (names []string, values [][]float64) {
	t.Helper()
	k := s.Kind()
	names = k.Outputs(p.Format, s)
	values = make([][]float64, len(p.Ref))
	if k.New != nil {
		x, err := k.New(p.Format, s)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		defer x.Close()
		for i := range p.Ref {
			values[i] = make([]float64, len(names))
			if err := x.Extract(i, p.Ref[i], p.Dist[i], values[i]); err != nil {
				t.Fatalf("%s frame %d: %v", p.Name, i, err)
			}
		}
		return names, values
	}
	x, err := k.NewSequential(p.Format, s)
	if err != nil {
		t.Fatalf("%s: %v", p.Name, err)
	}
	defer x.Close()
	next := 0
	emit := func(index int, out []float64) {
		if index != next {
			t.Fatalf("%s: %s emitted frame %d, want %d", p.Name, k.Name, index, next)
		}
		values[index] = append([]float64(nil), out...)
		next++
	}
	for i := range p.Ref {
		if err := x.Push(i, p.Ref[i], p.Dist[i], emit); err != nil {
			t.Fatalf("%s frame %d: %v", p.Name, i, err)
		}
	}
	if err := x.Flush(emit); err != nil {
		t.Fatalf("%s: flush: %v", p.Name, err)
	}
	if next != len(p.Ref) {
		t.Fatalf("%s: %s emitted %d frames of %d", p.Name, k.Name, next, len(p.Ref))
	}
	return names, values
}

// Tolerance is how far a value may be from libvmaf's: within Abs, or
// within Rel of libvmaf's magnitude.
type Tolerance struct{ Abs, Rel float64 }

// NonFinite stands for a value libvmaf's log gives as null: infinite or
// NaN.
var NonFinite = math.NaN()

// OK says whether got is within tol of libvmaf's want; a NonFinite want
// takes any value that is not finite.
func (tol Tolerance) OK(got, want float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got) || math.IsInf(got, 0)
	}
	if math.IsInf(want, 0) {
		return got == want
	}
	d := math.Abs(got - want)
	return d <= tol.Abs || d <= tol.Rel*math.Abs(want)
}

// Compare checks every output against libvmaf's on every frame, logs the
// worst difference per output and fails on any beyond tol. An output
// libvmaf's log lacks is a failure.
func Compare(t testing.TB, p *Pair, names []string, values [][]float64, tol Tolerance) {
	t.Helper()
	for j, name := range names {
		worst, at := 0.0, 0
		bad := 0
		for i := range values {
			want, ok := p.Frames[i][name]
			if !ok {
				t.Errorf("%s: libvmaf's log has no %s", p.Name, name)
				return
			}
			got := values[i][j]
			if d := math.Abs(got - want); d > worst && !math.IsNaN(want) {
				worst, at = d, i
			}
			if !tol.OK(got, want) {
				if bad < 3 {
					t.Errorf("%s frame %d %s: got %.6f, libvmaf %.6f (diff %.3g)", p.Name, i, name, got, want, got-want)
				}
				bad++
			}
		}
		t.Logf("%s %s: worst |diff| %.3g at frame %d%s", p.Name, name, worst, at, plural(bad))
	}
}

func plural(bad int) string {
	if bad == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d frames beyond tolerance)", bad)
}

// Golden checks an extractor on every frame of every golden pair against
// libvmaf's logs, a subtest per pair, once for each of the settings (all
// of one kind).
func Golden(t *testing.T, tol Tolerance, settings ...feature.Settings) {
	t.Helper()
	for _, name := range Pairs(t) {
		t.Run(name, func(t *testing.T) {
			p := Load(t, name)
			for _, s := range settings {
				names, values := Run(t, p, s)
				Compare(t, p, names, values, tol)
			}
		})
	}
}
