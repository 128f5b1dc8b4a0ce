package main

import (
	"strconv"
	"strings"
	"testing"
)

// Real clips written as raw .yuv and read with -w and -h swapped (their
// size still divides into whole frames) are scored with a warning naming
// the fix; read as they are, without one.
func TestRawSwappedGeometry(t *testing.T) {
	for _, tc := range []struct {
		ref, dist string
		w, h      int
		depth     int
		pixFmt    string
	}{
		{smallRef, smallDist, 321, 179, 8, "yuv420p"},
		{"flower_576x324_ref.y4m", "flower_576x324_x264_crf22.y4m", 576, 324, 8, "yuv420p"},
		{"storm_640x360_ref.y4m", "storm_640x360_x264_crf35.y4m", 640, 360, 8, "yuv420p"},
		{"rain_1280x720_ref.y4m", "rain_1280x720_x265_crf30.y4m", 1280, 720, 8, "yuv420p"},
		{"storm_640x360_ref.y4m", "storm_640x360_x264_crf35.y4m", 640, 360, 10, "yuv420p10le"},
	} {
		name := strings.TrimSuffix(tc.ref, ".y4m") + "-" + tc.pixFmt
		t.Run(name, func(t *testing.T) {
			raw := []string{"-f", "rawvideo", "-pix_fmt", tc.pixFmt}
			ref := encode(t, goldenY4M(t, tc.ref), name+"-ref.yuv", raw...)
			dist := encode(t, goldenY4M(t, tc.dist), name+"-dist.yuv", raw...)
			geometry := func(w, h int) []string {
				return []string{"-r", ref, "-d", dist, "-w", strconv.Itoa(w), "-h", strconv.Itoa(h), "-p", "420", "-b", strconv.Itoa(tc.depth), "--frame_cnt", "2"}
			}
			_, res := scoreJSON(t, geometry(tc.w, tc.h)...)
			if strings.Contains(res.stderr, "swapped") {
				t.Errorf("right geometry warned: %s", res.stderr)
			}
			fix := "are -w and -h swapped? then -w " + strconv.Itoa(tc.w) + " -h " + strconv.Itoa(tc.h)
			// Read natively, and through FFmpeg.
			for _, extra := range [][]string{nil, {"--ffmpeg"}} {
				_, res = scoreJSON(t, append(geometry(tc.h, tc.w), extra...)...)
				if strings.Count(res.stderr, fix) != 2 {
					t.Errorf("swapped geometry %v: want a warning for each input saying %q, got %q", extra, fix, res.stderr)
				}
			}
		})
	}
}
