package main

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/vmafsink/vmafsink/internal/y4m"
)

// writeRaw copies the first frames of a y4m clip to a raw file with its
// chroma planes in layout l.
func writeRaw(t *testing.T, clip, dst string, l y4m.Layout, frames int) y4m.Format {
	t.Helper()
	in, err := os.Open(clip)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	r, err := y4m.NewReader(in)
	if err != nil {
		t.Fatal(err)
	}
	f := r.Format()
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	fr := y4m.NewFrame(f)
	for n := 0; n < frames; n++ {
		if err := r.ReadFrame(fr); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3; i++ {
			w, h := f.StoredPlaneSize(i, l)
			for y := 0; y < h; y++ {
				o := y * fr.Strides[i]
				if _, err := out.Write(fr.Planes[i][o : o+w*f.BytesPerSample()]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return f
}

// An odd-sized raw file is read as libvmaf's tool reads it, chroma planes
// rounded down, unless its size only fits planes rounded up (FFmpeg's
// rawvideo); either way the scores are the y4m clip's, and libvmaf's.
func TestOddSizeRaw(t *testing.T) {
	const frames = 3
	dir := t.TempDir()
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	args := []string{"--json", "-q", "--feature", "psnr", "-m", "version=vmaf_v0.6.1"}
	score := func(name string, in ...string) *scoreLog {
		out := filepath.Join(dir, name+".json")
		res := vmafScore(t, append(append(in, "-o", out), args...)...)
		if res.code != 0 {
			t.Fatalf("%s: exit %d: %s", name, res.code, res.stderr)
		}
		return readLog(t, out)
	}
	want := score("y4m", "-r", ref, "-d", dist, "--frame_cnt", "3")
	if len(want.Frames) != frames {
		t.Fatalf("y4m: %d frames", len(want.Frames))
	}
	compareFrames(t, want, goldenLog(t, "flower_321x179_x264_crf30"), 0, 1e-4,
		// The third frame has no next one for motion2 and motion3.
		func(name string) bool { return strings.HasPrefix(name, "integer_motion") || name == "vmaf" })
	for _, l := range []y4m.Layout{y4m.Truncated, y4m.Padded} {
		r, d := filepath.Join(dir, l.String()+"_ref.yuv"), filepath.Join(dir, l.String()+"_dis.yuv")
		f := writeRaw(t, ref, r, l, frames)
		writeRaw(t, dist, d, l, frames)
		got := score(l.String(), "-r", r, "-d", d, "-w", "321", "-h", "179", "-p", f.Chroma, "-b", "8")
		if !reflect.DeepEqual(got.Frames, want.Frames) {
			t.Errorf("%v raw file scores differ from the y4m clip's:\n%+v\n%+v", l, got.Frames, want.Frames)
		}
	}
}

// Output names follow libvmaf's tool, which writes the motion SAD under
// its internal feature name.
func TestMotionSADName(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.json")
	res := vmafScore(t, "-r", goldenY4M(t, smallRef), "-d", goldenY4M(t, smallDist), "--frame_cnt", "2", "-q", "--json", "-o", out)
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	l := readLog(t, out)
	want := goldenLog(t, "flower_321x179_x264_crf30")
	for i, f := range l.Frames {
		if _, ok := f.Metrics["integer_motion"]; ok {
			t.Errorf("frame %d has integer_motion, which libvmaf does not write", i)
		}
		got, ok := f.Metrics["VMAF_integer_feature_motion_sad_score"]
		if w := want.Frames[i].Metrics["VMAF_integer_feature_motion_sad_score"]; !ok || got != w {
			t.Errorf("frame %d: motion SAD %v (present %v), libvmaf %v", i, got, ok, w)
		}
	}
	if _, ok := l.Pooled["VMAF_integer_feature_motion_sad_score"]; !ok {
		t.Error("pooled metrics lack the motion SAD")
	}
}

// A raw file that is not a whole number of frames is refused before
// scoring, with what the size would fit; from a pipe, whose size is not
// known, the partial frame ends the run with an error.
func TestRawTruncatedFrame(t *testing.T) {
	dir := t.TempDir()
	r := filepath.Join(dir, "ref.yuv")
	writeRaw(t, goldenY4M(t, smallRef), r, y4m.Truncated, 2)
	data, err := os.ReadFile(r)
	if err != nil {
		t.Fatal(err)
	}
	d := filepath.Join(dir, "dis.yuv")
	if err := os.WriteFile(d, data[:len(data)-100], 0o644); err != nil {
		t.Fatal(err)
	}
	res := vmafScore(t, "-r", r, "-d", d, "-w", "321", "-h", "179", "-p", "420", "-b", "8", "-q")
	want := "dis.yuv: 171778 bytes is not a whole number of 321x179 420 8-bit frames (85939 bytes each; 2.00 frames)"
	if res.code != exitError || !strings.Contains(res.stderr, want) || strings.Contains(res.stderr, "vmaf_v0.6.1:") {
		t.Errorf("exit %d, stderr %q", res.code, res.stderr)
	}
	pipe := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		if f, err := os.OpenFile(pipe, os.O_WRONLY, 0); err == nil {
			f.Write(data[:len(data)-100])
			f.Close()
		}
	}()
	res = vmafScore(t, "-r", r, "-d", pipe, "-w", "321", "-h", "179", "-p", "420", "-b", "8", "-q")
	if res.code != exitError || !strings.Contains(res.stderr, io.ErrUnexpectedEOF.Error()) {
		t.Errorf("from a pipe: exit %d, stderr %q", res.code, res.stderr)
	}
}

// The wrong geometry for a raw file: its size names the likely fix; 8-bit
// data read with -b 10 is refused, not scored.
func TestRawWrongGeometry(t *testing.T) {
	dir := t.TempDir()
	r := filepath.Join(dir, "ref.yuv")
	writeRaw(t, goldenY4M(t, "flower_576x324_ref.y4m"), r, y4m.Truncated, 4)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"wrong height", []string{"-w", "576", "-h", "320", "-p", "420", "-b", "8"},
			"is not a whole number of 576x320 420 8-bit frames (276480 bytes each; 4.05 frames); check -w/-h/-p/-b: the size fits -w 576 -h 324 -p 420 -b 8 (4 frames)"},
		{"8-bit read as 10-bit", []string{"-w", "576", "-h", "324", "-p", "420", "-b", "10"},
			"ref.yuv: frame 0 has samples above 1023, out of range for 10-bit input (is it 8-bit? then -b 8)"},
	}
	for _, tc := range tests {
		res := vmafScore(t, append([]string{"-r", r, "-d", r, "-q"}, tc.args...)...)
		if res.code != exitError || !strings.Contains(res.stderr, tc.want) || strings.Contains(res.stderr, "vmaf_v0.6.1:") {
			t.Errorf("%s: exit %d, stderr %q, want %q", tc.name, res.code, res.stderr, tc.want)
		}
	}
	if res := vmafScore(t, "-r", r, "-d", r, "-q", "-w", "576", "-h", "324", "-p", "420", "-b", "8"); res.code != 0 {
		t.Errorf("the right geometry: exit %d, stderr %q", res.code, res.stderr)
	}
}

// An odd-width clip deeper than 8 bits as FFmpeg's y4m muxer writes it
// (FFmpeg 5.1 rounds its chroma rows in bytes) scores as libvmaf scored
// the clip.
func TestFFmpegY4MOddWidth(t *testing.T) {
	const pair = "storm422p10_177x177_x264_crf30"
	remux := func(name string) string {
		return encode(t, goldenY4M(t, name+".y4m"), "remux_"+name+".y4m", "-f", "yuv4mpegpipe", "-strict", "-1", "-pix_fmt", "yuv422p10le")
	}
	out := filepath.Join(t.TempDir(), "out.json")
	args := append([]string{"-r", remux("storm422p10_177x177_ref"), "-d", remux(pair), "--json", "-o", out, "-q"}, goldenArgs...)
	res := vmafScore(t, args...)
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	got, want := readLog(t, out), goldenLog(t, pair)
	if len(got.Frames) != len(want.Frames) {
		t.Fatalf("%d frames, libvmaf scored %d", len(got.Frames), len(want.Frames))
	}
	compareFrames(t, got, want, 0, 1e-4, nil)
}
