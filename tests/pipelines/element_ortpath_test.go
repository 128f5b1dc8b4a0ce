package pipelines

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// TestElementRuntimeBesideRelativePlugin starts gst-launch in a folder
// holding plugins/ (the plugin and ONNX Runtime's library beside it, as
// the build lays them out) with GST_PLUGIN_PATH=plugins and no
// VMAF_ORT_LIBRARY. GStreamer then loads the plugin by a relative name,
// and a learned model must still find the library beside it: five
// no-reference frames scored, no error.
func TestElementRuntimeBesideRelativePlugin(t *testing.T) {
	pluginDir := gsttest.PluginDir(t)
	lib := os.Getenv("VMAF_ORT_LIBRARY")
	if lib == "" {
		lib = filepath.Join(pluginDir, "libonnxruntime.so.1")
	}
	if _, err := os.Stat(lib); err != nil {
		t.Fatalf("ONNX Runtime's library is needed (scripts/deps.sh installs it; or name it with VMAF_ORT_LIBRARY): %v", err)
	}
	lib, err := filepath.Abs(lib)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	plugins := filepath.Join(root, "plugins")
	if err := os.Mkdir(plugins, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{
		"libgstvmafsink.so":   filepath.Join(pluginDir, "libgstvmafsink.so"),
		"libonnxruntime.so.1": lib,
	} {
		if err := os.Symlink(target, filepath.Join(plugins, name)); err != nil {
			t.Fatal(err)
		}
	}
	model := filepath.Join(tinyModels(t), "nr_metric_v1.onnx")
	description := fmt.Sprintf("videotestsrc num-buffers=5 ! video/x-raw,format=I420,width=160,height=120 ! "+
		"v.dist_sink vmafsink name=v no-reference=true model=path=%s", model)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "gst-launch-1.0", append([]string{"-m", "-f"}, strings.Fields(description)...)...)
	cmd.Dir = root
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "VMAF_ORT_LIBRARY=") || strings.HasPrefix(kv, "LD_LIBRARY_PATH=")
	})
	cmd.Env = append(env, "GST_PLUGIN_PATH=plugins",
		"GST_REGISTRY="+filepath.Join(root, "registry.bin"))
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("gst-launch-1.0 did not end within 2 minutes:\n%s", out)
	}
	if err != nil {
		t.Fatalf("gst-launch-1.0 with GST_PLUGIN_PATH=plugins: %v\n%s", err, out)
	}
	run := &gsttest.Run{Output: string(out), Messages: gsttest.ParseMessages(string(out))}
	if n := len(run.Frames()); n != 5 {
		t.Fatalf("%d frames scored, want 5:\n%s", n, out)
	}
}
