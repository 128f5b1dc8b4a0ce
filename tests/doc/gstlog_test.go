package doc

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gstLogLines is how much of each process's GStreamer log a failed
// block's report shows: its end, where a run's EOS summary is.
const gstLogLines = 20

// gstLogEnv sends GStreamer's debug log to dir, a file per process.
func gstLogEnv(dir string) []string {
	return []string{
		"GST_DEBUG=*:1,vmafsink:4,vmafpass:4",
		"GST_DEBUG_NO_COLOR=1",
		"GST_DEBUG_FILE=" + filepath.Join(dir, "gst-%p.log"),
	}
}

// clearDir empties dir, so that it holds one block's logs.
func clearDir(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
}

// gstLogTails is the end of each non-empty log in dir, for a report.
func gstLogTails(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Sprintf("--- GStreamer logs: %v\n", err)
	}
	var b strings.Builder
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil || len(data) == 0 {
			continue
		}
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		fmt.Fprintf(&b, "--- GStreamer log %s (last %d of %d lines)\n%s\n", e.Name(),
			min(gstLogLines, len(lines)), len(lines), strings.Join(lines[max(0, len(lines)-gstLogLines):], "\n"))
	}
	return b.String()
}
