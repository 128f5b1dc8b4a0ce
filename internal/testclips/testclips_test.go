package testclips

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A root laid out as a checkout beside the shared set, with an explicit
// directory as well: every lookup takes the same order.
func TestLookupOrder(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "main")
	shared := filepath.Join(base, "shared", "goldens")
	repo := filepath.Join(root, "testdata", "goldens")
	explicit := filepath.Join(base, "explicit")
	write := func(dir, rel string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(repo, "scores/cut.vmaf.json")
	write(repo, "clips/cut.y4m.xz")
	write(shared, "scores/cut.vmaf.json")
	write(shared, "clips/cut.y4m.xz")
	write(shared, "scores/full.vmaf.json")
	write(repo, "clips/plain.y4m")
	write(repo, "clips/plain.y4m.xz")
	write(repo, "scores/own.vmaf.json")
	write(explicit, "scores/own.vmaf.json")
	t.Setenv("VMAF_GOLDENS", explicit)

	if got, want := New(root, "x").Dirs(), []string{explicit, shared, repo}; !slices.Equal(got, want) {
		t.Errorf("Set.Dirs = %v, want %v", got, want)
	}
	tests := []struct {
		rel        string
		path       string
		compressed bool
	}{
		{"scores/cut.vmaf.json", filepath.Join(shared, "scores/cut.vmaf.json"), false},
		{"clips/cut.y4m", filepath.Join(shared, "clips/cut.y4m.xz"), true},
		{"clips/plain.y4m", filepath.Join(repo, "clips/plain.y4m"), false},
		{"scores/own.vmaf.json", filepath.Join(explicit, "scores/own.vmaf.json"), false},
		{"scores/missing.vmaf.json", "", false},
	}
	for _, tc := range tests {
		path, compressed, err := Find(root, tc.rel)
		if tc.path == "" {
			if err == nil {
				t.Errorf("Find(%s) = %s, want an error", tc.rel, path)
			}
			continue
		}
		if err != nil || path != tc.path || compressed != tc.compressed {
			t.Errorf("Find(%s) = %s, %v, %v; want %s, %v", tc.rel, path, compressed, err, tc.path, tc.compressed)
		}
	}
	got := Glob(root, filepath.Join("scores", "*.vmaf.json"))
	want := []string{filepath.Join(explicit, "scores/own.vmaf.json"), filepath.Join(shared, "scores/cut.vmaf.json"),
		filepath.Join(shared, "scores/full.vmaf.json")}
	if !slices.Equal(got, want) {
		t.Errorf("Glob = %v, want %v", got, want)
	}
}
