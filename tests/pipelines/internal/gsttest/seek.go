package gsttest

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	seekOnce sync.Once
	seekBin  string
	seekErr  string
)

// SeekRun plays a pipeline with testdata/seekrun.c, which prints the
// VMAF messages as gst-launch -m does and, after the given number of
// frame messages, seeks the pipeline back to 0 with a flushing seek.
// The driver is built once per test process; without a C compiler or
// GStreamer's headers the test is skipped.
func SeekRun(t testing.TB, timeout time.Duration, afterFrames int, description string) *Run {
	t.Helper()
	seekOnce.Do(func() {
		flags, err := exec.Command("pkg-config", "--cflags", "--libs", "gstreamer-1.0").Output()
		if err != nil {
			seekErr = "pkg-config gstreamer-1.0: " + err.Error()
			return
		}
		bin := filepath.Join(TempRoot(t), "seekrun")
		src := filepath.Join(RepoRoot(t), "tests", "pipelines", "internal", "gsttest", "testdata", "seekrun.c")
		args := append([]string{"-O1", "-o", bin, src}, strings.Fields(string(flags))...)
		if out, err := exec.Command("cc", args...).CombinedOutput(); err != nil {
			seekErr = "cc seekrun.c: " + err.Error() + "\n" + string(out)
			return
		}
		seekBin = bin
	})
	if seekBin == "" {
		t.Skip(seekErr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, seekBin, strconv.Itoa(afterFrames), description)
	cmd.Env = Env(t)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("seekrun did not finish within %v (deadlock?):\n%s", timeout, tail(out.String()))
	}
	run := &Run{Output: out.String(), Err: err, Messages: ParseMessages(out.String())}
	if ps := cmd.ProcessState; ps != nil {
		run.CPU = ps.UserTime() + ps.SystemTime()
	}
	return run
}
