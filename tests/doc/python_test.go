package doc

import (
	"encoding/json"
	"fmt"
	"os"
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
	// The encodes are made here, and an encoder's output may differ from
	// one machine to the next: the scores are checked against what
	// vmaf-score gives for the same files, not against fixed values.
	pooled := func(dist string) float64 {
		t.Helper()
		sh(build + "/vmaf-score -q -r ref.y4m -d " + dist + " --json -o " + dist + ".json")
		var res struct {
			Pooled map[string]struct{ Mean float64 } `json:"pooled_metrics"`
		}
		data, err := os.ReadFile(filepath.Join(dir, dist+".json"))
		if err == nil {
			err = json.Unmarshal(data, &res)
		}
		if err != nil {
			t.Fatalf("%s's results: %v", dist, err)
		}
		return res.Pooled["vmaf"].Mean
	}
	crf38, enc30 := pooled("crf38.mp4"), pooled("enc30.mp4")
	if counts["frame"] != 48 || counts["window"] != 4 || counts["pooled:"] != 1 ||
		!regexp.MustCompile(`(?m)^drop 1 begin: frames \d+-\d+, min \d+\.\d+ below 70`).MatchString(out) ||
		!regexp.MustCompile(`(?m)^drop 1 end: `).MatchString(out) ||
		!strings.Contains(out, fmt.Sprintf("pooled: 48 frames, %.6f\n", crf38)) {
		t.Errorf("element_scores.py printed %v (vmaf-score pools %.6f):\n%s", counts, crf38, out)
	}

	out = sh("/usr/bin/python3 " + root + "/examples/python/score_files.py --vmaf-score " + build + "/vmaf-score ref.y4m crf38.mp4 enc30.mp4")
	for _, want := range []string{fmt.Sprintf("crf38.mp4: vmaf %.3f", crf38), "  worst frames: ", fmt.Sprintf("enc30.mp4: vmaf %.3f", enc30), "  warning: frame rates differ (reference 24 fps, distorted 30 fps)"} {
		if !strings.Contains(out, want) {
			t.Errorf("score_files.py lacks %q:\n%s", want, out)
		}
	}
}
