package pipelines

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// The element's fps property conforms a 24 fps reference and a 30 fps
// (or 12 fps) encode of it to one rate as vmaf-score --fps does: every
// frame's VMAF is vmaf-score's. Without it the element warns of the
// differing rates on the bus; with it, not.
func TestElementFPSAsCLI(t *testing.T) {
	_, dir := ffSetup(t)
	ref := gsttest.Clip(t, "flower_576x324_ref")
	for _, tc := range []struct{ distRate, fps string }{{"30", "24/1"}, {"12", "24/1"}, {"30", "30000/1001"}} {
		t.Run(tc.distRate+"_to_"+strings.ReplaceAll(tc.fps, "/", "_"), func(t *testing.T) {
			dist := ffClips.FFmpeg(t, "flower-"+tc.distRate+"fps.y4m", "-i", ref, "-vf", "fps="+tc.distRate, "-f", "yuv4mpegpipe")
			out := filepath.Join(dir, "fps-"+tc.distRate+"-"+strings.ReplaceAll(tc.fps, "/", "_")+".json")
			if code, _, stderr := ffShell(t, `"$VMAF" -q -r `+ref+` -d `+dist+` --fps `+tc.fps+` --json -o `+out); code != 0 {
				t.Fatalf("vmaf-score: exit %d: %s", code, stderr)
			}
			want := ffReadFrames(t, out)
			kv, log := pyHostRun(t, nil, "fps_host.py", ref, dist, tc.fps)
			wantKV(t, kv, map[string]string{"eos": "True", "warnings": "0"})
			var got []float64
			for _, line := range strings.Split(log, "\n") {
				f := strings.Fields(line)
				if len(f) != 3 || f[0] != "frame" {
					continue
				}
				v, err := strconv.ParseFloat(f[2], 64)
				if err != nil {
					t.Fatalf("%q: %v", line, err)
				}
				got = append(got, v)
			}
			if len(got) != len(want.Frames) {
				t.Fatalf("element scored %d frames, vmaf-score %d", len(got), len(want.Frames))
			}
			for i, f := range want.Frames {
				// The results file rounds to 6 decimals, as libvmaf's.
				if d := got[i] - f.Metrics["vmaf"]; d > 5e-7 || d < -5e-7 {
					t.Errorf("frame %d: element %.6f, vmaf-score %.6f", i, got[i], f.Metrics["vmaf"])
				}
			}
		})
	}
	// Without fps: scored as the frames come, with the bus warning.
	dist := ffClips.FFmpeg(t, "flower-30fps.y4m", "-i", ref, "-vf", "fps=30", "-f", "yuv4mpegpipe")
	kv, log := pyHostRun(t, nil, "fps_host.py", ref, dist, "none")
	wantKV(t, kv, map[string]string{"eos": "True", "warnings": "1"})
	if !strings.Contains(log, "ref_sink is 24/1 fps but dist_sink is 30/1 fps") || !strings.Contains(log, "set fps") {
		t.Errorf("no rate warning naming the fps property:\n%s", log)
	}
}
