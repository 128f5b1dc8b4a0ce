package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/asticode/go-astiav"

	"github.com/vmafsink/vmafsink/internal/testclips"
)

var clips = testclips.New("../..", "vmaf-tune-clips-")

func TestMain(m *testing.M) {
	clips.Main(m, func() { astiav.SetLogLevel(astiav.LogLevelFatal) })
}

// runTune runs the command in-process and returns its exit status,
// standard output and standard error.
func runTune(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, bytes.NewReader(nil), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

var (
	scoreOnce sync.Once
	scoreBin  string
	scoreErr  error
)

// vmafScore is the vmaf-score binary: meson's, or one built here.
func vmafScore(t testing.TB) string {
	t.Helper()
	scoreOnce.Do(func() {
		if b := os.Getenv("VMAFSINK_BUILD_DIR"); b != "" {
			scoreBin = filepath.Join(b, "vmaf-score")
			if _, scoreErr = os.Stat(scoreBin); scoreErr == nil {
				return
			}
		}
		dir, err := os.MkdirTemp("", "vmaf-tune-test-")
		if err != nil {
			scoreErr = err
			return
		}
		scoreBin = filepath.Join(dir, "vmaf-score")
		if out, err := exec.Command("go", "build", "-o", scoreBin, "../vmaf-score").CombinedOutput(); err != nil {
			scoreErr = &buildError{err, string(out)}
		}
	})
	if scoreErr != nil {
		t.Fatal(scoreErr)
	}
	return scoreBin
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "building vmaf-score: " + e.err.Error() + ": " + e.out }

func contains(s, sub string) bool { return strings.Contains(s, sub) }
