package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/internal/y4m"
)

// cropY4M writes the top h rows of a 4:2:0 y4m clip's first frames.
func cropY4M(t *testing.T, clip, dst string, h, frames int) {
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
	if f.Chroma != "420" || f.BitDepth != 8 {
		t.Fatalf("%s is %+v, want 4:2:0 8-bit", clip, f)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "YUV4MPEG2 W%d H%d F25:1 Ip C420jpeg\n", f.Width, h)
	fr := y4m.NewFrame(f)
	for n := 0; n < frames; n++ {
		if err := r.ReadFrame(fr); err != nil {
			t.Fatal(err)
		}
		b.WriteString("FRAME\n")
		b.Write(fr.Planes[0][:h*fr.Strides[0]])
		for i := 1; i < 3; i++ {
			b.Write(fr.Planes[i][:(h+1)/2*fr.Strides[i]])
		}
	}
	if err := os.WriteFile(dst, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// float_ms_ssim cannot score pictures under 176x176. libvmaf's tool, run
// with --threads, then writes every frame without it; without --threads
// it fails.
func TestSmallPictureMSSSIM(t *testing.T) {
	dir := t.TempDir()
	ref, dist := filepath.Join(dir, "ref.y4m"), filepath.Join(dir, "dist.y4m")
	cropY4M(t, goldenY4M(t, smallRef), ref, 161, 3)
	cropY4M(t, goldenY4M(t, smallDist), dist, 161, 3)
	for _, tc := range []struct {
		threads string
		code    int
	}{{"0", exitError}, {"1", 0}, {"2", 0}} {
		t.Run("threads"+tc.threads, func(t *testing.T) {
			out := filepath.Join(dir, "out"+tc.threads+".json")
			res := vmafScore(t, "-r", ref, "-d", dist, "--threads", tc.threads, "-q", "--json", "-o", out,
				"--feature", "float_ms_ssim", "--feature", "float_ssim")
			if res.code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %q", res.code, tc.code, res.stderr)
			}
			if !strings.Contains(res.stderr, "float_ms_ssim") {
				t.Errorf("stderr %q does not mention float_ms_ssim", res.stderr)
			}
			if tc.code != 0 {
				return
			}
			l := readLog(t, out)
			if len(l.Frames) != 3 {
				t.Fatalf("%d frames, want 3", len(l.Frames))
			}
			for _, f := range l.Frames {
				if _, ok := f.Metrics["float_ms_ssim"]; ok {
					t.Errorf("frame %d has float_ms_ssim", f.FrameNum)
				}
				if _, ok := f.Metrics["float_ssim"]; !ok {
					t.Errorf("frame %d lacks float_ssim", f.FrameNum)
				}
			}
			if _, ok := l.Pooled["float_ms_ssim"]; ok {
				t.Error("pooled metrics have float_ms_ssim")
			}
		})
	}
}

func TestMSSSIMFits(t *testing.T) {
	for _, tc := range []struct {
		w, h int
		want bool
	}{{176, 176, true}, {177, 161, false}, {175, 1080, false}, {1920, 176, true}, {3840, 2160, true}} {
		if got := msssimFits(tc.w, tc.h); got != tc.want {
			t.Errorf("msssimFits(%d, %d) = %v, want %v", tc.w, tc.h, got, tc.want)
		}
	}
}
