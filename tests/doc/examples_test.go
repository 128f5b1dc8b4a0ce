package doc

import (
	"context"
	"net"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"
)

type exampleCase struct {
	script string
	args   []string
	want   []*regexp.Regexp
}

// The scripts in examples/gst-launch run as their usage says, each
// printing every frame's score and the pooled one.
func TestExampleScripts(t *testing.T) {
	root, build := checkout(t)
	frameLine := regexp.MustCompile(`(?m)^frame \d+  vmaf \d`)
	pooledLine := regexp.MustCompile(`(?m)^pooled: (\d+) frames, vmaf \d`)
	scores := []*regexp.Regexp{frameLine, pooledLine}
	cases := []exampleCase{
		{"two-files.sh", nil, scores},
		{"ten-bit.sh", nil, scores},
		{"live-encode.sh", []string{"30", "speed-preset=ultrafast"}, scores},
		{"encoded-vs-source.sh", nil, scores},
		{"control-socket.sh", []string{freePort(t)}, []*regexp.Regexp{
			regexp.MustCompile(`(?m)^pause \(command 1\) applied at frame \d+`),
			regexp.MustCompile(`(?m)^resume \(command 2\) applied at frame \d+`),
			regexp.MustCompile(`(?m)^frame +\d+  vmaf_v0.6.1  \d`),
			regexp.MustCompile(`(?m)^vmaf_frames_scored_total\{element="v"\} [1-9]`),
		}},
	}
	// A script added to the folder is run here too: each needs its case.
	scripts, err := filepath.Glob(filepath.Join(root, "examples", "gst-launch", "*.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range scripts {
		name := filepath.Base(p)
		if name != "common.sh" && !slices.ContainsFunc(cases, func(c exampleCase) bool { return c.script == name }) {
			t.Errorf("examples/gst-launch/%s has no case in TestExampleScripts", name)
		}
	}
	for _, tc := range cases {
		t.Run(tc.script, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, filepath.Join(root, "examples", "gst-launch", tc.script), tc.args...)
			cmd.Dir = t.TempDir()
			cmd.Env = append(blockEnv(t, build), "TMPDIR="+cmd.Dir)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			for _, re := range tc.want {
				if !re.Match(out) {
					t.Errorf("no line matching %s in:\n%s", re, out)
				}
			}
		})
	}
}

// freePort is a loopback port free when asked.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}
