package main

import (
	"strings"
	"testing"
)

// --scale WxH scores both inputs as FFmpeg's scale=W:H:flags=bicubic
// then scoring gives, frame for frame.
func TestScaleMatchesFFmpegFilter(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	vf := []string{"-vf", "scale=640:360:flags=bicubic", "-f", "yuv4mpegpipe", "-strict", "-1"}
	refScaled := encode(t, ref, "ref640.y4m", vf...)
	distScaled := encode(t, dist, "dist640.y4m", vf...)
	want, _ := scoreJSON(t, "-r", refScaled, "-d", distScaled)
	got, res := scoreJSON(t, "-r", ref, "-d", dist, "--scale", "640x360")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	sameScores(t, got, want)
	native, _ := scoreJSON(t, "-r", ref, "-d", dist)
	if got.Pooled["vmaf"]["mean"] == native.Pooled["vmaf"]["mean"] {
		t.Error("--scale 640x360 scored as the native size does")
	}
}

// --scale auto brings a small reference up to 1080p with the 1080p model
// and says so; the scores are those of the size it names.
func TestScaleAuto(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	got, res := scoreJSON(t, "-r", ref, "-d", dist, "--scale", "auto")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if !strings.Contains(res.stderr, "--scale auto: 321x179 scored at 1920x1070 (bicubic scaling) with vmaf_v0.6.1") {
		t.Errorf("stderr %q", res.stderr)
	}
	want, _ := scoreJSON(t, "-r", ref, "-d", dist, "--scale", "1920x1070")
	sameScores(t, got, want)
}

func TestResolveScale(t *testing.T) {
	for _, tc := range []struct {
		w, h         int
		models       []string
		wantW, wantH int
		wantModel    string
	}{
		{576, 324, nil, 1920, 1080, "version=vmaf_v0.6.1"},
		{720, 576, nil, 1350, 1080, "version=vmaf_v0.6.1"},
		{1280, 720, nil, 1920, 1080, "version=vmaf_v0.6.1"},
		{1920, 1080, nil, 1920, 1080, "version=vmaf_v0.6.1"},
		{1728, 720, nil, 1728, 720, "version=vmaf_v0.6.1"}, // 90% wide: kept
		{2560, 1440, nil, 2560, 1440, "version=vmaf_v0.6.1"},
		{3200, 1800, nil, 3840, 2160, "version=vmaf_4k_v0.6.1"},
		{3840, 2160, nil, 3840, 2160, "version=vmaf_4k_v0.6.1"},
		{576, 324, []string{"version=vmaf_v0.6.1neg"}, 1920, 1080, "version=vmaf_v0.6.1neg"}, // -m wins
	} {
		s := &settings{scale: "auto", models: tc.models}
		var said string
		s.resolveScale(tc.w, tc.h, func(m string) { said = m })
		if s.scaleW != tc.wantW || s.scaleH != tc.wantH || s.models[0] != tc.wantModel || said == "" {
			t.Errorf("%dx%d: %dx%d %v, want %dx%d %s", tc.w, tc.h, s.scaleW, s.scaleH, s.models, tc.wantW, tc.wantH, tc.wantModel)
		}
	}
	for _, bad := range []string{"1920", "1919x1080", "0x0", "axb", "1920x1080x3"} {
		if err := parseScale(bad, &settings{}); err == nil {
			t.Errorf("--scale %s accepted", bad)
		}
	}
	if res := vmafScore(t, "-r", "a.yuv", "-d", "b.yuv", "-w", "64", "-h", "64", "-p", "420", "-b", "8", "--scale", "128x128"); res.code != exitUsage || !strings.Contains(res.stderr, "raw .yuv") {
		t.Errorf("raw input with --scale: exit %d, %q", res.code, res.stderr)
	}
}
