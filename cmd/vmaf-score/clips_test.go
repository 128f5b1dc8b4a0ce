package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/asticode/go-astiav"
)

// Test clips: golden y4m clips found like the engine's golden tests find
// them (testdata/goldens, $VMAF_GOLDENS, ../shared/goldens), decompressed
// once per test binary, and re-encoded with the ffmpeg command-line tool.

var (
	clipMu    sync.Mutex
	clipDir   string
	clipCache = map[string]string{}
)

func goldenDirs() []string {
	dirs := []string{filepath.Join("..", "..", "testdata", "goldens")}
	if d := os.Getenv("VMAF_GOLDENS"); d != "" {
		dirs = append(dirs, d)
	}
	return append(dirs, filepath.Join("..", "..", "..", "shared", "goldens"))
}

func TestMain(m *testing.M) {
	// FFmpeg's own messages ("Estimating duration from bitrate", ...)
	// would bury the test output; the errors reach the tests as values.
	astiav.SetLogLevel(astiav.LogLevelFatal)
	code := m.Run()
	if clipDir != "" {
		os.RemoveAll(clipDir)
	}
	os.Exit(code)
}

func scratchDir(t testing.TB) string {
	if clipDir == "" {
		d, err := os.MkdirTemp("", "vmaf-score-test-")
		if err != nil {
			t.Fatal(err)
		}
		clipDir = d
	}
	return clipDir
}

// goldenY4M returns the path of an uncompressed golden clip.
func goldenY4M(t testing.TB, name string) string {
	t.Helper()
	clipMu.Lock()
	defer clipMu.Unlock()
	if p, ok := clipCache[name]; ok {
		return p
	}
	for _, dir := range goldenDirs() {
		p := filepath.Join(dir, "clips", name)
		if _, err := os.Stat(p); err == nil {
			clipCache[name] = p
			return p
		}
		if _, err := os.Stat(p + ".xz"); err == nil {
			out := filepath.Join(scratchDir(t), name)
			cmd := exec.Command("sh", "-c", `xz -dc "$1" > "$2"`, "sh", p+".xz", out)
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("xz %s: %v: %s", p, err, b)
			}
			clipCache[name] = out
			return out
		}
	}
	t.Fatalf("golden clip %s not found in %v", name, goldenDirs())
	return ""
}

// encode runs ffmpeg on in with the output options args, once per
// distinct output name, and returns the output's path.
func encode(t testing.TB, in, out string, args ...string) string {
	t.Helper()
	return ffmpeg(t, out, append([]string{"-i", in}, args...)...)
}

// ffmpeg runs the ffmpeg tool with args and the output file out.
func ffmpeg(t testing.TB, out string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Fatal("the ffmpeg command-line tool is needed to make test clips (apt-get install ffmpeg)")
	}
	clipMu.Lock()
	defer clipMu.Unlock()
	path := filepath.Join(scratchDir(t), out)
	if _, ok := clipCache[path]; ok {
		return path
	}
	full := append([]string{"-hide_banner", "-loglevel", "error", "-y"}, args...)
	cmd := exec.Command("ffmpeg", append(full, path)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg %s: %v: %s", strings.Join(full, " "), err, b)
	}
	clipCache[path] = path
	return path
}
