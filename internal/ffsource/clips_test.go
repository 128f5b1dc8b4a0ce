package ffsource

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/asticode/go-astiav"

	"github.com/vmafsink/vmafsink/internal/testclips"
	"github.com/vmafsink/vmafsink/internal/y4m"
)

// clips are the golden clips and their re-encodings the tests use.
var clips = testclips.New("../..", "ffsource-test-")

// FFmpeg's own messages ("Estimating duration from bitrate", ...) would
// bury the test output; the errors reach the tests as values.
func TestMain(m *testing.M) { clips.Main(m, func() { astiav.SetLogLevel(astiav.LogLevelFatal) }) }

func goldenY4M(t testing.TB, name string) string { t.Helper(); return clips.Y4M(t, name) }

func encode(t testing.TB, in, out string, args ...string) string {
	t.Helper()
	return clips.Encode(t, in, out, args...)
}

func ffmpeg(t testing.TB, out string, args ...string) string {
	t.Helper()
	return clips.FFmpeg(t, out, args...)
}

// readY4M reads every frame of a y4m file, tightly packed.
func readY4M(t testing.TB, path string) (y4m.Format, [][]byte) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := y4m.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var frames [][]byte
	for {
		fr := y4m.NewFrame(r.Format())
		if err := r.ReadFrame(fr); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		frames = append(frames, bytes.Join(fr.Planes[:r.Format().NumPlanes()], nil))
	}
	return r.Format(), frames
}
