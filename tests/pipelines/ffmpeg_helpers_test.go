package pipelines

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/vmafsink/vmafsink/internal/testclips"
)

// End-to-end tests of vmaf-score's FFmpeg path, run as a user would: the
// built binary ($VMAFSINK_BUILD_DIR/vmaf-score under meson, otherwise
// built here), clips from the goldens, ffmpeg and shell pipes.

var (
	ffOnce    sync.Once
	ffDir     string
	ffBinary  string
	ffInitErr error
)

// ffClips gives these tests golden clips and clips made with ffmpeg.
var ffClips = testclips.New("../..", "vmaf-score-e2e-clips-")

func TestMain(m *testing.M) {
	code := m.Run()
	ffClips.Cleanup()
	if ffDir != "" {
		os.RemoveAll(ffDir)
	}
	os.Exit(code)
}

// setup returns the vmaf-score binary and a scratch directory shared by
// the tests of this binary.
func ffSetup(t *testing.T) (binary, dir string) {
	t.Helper()
	ffOnce.Do(func() {
		if ffDir, ffInitErr = os.MkdirTemp("", "vmaf-score-e2e-"); ffInitErr != nil {
			return
		}
		if b := os.Getenv("VMAFSINK_BUILD_DIR"); b != "" {
			ffBinary = filepath.Join(b, "vmaf-score")
			if _, ffInitErr = os.Stat(ffBinary); ffInitErr == nil {
				return
			}
		}
		ffBinary = filepath.Join(ffDir, "vmaf-score")
		out, err := exec.Command("go", "build", "-o", ffBinary, "../../cmd/vmaf-score").CombinedOutput()
		if err != nil {
			ffInitErr = &ffBuildError{err, string(out)}
		}
	})
	if ffInitErr != nil {
		t.Fatal(ffInitErr)
	}
	for _, tool := range []string{"ffmpeg", "xz", "sh"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed for these tests", tool)
		}
	}
	return ffBinary, ffDir
}

type ffBuildError struct {
	err error
	out string
}

func (e *ffBuildError) Error() string { return "building vmaf-score: " + e.err.Error() + ": " + e.out }

// shell runs a shell pipeline with $VMAF set to the binary and returns its
// exit status, stdout and stderr.
func ffShell(t *testing.T, script string) (int, string, string) {
	t.Helper()
	bin, _ := ffSetup(t)
	cmd := exec.Command("sh", "-c", script)
	cmd.Env = append(os.Environ(), "VMAF="+bin)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

type ffFrameLog struct {
	Frames []struct {
		FrameNum int                `json:"frameNum"`
		Model    string             `json:"model"`
		Metrics  map[string]float64 `json:"metrics"`
	} `json:"frames"`
	Pooled map[string]map[string]float64 `json:"pooled_metrics"`
}

func ffReadFrames(t *testing.T, path string) *ffFrameLog {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var l ffFrameLog
	if err := json.Unmarshal(data, &l); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &l
}

func ffSameFrames(t *testing.T, got, want *ffFrameLog) {
	t.Helper()
	if len(got.Frames) != len(want.Frames) || len(want.Frames) == 0 {
		t.Fatalf("%d frames, want %d", len(got.Frames), len(want.Frames))
	}
	for i := range want.Frames {
		for name, v := range want.Frames[i].Metrics {
			if got.Frames[i].Metrics[name] != v {
				t.Fatalf("frame %d %s: %v, want %v", i, name, got.Frames[i].Metrics[name], v)
			}
		}
	}
}
