package main

import (
	"testing"

	"github.com/asticode/go-astiav"

	"github.com/vmafsink/vmafsink/internal/testclips"
)

// clips are the golden clips and their re-encodings the tests use.
var clips = testclips.New("../..", "vmaf-score-test-")

// FFmpeg's own messages ("Estimating duration from bitrate", ...) would
// bury the test output; the errors reach the tests as values.
func TestMain(m *testing.M) {
	runAsToolIfAsked()
	clips.Main(m, func() { astiav.SetLogLevel(astiav.LogLevelFatal) })
}

func goldenDirs() []string { return clips.Dirs() }

func goldenY4M(t testing.TB, name string) string { t.Helper(); return clips.Y4M(t, name) }

func encode(t testing.TB, in, out string, args ...string) string {
	t.Helper()
	return clips.Encode(t, in, out, args...)
}

func ffmpeg(t testing.TB, out string, args ...string) string {
	t.Helper()
	return clips.FFmpeg(t, out, args...)
}
