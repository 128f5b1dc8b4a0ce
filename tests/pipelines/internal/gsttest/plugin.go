package gsttest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	pluginDir string
	buildErr  error
	tmpRoot   string
	tmpErr    error
	tmpOnce   sync.Once
)

// TempRoot is a directory shared by every test of the process, for the
// built plugin and decompressed clips. The package that uses it already
// has a TestMain of its own, so nothing removes it at exit; instead each
// process removes the directories left by processes that are gone.
func TempRoot(t testing.TB) string {
	tmpOnce.Do(func() {
		sweepStale()
		tmpRoot = filepath.Join(os.TempDir(), fmt.Sprintf("%s%d", tmpPrefix, os.Getpid()))
		if err := os.MkdirAll(tmpRoot, 0o755); err != nil {
			tmpErr = err
		}
	})
	if tmpErr != nil {
		t.Fatal(tmpErr)
	}
	return tmpRoot
}

const tmpPrefix = "vmafsink-e2e-"

func sweepStale() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), tmpPrefix+"*"))
	for _, d := range dirs {
		pid, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(d), tmpPrefix))
		if err != nil || pid == os.Getpid() {
			continue
		}
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); os.IsNotExist(err) {
			os.RemoveAll(d)
		}
	}
}

// RepoRoot is the module's root directory.
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test's directory")
		}
		dir = parent
	}
}

// PluginDir returns a directory holding libgstvmafsink.so, for
// GST_PLUGIN_PATH. It is the one meson just built when the tests run
// under meson (VMAFSINK_BUILD_DIR), otherwise a fresh go build into a
// temporary directory, done once per test process with the same build
// tags as the tests.
func PluginDir(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		if b := os.Getenv("VMAFSINK_BUILD_DIR"); b != "" {
			d := filepath.Join(b, "plugin", "vmafsink")
			if _, err := os.Stat(filepath.Join(d, "libgstvmafsink.so")); err == nil {
				pluginDir = d
				return
			}
		}
		d := filepath.Join(TempRoot(t), "plugin")
		args := []string{"build", "-buildmode=c-shared", "-o", filepath.Join(d, "libgstvmafsink.so")}
		if len(buildTags) > 0 {
			args = append(args, "-tags", strings.Join(buildTags, ","))
		}
		args = append(args, "./plugin/vmafsink")
		cmd := exec.Command("go", args...)
		cmd.Dir = RepoRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
			return
		}
		pluginDir = d
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return pluginDir
}

// Env is the environment for GStreamer tools: the plugin on
// GST_PLUGIN_PATH and a registry of the test process's own, so stale or
// concurrent registries elsewhere do not matter.
func Env(t testing.TB, extra ...string) []string {
	dir := PluginDir(t)
	env := append(os.Environ(),
		"GST_PLUGIN_PATH="+dir,
		"GST_REGISTRY="+filepath.Join(TempRoot(t), "registry.bin"),
	)
	return append(env, extra...)
}

// HasLibvmaf reports whether the plugin is built with the libvmaf engine.
func HasLibvmaf() bool { return len(buildTags) > 0 }
