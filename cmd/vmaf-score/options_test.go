package main

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/report"
)

func TestParseArgs(t *testing.T) {
	base := func(mod func(*settings)) *settings {
		s := &settings{ref: "r.y4m", dist: "d.y4m", align: "order"}
		if mod != nil {
			mod(s)
		}
		return s
	}
	tests := []struct {
		name string
		args string
		want *settings
	}{
		{"short", "-r r.y4m -d d.y4m", base(nil)},
		{"attached values", "-rr.y4m -dd.y4m", base(nil)},
		{"long", "--reference r.y4m --distorted=d.y4m", base(nil)},
		{"abbreviated long", "--ref r.y4m --dist d.y4m --thr 4", base(func(s *settings) { s.threads = 4 })},
		{"raw geometry", "-r r.y4m -d d.y4m -w 576 -h 324 -p 422 -b 10",
			base(func(s *settings) { s.width, s.height, s.pixFmt, s.bitDepth, s.raw = 576, 324, "422", 10, true })},
		{"grouped flags and value", "-qn -r r.y4m -d d.y4m", base(func(s *settings) { s.quiet, s.noPrediction = true, true })},
		{"repeatable", "-r r.y4m -d d.y4m -m version=vmaf_v0.6.1 -m path=x.json:name=x --feature psnr --feature float_ssim",
			base(func(s *settings) {
				s.models = []string{"version=vmaf_v0.6.1", "path=x.json:name=x"}
				s.features = []string{"psnr", "float_ssim"}
			})},
		{"output", "-r r.y4m -d d.y4m -o out.json --json", base(func(s *settings) { s.output, s.format, s.formatSet = "out.json", report.JSON, true })},
		{"same format twice", "-r r.y4m -d d.y4m --csv --csv", base(func(s *settings) { s.format, s.formatSet = report.CSV, true })},
		{"frames", "-r r.y4m -d d.y4m --frame_cnt 0x10 --frame_skip_ref 2 --frame_skip_dist 010 --subsample 3",
			base(func(s *settings) { s.frameCnt, s.skipRef, s.skipDist, s.subsample = 16, 2, 8, 3 })},
		{"masks", "-r r.y4m -d d.y4m -c 7 --gpumask 0", base(func(s *settings) { s.cpuMask = 7 })},
		{"own options", "-r r.y4m -d d.mkv --engine native --scale-dist lanczos --align pts --mcp-uds /tmp/s --ffmpeg --progress --model-dir /m",
			base(func(s *settings) {
				s.dist, s.engine, s.scaleDist, s.align, s.mcpSocket = "d.mkv", "native", "lanczos", "pts", "/tmp/s"
				s.modelDirs = []string{"/m"}
				s.useFFmpeg, s.showProgress = true, true
			})},
		{"stdin", "-r - -d d.y4m", base(func(s *settings) { s.ref = "-" })},
		{"streams", "-r r.y4m -d d.y4m --ref-s 1 --dist-stream 2", base(func(s *settings) { s.streams = [2]int{1, 2} })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseArgs(strings.Fields(tc.args))
			if err == nil {
				err = got.check()
			}
			if err != nil {
				t.Fatal(err)
			}
			// What was given, and the one distorted input as the list
			// of them, are bookkeeping.
			got.given, got.valueOf = nil, nil
			tc.want.dists = []string{tc.want.dist}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestParseArgsErrors(t *testing.T) {
	tests := []struct{ args, want string }{
		{"-d d.y4m", "reference (-r/--reference) is required"},
		{"-r r.y4m -d d.y4m --csv --xml", "--csv and --xml both given"},
		{"-r r.y4m", "distorted (-d/--distorted) is required"},
		{"-r r.yuv -d d.yuv -w 576 -h 324", "raw .yuv input needs all of"},
		{"-r - -d -", "only one of --reference and --distorted"},
		{"-r r -d d -b 9", `invalid argument "9" for option -b/--bitdepth; should be a valid bitdepth (8/10/12/16)`},
		{"-r r -d d -p 411", `invalid argument "411" for option -p/--pixel_format`},
		{"-r r -d d --threads many", `invalid argument "many" for option --threads; should be an integer`},
		{"-r r -d d --threads -1", `invalid argument "-1" for option --threads`},
		{"-r r -d d --frame", "option --frame is ambiguous"},
		{"-r r -d d --nosuch", "unknown option --nosuch"},
		{"-r r -d d -x", "unknown option -x"},
		{"-r r -d d -m", "option -m/--model needs an argument"},
		{"-r r -d d --json=yes", "option --json takes no argument"},
		{"-r r -d d extra", `unexpected argument "extra"`},
		{"-r r -d d --feature cambi=nosuch=1", `feature cambi: unknown option "nosuch"`},
		{"-r r -d d --feature nosuch", `unknown feature "nosuch"`},
		{"-r r -d d --feature float_ssim=scale=11", `feature float_ssim: option scale="11": outside 0..10`},
		{"-r r -d d --feature psnr=enable_chroma", `feature psnr: option "enable_chroma": want name=value`},
		{"-r r -d d --aom_ctc v9.0", `bad aom_ctc version "v9.0"`},
		{"-r r -d d --aom_ctc proposed", "deprecated"},
		{"-r r -d d --nflx_ctc v2.0", `bad nflx_ctc version "v2.0"`},
		{"-r r -d d --scale-dist cubic", `invalid argument "cubic" for option --scale-dist`},
		{"-r r -d d --align time", `invalid argument "time" for option --align`},
		{"-r r -d d --engine gpu", `invalid argument "gpu" for option --engine`},
	}
	for _, tc := range tests {
		s, err := parseArgs(strings.Fields(tc.args))
		if err == nil {
			err = s.check()
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.args, err, tc.want)
		}
	}
}

func TestKindOf(t *testing.T) {
	tests := []struct {
		args string
		path string
		dist bool
		want inputKind
	}{
		{"-r a -d b", "clip.y4m", false, readY4M},
		{"-r a -d b", "CLIP.Y4M", true, readY4M},
		{"-r a -d b", "clip.mkv", false, readFFmpeg},
		{"-r a -d b", "-", false, readFFmpeg},
		{"-r a -d b -w 8 -h 8 -p 420 -b 8", "clip.yuv", false, readRaw},
		{"-r a -d b -w 8 -h 8 -p 420 -b 8", "-", true, readRaw},
		{"-r a -d b --ffmpeg", "clip.y4m", false, readFFmpeg},
		{"-r a -d b --scale-dist bicubic", "clip.y4m", false, readY4M},
		{"-r a -d b --scale-dist bicubic", "clip.y4m", true, readFFmpeg},
	}
	for _, tc := range tests {
		s, err := parseArgs(strings.Fields(tc.args))
		if err != nil {
			t.Fatal(err)
		}
		if got := s.kindOf(tc.path, tc.dist); got != tc.want {
			t.Errorf("%s: %s (dist %v) read as %d, want %d", tc.args, tc.path, tc.dist, got, tc.want)
		}
	}
}

func TestUsageListsEveryOption(t *testing.T) {
	var b bytes.Buffer
	writeUsage(&b)
	for _, o := range options {
		if !strings.Contains(b.String(), "--"+o.long) {
			t.Errorf("usage misses --%s", o.long)
		}
	}
}
