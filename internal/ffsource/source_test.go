package ffsource

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/vmaf"
)

// packed copies a picture's planes without their row padding.
func packed(p *vmaf.Picture) []byte {
	var b []byte
	bps := 1
	if p.BitDepth > 8 {
		bps = 2
	}
	for i := 0; i < numPlanes(p.Chroma); i++ {
		w, h := p.PlaneSize(i)
		for y := 0; y < h; y++ {
			b = append(b, p.Planes[i][y*p.Strides[i]:y*p.Strides[i]+w*bps]...)
		}
	}
	return b
}

// decodeAll reads every frame of src, checking each picture is valid.
func decodeAll(t *testing.T, src *Source) ([][]byte, []Frame, error) {
	t.Helper()
	var frames [][]byte
	var meta []Frame
	for {
		f, err := src.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return frames, meta, err
		}
		if verr := f.Picture.Validate(); verr != nil {
			t.Fatalf("frame %d: %v", f.Index, verr)
		}
		frames = append(frames, packed(f.Picture))
		meta = append(meta, Frame{PTS: f.PTS, Duration: f.Duration, Index: f.Index})
		f.Release()
	}
}

func openOrFail(t *testing.T, path string, opts Options) *Source {
	t.Helper()
	src, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}

// Decoding a lossless encode, or a raw stream in another pixel format,
// gives the y4m clip's samples exactly.
func TestDecodeMatchesY4M(t *testing.T) {
	tests := []struct {
		clip, out string
		args      []string
		opts      Options
	}{
		{"flower_576x324_ref.y4m", "flower_ffv1.mkv", []string{"-c:v", "ffv1"}, Options{}},
		{"storm_640x360_ref.y4m", "storm_ffv1.mkv", []string{"-c:v", "ffv1"}, Options{}},
		{"rain_1280x720_ref.y4m", "rain_ffv1.mkv", []string{"-frames:v", "6", "-c:v", "ffv1"}, Options{}},
		// nv12 and p010 go through swscale, which only repacks them.
		{"flower_576x324_ref.y4m", "flower_nv12.nut", []string{"-pix_fmt", "nv12", "-c:v", "rawvideo"}, Options{}},
		{"rain_1280x720_ref.y4m", "rain_p010.yuv", []string{"-frames:v", "6", "-pix_fmt", "p010le", "-f", "rawvideo"},
			Options{InputFormat: "rawvideo", Width: 1280, Height: 720, PixelFormat: "p010le"}},
		{"flower_576x324_ref.y4m", "flower.yuv", []string{"-f", "rawvideo"},
			Options{InputFormat: "rawvideo", Width: 576, Height: 324, PixelFormat: "yuv420p", FrameRate: "25"}},
	}
	for _, tc := range tests {
		t.Run(tc.out, func(t *testing.T) {
			ref := goldenY4M(t, tc.clip)
			format, want := readY4M(t, ref)
			if strings.Contains(strings.Join(tc.args, " "), "-frames:v 6") {
				want = want[:min(6, len(want))]
			}
			src := openOrFail(t, encode(t, ref, tc.out, tc.args...), tc.opts)
			info := src.Info()
			if info.Width != format.Width || info.Height != format.Height || info.BitDepth != format.BitDepth || info.Chroma.String() != format.Chroma {
				t.Fatalf("format %v, y4m has %+v", info.Format, format)
			}
			got, _, err := decodeAll(t, src)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%d frames, y4m has %d", len(got), len(want))
			}
			for i := range want {
				if !bytes.Equal(got[i], want[i]) {
					t.Fatalf("frame %d differs from the y4m clip", i)
				}
			}
		})
	}
}

// A smaller distorted video is scaled to the reference's size only when
// asked to, and a deeper one is converted to the reference's format.
func TestConform(t *testing.T) {
	ref := goldenY4M(t, "flower_576x324_ref.y4m")
	small := encode(t, ref, "flower_half.mkv", "-frames:v", "3", "-vf", "scale=288:162", "-c:v", "ffv1")
	deep := encode(t, ref, "flower_10bit.mkv", "-frames:v", "3", "-pix_fmt", "yuv422p10le", "-c:v", "ffv1")
	target := Format{Width: 576, Height: 324, BitDepth: 8, Chroma: vmaf.Chroma420}

	src := openOrFail(t, small, Options{})
	if err := src.Conform(target, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := src.Next(); err == nil || !strings.Contains(err.Error(), "288x162") {
		t.Fatalf("unscaled smaller frame: got %v, want an error naming 288x162", err)
	}

	for _, path := range []string{small, deep} {
		src := openOrFail(t, path, Options{})
		if err := src.Conform(target, "lanczos"); err != nil {
			t.Fatal(err)
		}
		got, _, err := decodeAll(t, src)
		if err != nil || len(got) != 3 {
			t.Fatalf("%s: %d frames, %v", filepath.Base(path), len(got), err)
		}
		if len(got[0]) != 576*324*3/2 {
			t.Fatalf("%s: picture of %d bytes, want 576x324 4:2:0 8-bit", filepath.Base(path), len(got[0]))
		}
	}
	if err := src.Conform(target, "cubic-ish"); err == nil {
		t.Error("unknown scaling algorithm accepted")
	}
}

// Timestamps survive a dropped frame: the frame after the gap keeps its
// own presentation time.
func TestTimestamps(t *testing.T) {
	ref := goldenY4M(t, "flower_576x324_ref.y4m")
	dropped := encode(t, ref, "flower_drop5.mkv", "-vf", `select=lt(n\,10)*not(eq(n\,5))`,
		"-fps_mode", "passthrough", "-c:v", "ffv1")
	src := openOrFail(t, dropped, Options{})
	_, meta, err := decodeAll(t, src)
	if err != nil {
		t.Fatal(err)
	}
	if len(meta) != 9 {
		t.Fatalf("%d frames, want 9", len(meta))
	}
	if src.Info().FrameRate <= 0 {
		t.Fatal("no frame rate")
	}
	// Matroska keeps milliseconds, so allow for its rounding.
	step := time.Duration(float64(time.Second) / src.Info().FrameRate)
	if absDur(meta[0].Duration-step) > time.Millisecond {
		t.Errorf("duration %v, want %v", meta[0].Duration, step)
	}
	for i, m := range meta {
		n := i
		if i >= 5 {
			n++ // frame 5 was dropped
		}
		if want := meta[0].PTS + time.Duration(n)*step; absDur(m.PTS-want) > time.Millisecond {
			t.Errorf("frame %d at %v, want %v", i, m.PTS, want)
		}
		if m.Index != i {
			t.Errorf("frame %d has index %d", i, m.Index)
		}
	}
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.mp4")
	os.WriteFile(junk, bytes.Repeat([]byte("not a video "), 1000), 0o644)
	audio := ffmpeg(t, "tone.wav", "-f", "lavfi", "-i", "sine=duration=0.5")
	rawNV16 := filepath.Join(dir, "frame.nv16")
	os.WriteFile(rawNV16, make([]byte, 64*64*2), 0o644)
	tests := []struct {
		path string
		opts Options
		want string
	}{
		{filepath.Join(dir, "missing.mkv"), Options{}, "missing.mkv: cannot open: No such file or directory"},
		{junk, Options{}, "junk.mp4: cannot open: Invalid data found when processing input"},
		{audio, Options{}, "tone.wav: no video stream"},
		{audio, Options{InputFormat: "no-such-demuxer"}, `unknown input format "no-such-demuxer"`},
		{goldenY4M(t, "flower_576x324_ref.y4m"), Options{VideoStream: 1}, "no video stream #1 (found 1)"},
		{rawNV16, Options{InputFormat: "rawvideo", Width: 64, Height: 64, PixelFormat: "nv16"},
			"unsupported pixel format nv16 (swscale cannot convert it)"},
	}
	for _, tc := range tests {
		src, err := Open(tc.path, tc.opts)
		if err == nil {
			src.Close()
			t.Errorf("%s: opened", tc.path)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %q, want one line containing %q", tc.path, err, tc.want)
		}
	}
}

// A stream that breaks part-way delivers the frames before the break,
// then an error naming where it stopped.
func TestCorruptMidStream(t *testing.T) {
	ref := goldenY4M(t, "flower_576x324_ref.y4m")
	data, err := os.ReadFile(ref)
	if err != nil {
		t.Fatal(err)
	}
	marks := 0
	for i := bytes.Index(data, []byte("FRAME")); i >= 0; {
		if marks++; marks == 11 {
			copy(data[i:], "XXXXX") // frame 10's header
			break
		}
		next := bytes.Index(data[i+5:], []byte("FRAME"))
		if next < 0 {
			t.Fatal("clip too short")
		}
		i += 5 + next
	}
	broken := filepath.Join(t.TempDir(), "broken.y4m")
	os.WriteFile(broken, data, 0o644)
	src := openOrFail(t, broken, Options{})
	got, _, err := decodeAll(t, src)
	if err == nil || len(got) != 10 {
		t.Fatalf("%d frames then %v; want 10 frames then an error", len(got), err)
	}
	if want := "broken.y4m: reading after frame 10"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q, want it to contain %q", err, want)
	}
	if _, again := src.Next(); again != err {
		t.Errorf("Next after the error: %v", again)
	}
}

// Frames come back through Release; a frame released after Close is
// freed then.
func TestReleaseAfterClose(t *testing.T) {
	ref := goldenY4M(t, "flower_576x324_ref.y4m")
	src, err := Open(encode(t, ref, "flower_ffv1.mkv", "-c:v", "ffv1"), Options{Buffers: 2})
	if err != nil {
		t.Fatal(err)
	}
	a, err := src.Next()
	if err != nil {
		t.Fatal(err)
	}
	b, err := src.Next()
	if err != nil {
		t.Fatal(err)
	}
	first := packed(a.Picture)
	a.Release()
	c, err := src.Next() // decoded into a's frame
	if err != nil || c.Index != 2 {
		t.Fatalf("third frame: index %d, %v", c.Index, err)
	}
	if bytes.Equal(first, packed(c.Picture)) {
		t.Error("third frame equals the first")
	}
	c.Release()
	src.Close()
	if n := len(packed(b.Picture)); n != 576*324*3/2 {
		t.Errorf("held frame has %d bytes after Close", n)
	}
	b.Release()
}

func TestScaleAlgorithms(t *testing.T) {
	names := ScaleAlgorithms()
	if len(names) != len(scaleFlags) || !sort.StringsAreSorted(names) {
		t.Fatalf("names %v", names)
	}
	for _, n := range names {
		if _, err := ParseScaleAlgorithm(n); err != nil {
			t.Error(err)
		}
	}
	if _, err := ParseScaleAlgorithm("cubic"); err == nil {
		t.Error(`"cubic" accepted`)
	}
}

// With whitelists set, a playlist FFmpeg would follow is refused, and a
// container on the list opens as before.
func TestWhitelists(t *testing.T) {
	seg := ffmpeg(t, "segment.ts", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10:duration=1", "-c:v", "mpeg2video")
	list := filepath.Join(t.TempDir(), "list.m3u8")
	os.WriteFile(list, []byte("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\n"+seg+"\n#EXT-X-ENDLIST\n"), 0o644)
	src, err := Open(list, Options{})
	if err != nil {
		t.Fatalf("playlist without whitelists: %v", err)
	}
	src.Close()
	_, err = Open(list, Options{Demuxers: "matroska,mpegts", Protocols: "file"})
	if err == nil || !strings.Contains(err.Error(), "container is not one of matroska,mpegts") {
		t.Errorf("playlist with whitelists: error %v", err)
	}
	src = openOrFail(t, seg, Options{Demuxers: "matroska,mpegts", Protocols: "file"})
	if _, err := src.Next(); err != nil {
		t.Errorf("segment with whitelists: %v", err)
	}
}
