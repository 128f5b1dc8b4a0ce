package pipelines

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// ortOracleDir is tests/ort-oracle with its ONNX Runtime for Node
// installed from the lock file (the package's own install script, which
// downloads, is not run: the library ships in the package).
func ortOracleDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(gsttest.RepoRoot(t), "tests", "ort-oracle")
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed for the ONNX Runtime oracle (scripts/deps.sh installs nodejs and npm)", tool)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "onnxruntime-node", "bin")); err != nil {
		cmd := exec.Command("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "ONNXRUNTIME_NODE_INSTALL=skip")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
		}
	}
	return dir
}

// TestLearnedCodecOracle checks the codec-aware regressors against ONNX
// Runtime run from Node (tests/ort-oracle/regress.mjs), which lays out
// their inputs from the card alone and is fed libvmaf 3.2.0's own
// features (testdata/goldens/scores): vmaf-score's per-frame scores, on
// its own features, within 5e-4, for each golden pair's real encoder and
// crf at FFmpeg's default preset.
func TestLearnedCodecOracle(t *testing.T) {
	dir := ortOracleDir(t)
	bin, _ := ffSetup(t)
	tiny := tinyModels(t)
	worst := map[string]float64{}
	for _, c := range []struct{ ref, pair, encoder, crf string }{
		{"flower_576x324", "flower_576x324_x264_crf22", "libx264", "22"},
		{"flower_321x179", "flower_321x179_x264_crf30", "libx264", "30"},
		{"storm_640x360", "storm_640x360_x264_crf35", "libx264", "35"},
		{"rain_1280x720", "rain_1280x720_x265_crf30", "libx265", "30"},
	} {
		t.Run(c.pair, func(t *testing.T) {
			ref, dist := gsttest.Clip(t, c.ref+"_ref"), gsttest.Clip(t, c.pair)
			codec := fmt.Sprintf("codec=%s:preset=medium:crf=%s", c.encoder, c.crf)
			out := filepath.Join(t.TempDir(), "scores.json")
			args := []string{"-r", ref, "-d", dist, "-q", "--threads", "2", "--json", "-o", out}
			for _, m := range []string{"fr_regressor_v2", "fr_regressor_v3"} {
				args = append(args, "-m", "path="+filepath.Join(tiny, m+".onnx")+":"+codec)
			}
			if b, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
				t.Fatalf("vmaf-score: %v\n%s", err, b)
			}
			ours := ffReadFrames(t, out).Frames
			scores := filepath.Join(gsttest.RepoRoot(t), "testdata", "goldens", "scores", c.pair+".vmaf.json")
			for _, m := range []string{"fr_regressor_v2", "fr_regressor_v3"} {
				cmd := exec.Command("node", "regress.mjs", filepath.Join(tiny, m+".onnx"), scores, c.encoder, "medium", c.crf)
				cmd.Dir = dir
				b, err := cmd.Output()
				if err != nil {
					t.Fatalf("node regress.mjs %s: %v\n%s", m, err, b)
				}
				var oracle []float64
				if err := json.Unmarshal(b, &oracle); err != nil {
					t.Fatalf("node regress.mjs %s printed %q: %v", m, b, err)
				}
				if len(oracle) != len(ours) || len(ours) == 0 {
					t.Fatalf("%s: %d frames, the oracle %d", m, len(ours), len(oracle))
				}
				for i, f := range ours {
					got, ok := f.Metrics[m]
					if !ok {
						t.Fatalf("frame %d has no %s", i, m)
					}
					d := math.Abs(got - oracle[i])
					worst[m] = max(worst[m], d)
					if d > 5e-4 {
						t.Errorf("%s frame %d: %.6f, ONNX Runtime on libvmaf's features %.6f", m, i, got, oracle[i])
					}
				}
			}
		})
	}
	t.Logf("worst |ours - ONNX Runtime| per frame: %v", worst)
}
