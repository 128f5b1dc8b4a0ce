package doc

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The Python examples: the element driven through GObject introspection
// (frames, windows, drops and the pooled score read from the bus), and
// vmaf-score run and its JSON read (scores, worst frames, warnings).
func TestPythonExamples(t *testing.T) {
	root, build := checkout(t)
	dir := t.TempDir()
	sh := func(script string) string {
		t.Helper()
		cmd := exec.Command("bash", "-e", "-o", "pipefail", "-c", script)
		cmd.Dir, cmd.Env = dir, blockEnv(t, build)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", script, err, out)
		}
		return string(out)
	}
	clips := filepath.Join(root, "testdata", "goldens", "clips")
	sh("xz -dc " + clips + "/flower_576x324_ref.y4m.xz > ref.y4m && " +
		"ffmpeg -loglevel error -y -i ref.y4m -c:v libx264 -crf 38 crf38.mp4 && " +
		"ffmpeg -loglevel error -y -i ref.y4m -vf fps=30 -c:v libx264 -crf 23 enc30.mp4")

	out := sh("/usr/bin/python3 " + root + "/examples/python/element_scores.py ref.y4m crf38.mp4 70")
	counts := map[string]int{}
	for _, l := range strings.Split(out, "\n") {
		counts[strings.SplitN(l, " ", 2)[0]]++
	}
	if counts["frame"] != 48 || counts["window"] != 4 || counts["pooled:"] != 1 ||
		!regexp.MustCompile(`(?m)^drop 1 begin: frames \d+-\d+, min \d+\.\d+ below 70`).MatchString(out) ||
		!regexp.MustCompile(`(?m)^drop 1 end: `).MatchString(out) ||
		!regexp.MustCompile(`(?m)^pooled: 48 frames, 75\.\d{6}$`).MatchString(out) {
		t.Errorf("element_scores.py printed %v:\n%s", counts, out)
	}

	out = sh("/usr/bin/python3 " + root + "/examples/python/score_files.py --vmaf-score " + build + "/vmaf-score ref.y4m crf38.mp4 enc30.mp4")
	for _, want := range []string{"crf38.mp4: vmaf 75.", "  worst frames: ", "enc30.mp4: vmaf 8.", "  warning: frame rates differ (reference 24 fps, distorted 30 fps)"} {
		if !strings.Contains(out, want) {
			t.Errorf("score_files.py lacks %q:\n%s", want, out)
		}
	}
}
