package pipelines

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// TestElementComponentFormats: frames converted by videoconvert to each of the
// formats read through per-component views (YV12, NV12, NV21, P010,
// P012), on one pad or both, score exactly as the same frames in the
// planar format of their depth, PSNR's chroma included.
func TestElementComponentFormats(t *testing.T) {
	cases := []struct {
		clip, planar string
		pairs        [][2]string
	}{
		{"flower_321x179", "I420", [][2]string{{"YV12", "YV12"}, {"NV12", "NV12"}, {"NV21", "I420"}, {"I420", "NV12"}}},
		{"storm420p12_177x177", "I420_10LE", [][2]string{{"P010_10LE", "P010_10LE"}, {"P010_10LE", "I420_10LE"}}},
		{"storm420p12_177x177", "I420_12LE", [][2]string{{"P012_LE", "P012_LE"}}},
	}
	dists := map[string]string{"flower_321x179": "flower_321x179_x264_crf30", "storm420p12_177x177": "storm420p12_177x177_x265_crf28"}
	dir := t.TempDir()
	score := func(clip, refFormat, distFormat string) []gsttest.ResultFrame {
		out := filepath.Join(dir, fmt.Sprintf("%s-%s-%s.json", clip, refFormat, distFormat))
		// rawvideoparse reads the clips of every depth; videoconvert then
		// (without dithering) only repacks or rescales the samples.
		ref := gsttest.RawSource(t, gsttest.Clip(t, clip+"_ref"))
		dist := gsttest.RawSource(t, gsttest.Clip(t, dists[clip]))
		gsttest.LaunchQuiet(t, 2*time.Minute, fmt.Sprintf(
			"%s ! videoconvert dither=none ! video/x-raw,format=%s ! v.ref_sink "+
				"%s ! videoconvert dither=none ! video/x-raw,format=%s ! v.dist_sink "+
				"vmafsink name=v frame-message=false psnr=true results-filename=%s results-format=json",
			ref, refFormat, dist, distFormat, out)).MustSucceed(t)
		return gsttest.ReadResults(t, out, "json")
	}
	for _, c := range cases {
		want := score(c.clip, c.planar, c.planar)
		if len(want) == 0 {
			t.Fatalf("%s: no frames scored in %s", c.clip, c.planar)
		}
		for _, p := range c.pairs {
			t.Run(c.clip+"/"+p[0]+"-"+p[1], func(t *testing.T) {
				got := score(c.clip, p[0], p[1])
				if len(got) != len(want) {
					t.Fatalf("%d frames, %s scored %d", len(got), c.planar, len(want))
				}
				for i := range want {
					for k, v := range want[i].Metrics {
						if g, ok := got[i].Metrics[k]; !ok || g != v {
							t.Errorf("frame %d %s = %v, %s gives %v", i, k, g, c.planar, v)
						}
					}
				}
			})
		}
	}
}
