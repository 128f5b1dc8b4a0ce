package ffsource

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/vmaf"
)

// A filter graph's output is what Next delivers: the samples, size,
// format, rate and timestamps the ffmpeg tool gives for the same -vf.
func TestFilterGraph(t *testing.T) {
	in := goldenY4M(t, "flower_321x179_ref.y4m")
	for _, tc := range []struct {
		graph         string
		w, h, depth   int
		chroma        vmaf.Chroma
		frames        int
		rate          float64
		firstDuration time.Duration
	}{
		{"crop=200:100:10:20", 200, 100, 8, vmaf.Chroma420, 8, 24, time.Second / 24},
		{"format=yuv444p10le", 321, 179, 10, vmaf.Chroma444, 8, 24, time.Second / 24},
		{"bwdif=mode=send_field", 321, 179, 8, vmaf.Chroma420, 16, 48, time.Second / 48},
	} {
		t.Run(tc.graph, func(t *testing.T) {
			src := openOrFail(t, in, Options{Filter: tc.graph})
			info := src.Info()
			if info.Width != tc.w || info.Height != tc.h || info.BitDepth != tc.depth || info.Chroma != tc.chroma || info.FrameRate != tc.rate {
				t.Fatalf("info %v at %v fps, want %dx%d %s %d-bit at %v", info.Format, info.FrameRate, tc.w, tc.h, tc.chroma, tc.depth, tc.rate)
			}
			got, meta, err := decodeAll(t, src)
			if err != nil {
				t.Fatal(err)
			}
			name := strings.NewReplacer("=", "-", ":", "-", ",", "-").Replace(tc.graph) + ".y4m"
			_, want := readY4M(t, encode(t, in, name, "-vf", tc.graph, "-fps_mode", "passthrough", "-strict", "-1", "-f", "yuv4mpegpipe"))
			if len(got) != tc.frames || len(want) != tc.frames {
				t.Fatalf("%d frames, the ffmpeg tool's %d, want %d", len(got), len(want), tc.frames)
			}
			for i := range want {
				if !bytes.Equal(got[i], want[i]) {
					t.Fatalf("frame %d differs from the ffmpeg tool's", i)
				}
			}
			if absDur(meta[0].Duration-tc.firstDuration) > time.Nanosecond || absDur(meta[1].PTS-meta[0].PTS-tc.firstDuration) > time.Nanosecond {
				t.Errorf("timing: first %v lasting %v, second at %v", meta[0].PTS, meta[0].Duration, meta[1].PTS)
			}
			if names := src.Filters(); len(names) < 3 || names[0] != "buffer" {
				t.Errorf("filters %v", names)
			}
		})
	}
}

func TestFilterGraphErrors(t *testing.T) {
	in := goldenY4M(t, "flower_321x179_ref.y4m")
	for graph, want := range map[string]string{
		"nosuchfilter":         `no such FFmpeg filter "nosuchfilter"`,
		"crop=10:10,scale=w=x": `filter "scale=w=x" cannot be set up for 321x179 yuv420p input`,
		"crop=400:100":         `filter "crop=400:100" cannot be configured for 321x179 yuv420p input`,
		"crop='1:1":            "unterminated quote",
	} {
		_, err := Open(in, Options{Filter: graph})
		var fe *FilterError
		if err == nil || !errors.As(err, &fe) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want a FilterError saying %q", graph, err, want)
		}
	}
	src := openOrFail(t, in, Options{Filter: "crop=100:100"})
	var ns *NotSought
	if err := src.SkipFrames(3); !errors.As(err, &ns) {
		t.Errorf("SkipFrames with a filter: %v, want a NotSought", err)
	}
}
