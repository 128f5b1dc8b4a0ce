package gsttest

import (
	"cmp"
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
	seekSkip string // why the driver cannot be built here
	seekErr  string // why building it failed
)

// SeekRun plays a pipeline with testdata/seekrun.c, which prints the
// VMAF messages as gst-launch -m does and, after the given number of
// frame messages, seeks the pipeline back to 0 with a flushing seek.
// The driver is built once per test process; without a C compiler or
// GStreamer's headers the test is skipped, and a driver that does not
// compile fails it.
func SeekRun(t testing.TB, timeout time.Duration, afterFrames int, description string) *Run {
	t.Helper()
	seekOnce.Do(func() {
		if _, err := exec.LookPath("cc"); err != nil {
			seekSkip = "no C compiler: " + err.Error()
			return
		}
		flags, err := exec.Command("pkg-config", "--cflags", "--libs", "gstreamer-1.0").Output()
		if err != nil {
			seekSkip = "pkg-config gstreamer-1.0: " + err.Error()
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
	switch {
	case seekSkip != "":
		t.Skip(seekSkip)
	case seekBin == "":
		t.Fatal(cmp.Or(seekErr, "seekrun was not built"))
	}
	return launch(t, timeout, seekBin, []string{strconv.Itoa(afterFrames), description}, nil)
}
