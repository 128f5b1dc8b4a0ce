// Package testclips finds the golden clips and libvmaf's logs for tests,
// in one order for every package, and gives them as plain y4m files and
// clips re-encoded with the ffmpeg command-line tool, each made once per
// test binary in one scratch directory.
package testclips

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Dirs lists the golden directories under the repository root (relative
// or absolute), first match winning: an explicit $VMAF_GOLDENS, then the
// full shared set beside the checkout (../shared/goldens), then the
// repository's own testdata/goldens. The shared set comes before the
// repository's copies because some of those are cut to a few frames; the
// repository's come last so that a checkout alone still runs every test
// it has the files for.
func Dirs(root string) []string {
	var dirs []string
	if d := os.Getenv("VMAF_GOLDENS"); d != "" {
		dirs = append(dirs, d)
	}
	return append(dirs, filepath.Join(root, "..", "shared", "goldens"), filepath.Join(root, "testdata", "goldens"))
}

// Find returns the path of rel (relative to a golden directory, such as
// "scores/x.vmaf.json") in the first of Dirs that has it, plain or
// xz-compressed; compressed says it is the .xz file.
func Find(root, rel string) (path string, compressed bool, err error) {
	for _, dir := range Dirs(root) {
		p := filepath.Join(dir, rel)
		if _, err := os.Stat(p); err == nil {
			return p, false, nil
		}
		if _, err := os.Stat(p + ".xz"); err == nil {
			return p + ".xz", true, nil
		}
	}
	return "", false, fmt.Errorf("golden file %s not found in %v", rel, Dirs(root))
}

// Glob returns the files matching pattern (relative to a golden
// directory) with one file per base name, taken from the first of Dirs
// that has it, so a pair present in several directories is read once.
func Glob(root, pattern string) []string {
	seen := map[string]bool{}
	var paths []string
	for _, dir := range Dirs(root) {
		matches, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, p := range matches {
			if !seen[filepath.Base(p)] {
				seen[filepath.Base(p)] = true
				paths = append(paths, p)
			}
		}
	}
	return paths
}

// Set finds golden clips under a repository root and keeps the files it
// makes; the zero value is not usable, call New.
type Set struct {
	root    string // repository root, relative or absolute
	prefix  string // scratch directory name prefix
	mu      sync.Mutex
	scratch string
	cache   map[string]string
}

// New returns a Set for tests running in a package at root (for example
// "../.."), with scratch files in a temporary directory named prefix*.
func New(root, prefix string) *Set {
	return &Set{root: root, prefix: prefix, cache: map[string]string{}}
}

// Dirs lists where golden clips are looked up, in the order of Dirs.
func (s *Set) Dirs() []string { return Dirs(s.root) }

// Cleanup removes the scratch directory; call it from TestMain.
func (s *Set) Cleanup() {
	if s.scratch != "" {
		os.RemoveAll(s.scratch)
	}
}

// Main is a TestMain for a package whose tests use s: it runs setup (for
// example to quiet a library's log), the tests, then Cleanup, and exits
// with the tests' status.
func (s *Set) Main(m *testing.M, setup func()) {
	if setup != nil {
		setup()
	}
	code := m.Run()
	s.Cleanup()
	os.Exit(code)
}

func (s *Set) dir(t testing.TB) string {
	if s.scratch == "" {
		d, err := os.MkdirTemp("", s.prefix)
		if err != nil {
			t.Fatal(err)
		}
		s.scratch = d
	}
	return s.scratch
}

// Y4M returns the path of an uncompressed golden clip, decompressing an
// .xz one into the scratch directory.
func (s *Set) Y4M(t testing.TB, name string) string {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.cache[name]; ok {
		return p
	}
	p, compressed, err := Find(s.root, filepath.Join("clips", name))
	if err != nil {
		t.Fatal(err)
	}
	if compressed {
		out := filepath.Join(s.dir(t), name)
		cmd := exec.Command("sh", "-c", `xz -dc "$1" > "$2"`, "sh", p, out)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("xz %s: %v: %s", p, err, b)
		}
		p = out
	}
	s.cache[name] = p
	return p
}

// Encode runs ffmpeg on in with the output options args, once per
// distinct output name, and returns the output's path.
func (s *Set) Encode(t testing.TB, in, out string, args ...string) string {
	t.Helper()
	return s.FFmpeg(t, out, append([]string{"-i", in}, args...)...)
}

// FFmpeg runs the ffmpeg tool with args and the output file out (in the
// scratch directory), once per distinct out, and returns the output's path.
func (s *Set) FFmpeg(t testing.TB, out string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Fatal("the ffmpeg command-line tool is needed to make test clips (apt-get install ffmpeg)")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	path := filepath.Join(s.dir(t), out)
	if _, ok := s.cache[path]; ok {
		return path
	}
	full := append([]string{"-hide_banner", "-loglevel", "error", "-y"}, args...)
	cmd := exec.Command("ffmpeg", append(full, path)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg %s: %v: %s", strings.Join(full, " "), err, b)
	}
	s.cache[path] = path
	return path
}
