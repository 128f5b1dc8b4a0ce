package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// --ref-filter/--dist-filter score exactly what FFmpeg's tool gives when
// it runs the same filters and writes .y4m files that are then scored.
func TestFiltersMatchFFmpeg(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	for _, tc := range []struct {
		name, graph string
		frames      int // 0: as many as the inputs
	}{
		{"crop", "crop=255:141:17:9", 0},
		{"deinterlace", "yadif", 0},
		{"field rate", "bwdif=mode=send_field", 16}, // two frames a frame
		// zscale needs sides its subsampling divides: the crop first.
		{"tone-map", "crop=320:178:0:0,setparams=color_trc=bt709:colorspace=bt709:color_primaries=bt709:range=tv," +
			"zscale=t=linear:npl=100,format=gbrpf32le,tonemap=hable:desat=0,zscale=t=bt709:m=bt709:p=bt709:r=tv,format=yuv420p", 0},
		{"10-bit", "format=yuv420p10le", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vf := []string{"-vf", tc.graph, "-fps_mode", "passthrough", "-f", "yuv4mpegpipe", "-strict", "-1"}
			// Encode keeps its outputs by name.
			tag := strings.ReplaceAll(tc.name, " ", "-")
			refF := encode(t, ref, "ref-"+tag+".y4m", vf...)
			distF := encode(t, dist, "dist-"+tag+".y4m", vf...)
			want, _ := scoreJSON(t, "-r", refF, "-d", distF)
			got, _ := scoreJSON(t, "-r", ref, "-d", dist, "--ref-filter", tc.graph, "--dist-filter", tc.graph)
			sameScores(t, got, want)
			if tc.frames > 0 && len(got.Frames) != tc.frames {
				t.Errorf("%d frames, want %d", len(got.Frames), tc.frames)
			}
		})
	}
}

// The filters come before --scale: a crop then a scale, as ffmpeg -vf
// crop,scale then scoring gives; only the distorted input is filtered
// here, so the reference is scaled as it comes.
func TestFiltersBeforeScale(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	scale := "scale=320:180:flags=bicubic"
	out := []string{"-f", "yuv4mpegpipe", "-strict", "-1"}
	refS := encode(t, ref, "ref-320x180.y4m", append([]string{"-vf", scale}, out...)...)
	distS := encode(t, dist, "dist-hflip-320x180.y4m", append([]string{"-vf", "hflip," + scale}, out...)...)
	want, _ := scoreJSON(t, "-r", refS, "-d", distS)
	got, _ := scoreJSON(t, "-r", ref, "-d", dist, "--dist-filter", "hflip", "--scale", "320x180")
	sameScores(t, got, want)
}

// Raw input is read through FFmpeg when filtered, after the same size
// check the native reader makes.
func TestFiltersOnRawInput(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	raw := []string{"-f", "rawvideo", "-pix_fmt", "yuv420p"}
	refRaw := encode(t, ref, "ref-321x179.yuv", raw...)
	distRaw := encode(t, dist, "dist-321x179.yuv", raw...)
	graph := "crop=200:100:0:0"
	vf := []string{"-vf", graph, "-f", "yuv4mpegpipe"}
	want, _ := scoreJSON(t, "-r", encode(t, ref, "ref-raw-crop.y4m", vf...), "-d", encode(t, dist, "dist-raw-crop.y4m", vf...))
	geometry := []string{"-w", "321", "-h", "179", "-p", "420", "-b", "8"}
	got, _ := scoreJSON(t, append([]string{"-r", refRaw, "-d", distRaw, "--ref-filter", graph, "--dist-filter", graph}, geometry...)...)
	sameScores(t, got, want)

	res := vmafScore(t, "-r", refRaw, "-d", distRaw, "--dist-filter", graph, "-w", "320", "-h", "179", "-p", "420", "-b", "8", "-o", filepath.Join(t.TempDir(), "x.xml"))
	if res.code == 0 || !strings.Contains(res.stderr, "not a whole number") {
		t.Errorf("raw input of the wrong size, filtered: exit %d, %q", res.code, res.stderr)
	}
}

// A bad filter graph is refused before scoring, naming the filter and
// the option it came from.
func TestFilterErrors(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	for _, tc := range []struct {
		opt, graph string
		code       int
		want       []string
	}{
		{"--dist-filter", "cropp=10:10", exitError, []string{`no such FFmpeg filter "cropp"`, "--dist-filter"}},
		{"--ref-filter", "crop=10:10,scale=w=abc", exitError, []string{`filter "scale=w=abc" cannot be set up for 321x179 yuv420p input`, "--ref-filter"}},
		{"--dist-filter", "hflip,crop=4000:10", exitError, []string{`filter "crop=4000:10" cannot be configured for 321x179`}},
		{"--dist-filter", "crop='10:10", exitUsage, []string{"unterminated quote"}},
		{"--dist-filter", "", exitUsage, []string{"should be an FFmpeg filter graph"}},
	} {
		res := vmafScore(t, "-r", ref, "-d", dist, tc.opt, tc.graph, "-o", filepath.Join(t.TempDir(), "x.xml"))
		if res.code != tc.code {
			t.Errorf("%s %q: exit %d, want %d (%s)", tc.opt, tc.graph, res.code, tc.code, res.stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(res.stderr, w) {
				t.Errorf("%s %q: %q does not say %q", tc.opt, tc.graph, res.stderr, w)
			}
		}
	}
	if res := vmafScore(t, "-r", ref, "-d", dist, "--dist-filter", "crop=100:100", "--shard", "0/2", "-o", filepath.Join(t.TempDir(), "p.json")); res.code != exitUsage || !strings.Contains(res.stderr, "frame count") {
		t.Errorf("--dist-filter with --shard: exit %d, %q", res.code, res.stderr)
	}
}

// The MCP tool takes plain chains of picture filters only: none that
// opens a file, and nothing its check could split otherwise than FFmpeg.
func TestMCPFilterCheck(t *testing.T) {
	for _, tc := range []struct {
		chain string
		ok    bool
	}{
		{"crop=1920:800", true},
		{"crop=iw-16:ih-16:8:8,yadif", true},
		{"zscale=t=linear:npl=100,format=gbrpf32le,tonemap=hable,zscale=t=bt709,format=yuv420p", true},
		{"movie=/etc/passwd", false},
		{"crop=10:10,amovie=/etc/passwd", false},
		{"crop=10:10;movie=x", false},
		{"crop=10:10[a];[a]null", false},
		{"crop='10:10',movie=x", false},
		{`crop=10\,movie=x`, false},
		{"lut3d=file=/etc/passwd", false},
		{"sendcmd=f=/etc/passwd", false},
		{"drawtext=textfile=/etc/passwd", false},
		{"crop=10:10, movie=x", false},
	} {
		err := checkMCPFilter("ref_filter", tc.chain)
		if (err == nil) != tc.ok {
			t.Errorf("%q: %v, want allowed %v", tc.chain, err, tc.ok)
		}
	}
}

// Over MCP, ref_filter and dist_filter score as the command line's
// options do; a filter that would open a file is refused before any
// filter runs.
func TestMCPFilesFilters(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	graph := "crop=iw-33:ih-17:5:3,yadif"
	want, _ := scoreJSON(t, "-r", ref, "-d", dist, "--ref-filter", graph, "--dist-filter", graph)
	fs := startFiles(t, "--allow", filepath.Dir(ref), "--output-dir", t.TempDir())
	got, toolErr, err := fs.call(t, context.Background(), map[string]any{"reference": ref, "distorted": dist,
		"ref_filter": graph, "dist_filter": graph, "output": "f.json", "features": []string{"psnr"}}, false)
	if err != nil || toolErr != "" {
		t.Fatalf("call: %v %s", err, toolErr)
	}
	sameScores(t, readLog(t, got.ResultFile), want)
	for _, bad := range []string{"movie=" + ref, "crop=10:10,amovie=" + ref, "crop=10:10[x];movie=" + ref + "[y];[x][y]hstack"} {
		_, toolErr, err := fs.call(t, context.Background(), map[string]any{"reference": ref, "distorted": dist, "dist_filter": bad}, false)
		if err != nil || !strings.Contains(toolErr, "dist_filter") || !strings.Contains(toolErr, "not allowed") {
			t.Errorf("dist_filter %q: %v, tool error %q", bad, err, toolErr)
		}
	}
}
