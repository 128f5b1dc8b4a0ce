// Package testclips gives tests the golden clips as plain y4m files and
// clips re-encoded from them with the ffmpeg command-line tool, each made
// once per test binary in one scratch directory.
package testclips

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

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

// Dirs lists where golden clips are looked up: the repository's own, an
// explicit $VMAF_GOLDENS, and the shared set beside the checkout.
func (s *Set) Dirs() []string {
	dirs := []string{filepath.Join(s.root, "testdata", "goldens")}
	if d := os.Getenv("VMAF_GOLDENS"); d != "" {
		dirs = append(dirs, d)
	}
	return append(dirs, filepath.Join(s.root, "..", "shared", "goldens"))
}

// Cleanup removes the scratch directory; call it from TestMain.
func (s *Set) Cleanup() {
	if s.scratch != "" {
		os.RemoveAll(s.scratch)
	}
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
	for _, dir := range s.Dirs() {
		p := filepath.Join(dir, "clips", name)
		if _, err := os.Stat(p); err == nil {
			s.cache[name] = p
			return p
		}
		if _, err := os.Stat(p + ".xz"); err == nil {
			out := filepath.Join(s.dir(t), name)
			cmd := exec.Command("sh", "-c", `xz -dc "$1" > "$2"`, "sh", p+".xz", out)
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("xz %s: %v: %s", p, err, b)
			}
			s.cache[name] = out
			return out
		}
	}
	t.Fatalf("golden clip %s not found in %v", name, s.Dirs())
	return ""
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
