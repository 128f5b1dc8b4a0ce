package gsttest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/vmafsink/vmafsink/internal/y4m"
	"github.com/vmafsink/vmafsink/vmaf"
)

var clipMu sync.Mutex

// Clip returns the path of a golden clip from testdata/goldens/clips,
// decompressed once per test process. End-to-end tests read only the
// repository's copies, not the order of testclips.Dirs, so that their
// length and run time do not depend on the shared set being present.
func Clip(t testing.TB, name string) string {
	t.Helper()
	clipMu.Lock()
	defer clipMu.Unlock()
	out := filepath.Join(TempRoot(t), name+".y4m")
	if _, err := os.Stat(out); err == nil {
		return out
	}
	src := filepath.Join(RepoRoot(t), "testdata", "goldens", "clips", name+".y4m.xz")
	cmd := exec.Command("xz", "-dc", src)
	f, err := os.Create(out + ".tmp")
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = f
	if err := cmd.Run(); err != nil {
		f.Close()
		t.Fatalf("xz -dc %s: %v", src, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(out+".tmp", out); err != nil {
		t.Fatal(err)
	}
	return out
}

// Source is a gst-launch fragment that reads an 8-bit Y4M clip as raw
// video with libav's demuxer (GStreamer 1.22's y4mdec rejects the golden
// clips' X parameters). That demuxer crashes on the 10-bit clips: use
// RawSource for those.
func Source(path string) string {
	return fmt.Sprintf("filesrc location=%s ! avdemux_yuv4mpegpipe", path)
}

// RawSource returns a gst-launch fragment that plays a Y4M clip of any
// format as raw video at its frame rate. The clip is converted once to
// headerless planar frames for rawvideoparse; the tight layout is
// GStreamer's default layout for the clips' even sizes.
func RawSource(t testing.TB, y4mPath string) string {
	t.Helper()
	src, _ := RepeatedSource(t, y4mPath, 1)
	return src
}

// RepeatedSource is RawSource for the clip played repeat times in a row,
// for runs longer than the clips; it also returns the number of frames.
func RepeatedSource(t testing.TB, y4mPath string, repeat int) (fragment string, frames int) {
	t.Helper()
	clipMu.Lock()
	defer clipMu.Unlock()
	in, err := os.Open(y4mPath)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	r, err := y4m.NewReader(in)
	if err != nil {
		t.Fatal(err)
	}
	f := r.Format()
	format, ok := rawFormats[fmt.Sprintf("%s/%d", f.Chroma, f.BitDepth)]
	if !ok {
		t.Fatalf("%s: no GStreamer format for %s %d-bit", y4mPath, f.Chroma, f.BitDepth)
	}
	raw := fmt.Sprintf("%s.x%d.yuv", strings.TrimSuffix(y4mPath, ".y4m"), repeat)
	n, err := writeRaw(r, raw, repeat)
	if err != nil {
		t.Fatal(err)
	}
	num, den := f.FrameRateNum, f.FrameRateDen
	if num == 0 || den == 0 {
		num, den = 25, 1
	}
	// One read a frame, as a player or a file-based job would, rather
	// than filesrc's default 4 KiB blocks reassembled by the parser.
	return fmt.Sprintf("filesrc location=%s blocksize=%d ! rawvideoparse width=%d height=%d format=%s framerate=%d/%d",
		raw, r.FrameBytes(), f.Width, f.Height, format, num, den), n
}

// rawFormats maps chroma/bit depth to rawvideoparse's format names.
var rawFormats = map[string]string{
	"420/8": "i420", "422/8": "y42b", "444/8": "y444", "400/8": "gray8",
	"420/10": "i420-10le", "422/10": "i422-10le", "444/10": "y444-10le",
	"420/12": "i420-12le", "422/12": "i422-12le", "444/12": "y444-12le",
}

// writeRaw writes the clip's frames, repeat times over, as headerless
// planar frames (once: an existing file is kept) and returns how many
// frames the file holds.
func writeRaw(r *y4m.Reader, path string, repeat int) (int, error) {
	fr := y4m.NewFrame(r.Format())
	frameSize := 0
	for _, p := range fr.Planes {
		frameSize += len(p)
	}
	if st, err := os.Stat(path); err == nil {
		return int(st.Size()) / frameSize, nil
	}
	var frames [][]byte
	for {
		if err := r.ReadFrame(fr); err == io.EOF {
			break
		} else if err != nil {
			return 0, err
		}
		var b []byte
		for _, p := range fr.Planes {
			b = append(b, p...)
		}
		frames = append(frames, b)
	}
	out, err := os.Create(path + ".tmp")
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriter(out)
	for range repeat {
		for _, f := range frames {
			w.Write(f)
		}
	}
	if err := w.Flush(); err != nil {
		out.Close()
		return 0, err
	}
	if err := out.Close(); err != nil {
		return 0, err
	}
	return len(frames) * repeat, os.Rename(path+".tmp", path)
}

// Golden reads libvmaf's per-frame metrics for a pair.
func Golden(t testing.TB, pair string) []map[string]float64 {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(RepoRoot(t), "testdata", "goldens", "scores", pair+".vmaf.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Frames []struct {
			Metrics map[string]float64 `json:"metrics"`
		} `json:"frames"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("golden %s: %v", pair, err)
	}
	out := make([]map[string]float64, len(doc.Frames))
	for i, f := range doc.Frames {
		out[i] = f.Metrics
	}
	return out
}

// EngineScores scores two Y4M clips with the engine alone, as the element
// would, and returns each frame's metrics.
func EngineScores(t testing.TB, refPath, distPath string, cfg vmaf.Config) []map[string]float64 {
	t.Helper()
	ref, dist := openY4M(t, refPath), openY4M(t, distPath)
	var out []map[string]float64
	cfg.OnResult = func(r *vmaf.Result) {
		m := make(map[string]float64, len(r.Metrics))
		for _, x := range r.Metrics {
			m[x.Name] = x.Value
		}
		for len(out) <= r.Index {
			out = append(out, nil)
		}
		out[r.Index] = m
	}
	ctx, err := vmaf.NewContext(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	for {
		rp, err1 := ref.next()
		dp, err2 := dist.next()
		if err1 == io.EOF || err2 == io.EOF {
			break
		}
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if err := ctx.Submit(rp, dp, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := ctx.Flush(); err != nil {
		t.Fatal(err)
	}
	return out
}

// LoadFrames reads every frame of a Y4M clip into memory.
func LoadFrames(t testing.TB, path string) []*vmaf.Picture {
	t.Helper()
	c := openY4M(t, path)
	var out []*vmaf.Picture
	for {
		p, err := c.next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
}

type y4mClip struct {
	r      *y4m.Reader
	format y4m.Format
}

func openY4M(t testing.TB, path string) *y4mClip {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	r, err := y4m.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	return &y4mClip{r: r, format: r.Format()}
}

// next reads a frame into fresh memory: the engine reads it after Submit
// returns.
func (c *y4mClip) next() (*vmaf.Picture, error) {
	fr := y4m.NewFrame(c.format)
	if err := c.r.ReadFrame(fr); err != nil {
		return nil, err
	}
	chroma, err := vmaf.ParseChroma(c.format.Chroma)
	if err != nil {
		return nil, err
	}
	return &vmaf.Picture{Width: c.format.Width, Height: c.format.Height, BitDepth: c.format.BitDepth,
		Chroma: chroma, Planes: fr.Planes, Strides: fr.Strides}, nil
}

// RawPath is the file a RawSource or RepeatedSource fragment reads.
func RawPath(fragment string) string {
	_, rest, _ := strings.Cut(fragment, "location=")
	path, _, _ := strings.Cut(rest, " ")
	return path
}

// ScaledClip returns a golden clip scaled to w×h (8-bit 4:2:0, bicubic,
// with FFmpeg), made once per test process, for runs at sizes the
// golden clips do not have.
func ScaledClip(t testing.TB, name string, w, h int) string {
	t.Helper()
	in := Clip(t, name)
	clipMu.Lock()
	defer clipMu.Unlock()
	out := filepath.Join(TempRoot(t), fmt.Sprintf("%s_%dx%d.y4m", name, w, h))
	if _, err := os.Stat(out); err == nil {
		return out
	}
	cmd := exec.Command("ffmpeg", "-v", "error", "-y", "-i", in, "-vf", fmt.Sprintf("scale=%d:%d:flags=bicubic", w, h),
		"-pix_fmt", "yuv420p", "-f", "yuv4mpegpipe", out+".tmp")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("ffmpeg cannot scale %s: %v\n%s", name, err, b)
	}
	if err := os.Rename(out+".tmp", out); err != nil {
		t.Fatal(err)
	}
	return out
}
