package swap

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Within admits regular files inside the directories, through links that
// stay inside, and refuses everything else with the reason.
func TestWithin(t *testing.T) {
	root := t.TempDir()
	allowed := filepath.Join(root, "videos")
	outside := filepath.Join(root, "private")
	for _, d := range []string{allowed, filepath.Join(allowed, "sub"), outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string) string {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	link := func(target, p string) string {
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	clip := write(filepath.Join(allowed, "sub", "clip.y4m"))
	secret := write(filepath.Join(outside, "secret.y4m"))
	fifo := filepath.Join(allowed, "fifo.y4m")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	// The allowed directory itself named through a link resolves too.
	linkedDir := link(allowed, filepath.Join(root, "linked"))

	reg, err := NewRegistry(allowed)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		want       string // the resolved path, or "" for a refusal
		err        string // what the refusal says
		outside    bool   // the refusal wraps ErrOutside
	}{
		{name: "inside", path: clip, want: clip},
		{name: "dot-dot staying inside", path: filepath.Join(allowed, "sub", "..", "sub", "clip.y4m"), want: clip},
		{name: "through a linked directory", path: filepath.Join(linkedDir, "sub", "clip.y4m"), want: clip},
		{name: "link inside to inside", path: link(clip, filepath.Join(allowed, "in.y4m")), want: clip},
		{name: "outside", path: secret, err: "outside the allowed directories", outside: true},
		{name: "dot-dot leading out", path: filepath.Join(allowed, "..", "private", "secret.y4m"), err: "outside", outside: true},
		{name: "link leading out", path: link(secret, filepath.Join(allowed, "out.y4m")), err: "outside", outside: true},
		{name: "the directory itself", path: allowed, err: "outside", outside: true},
		{name: "a directory inside", path: filepath.Join(allowed, "sub"), err: "not a regular file"},
		{name: "a FIFO", path: fifo, err: "not a regular file"},
		{name: "missing", path: filepath.Join(allowed, "none.y4m"), err: "no such file"},
		{name: "relative", path: "sub/clip.y4m", err: "not an absolute path"},
		{name: "empty", path: "", err: "empty path"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := reg.Within(tc.path)
			if tc.want != "" {
				if err != nil || got != tc.want {
					t.Fatalf("Within(%q) = %q, %v; want %q", tc.path, got, err, tc.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("Within(%q) = %q, %v; want an error saying %q", tc.path, got, err, tc.err)
			}
			if errors.Is(err, ErrOutside) != tc.outside {
				t.Errorf("Within(%q): %v wraps ErrOutside: %v, want %v", tc.path, err, !tc.outside, tc.outside)
			}
		})
	}

	// No directory allows nothing.
	none, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := none.Within(clip); !errors.Is(err, ErrOutside) || !strings.Contains(err.Error(), "none is allowed") {
		t.Errorf("no directories: %v", err)
	}
}
