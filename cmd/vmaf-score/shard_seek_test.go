package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestShardSeeksFFmpegInput checks that a part of an FFmpeg input with
// keyframes before it seeks to the nearest one instead of decoding from
// the start, and that the parts still join as one run; and that an input
// that cannot be mapped to timestamps (a raw H.264 stream) says so once
// and reads from the start, with the same result.
func TestShardSeeksFFmpegInput(t *testing.T) {
	ref := goldenY4M(t, "flower_576x324_ref.y4m")
	x264 := []string{"-c:v", "libx264", "-crf", "30", "-g", "12", "-keyint_min", "12", "-sc_threshold", "0", "-bf", "2", "-preset", "veryfast"}
	cases := []struct {
		name  string
		file  string
		seeks bool
	}{
		{"mp4", "shard_seek_g12.mp4", true},
		{"mkv", "shard_seek_g12.mkv", true},
		{"h264 stream", "shard_seek_g12.h264", false},
	}
	for _, cs := range cases {
		t.Run(cs.name, func(t *testing.T) {
			dist := encode(t, ref, cs.file, x264...)
			dir := t.TempDir()
			run := []string{"-r", ref, "-d", dist, "--json", "--feature", "float_motion"}
			whole := filepath.Join(dir, "whole.json")
			mustScore(t, append(run, "-q", "-o", whole)...)
			const n = 5
			var parts []string
			for i := range n {
				part := filepath.Join(dir, fmt.Sprintf("part%d.json", i))
				r := mustScore(t, append(run, "-o", part, "--shard", fmt.Sprintf("%d/%d", i, n))...)
				parts = append(parts, part)
				sec, _, err := readPart(part)
				if err != nil {
					t.Fatal(err)
				}
				if sec.Decoded[0] != -1 {
					t.Errorf("part %d: the .y4m reference decoded %d frames; want -1 (read, not decoded)", i, sec.Decoded[0])
				}
				fallback := strings.Count(r.stderr, "decoding from the start")
				if i < n-1 {
					continue
				}
				// The last part starts past three keyframes: seeking
				// decodes fewer frames than those dropped before it.
				if cs.seeks {
					if sec.Decoded[1] >= sec.Read[0] {
						t.Errorf("last part read frames %v and decoded %d: it did not seek", sec.Read, sec.Decoded[1])
					}
					if fallback != 0 {
						t.Errorf("last part fell back: %s", r.stderr)
					}
				} else {
					if sec.Decoded[1] < sec.Read[1] {
						t.Errorf("last part read frames %v and decoded %d; want decoding from the start", sec.Read, sec.Decoded[1])
					}
					if fallback != 1 {
						t.Errorf("last part said %d times it decodes from the start; want once: %q", fallback, r.stderr)
					}
				}
			}
			merged := filepath.Join(dir, "merged.json")
			mustScore(t, append([]string{"merge", "-o", merged}, parts...)...)
			sameDocument(t, whole, merged)
		})
	}
}
