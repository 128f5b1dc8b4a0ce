package vmaf

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// Pictures with a side of 17 to 32 samples take corners of libvmaf's ADM
// that larger ones never reach: a level-3 transform of 3 or 4 input rows
// or columns, whose first output reads tap -1 unmirrored, and level-0
// bands of 9 to 16 columns, where the AVX-512 masking adds a rounding
// offset of 2^32-1 to every cube term. TestADMSmallPictures holds the
// engine to libvmaf's numbers there.

// admSmallTolerance is half a unit in libvmaf's sixth printed decimal:
// within it, a score prints exactly as libvmaf's.
const admSmallTolerance = 5e-7

// admSmallWant is libvmaf's output for one frame, as it prints it.
type admSmallWant struct {
	adm2, aim, adm3, vmaf float64
	scale                 [4]float64
}

// admSmallCases are the sizes checked, each with libvmaf 3.2.0's scores
// of frames 0 and 1 of admSmallPair. They were produced by writing the
// pairs to .y4m files (VMAF_SMALL_Y4M=/tmp/small go test -run
// TestADMSmallPictures ./vmaf) and scoring each, on an x86 machine with
// AVX-512 (libvmaf's default path there), with
//
//	vmaf -r /tmp/small/WxH_B.ref.y4m -d /tmp/small/WxH_B.dis.y4m -m version=vmaf_v0.6.1 --threads 1 -q --json -o WxH_B.json
var admSmallCases = []struct {
	w, h, bpc int
	want      [2]admSmallWant
}{
	{w: 17, h: 17, bpc: 8, want: [2]admSmallWant{
		{adm2: 0.898463, aim: 0.004785, adm3: 0.946839, vmaf: 74.830999,
			scale: [4]float64{0.685641, 0.811656, 0.910568, 0.958575}},
		{adm2: 0.877281, aim: 0.00898, adm3: 0.93415, vmaf: 86.774898,
			scale: [4]float64{0.669484, 0.805427, 0.883924, 0.94817}},
	}},
	{w: 33, h: 17, bpc: 8, want: [2]admSmallWant{
		{adm2: 0.900697, aim: 0.004623, adm3: 0.948037, vmaf: 76.137938,
			scale: [4]float64{0.618553, 0.731113, 0.935838, 0.976021}},
		{adm2: 0.916569, aim: 0.003928, adm3: 0.956321, vmaf: 96.844685,
			scale: [4]float64{0.592129, 0.774478, 0.938531, 0.99956}},
	}},
	{w: 17, h: 48, bpc: 8, want: [2]admSmallWant{
		{adm2: 0.904079, aim: 0.005919, adm3: 0.94908, vmaf: 76.606841,
			scale: [4]float64{0.623996, 0.799618, 0.922456, 0.962741}},
		{adm2: 0.91481, aim: 0.00323, adm3: 0.95579, vmaf: 94.547708,
			scale: [4]float64{0.624088, 0.797138, 0.920028, 0.969888}},
	}},
	{w: 32, h: 32, bpc: 8, want: [2]admSmallWant{
		{adm2: 0.891283, aim: 0.006054, adm3: 0.942615, vmaf: 73.965169,
			scale: [4]float64{0.623455, 0.788352, 0.948045, 0.951116}},
		{adm2: 0.880505, aim: 0.005832, adm3: 0.937336, vmaf: 90.430293,
			scale: [4]float64{0.615744, 0.792511, 0.92926, 0.949652}},
	}},
	{w: 640, h: 32, bpc: 8, want: [2]admSmallWant{
		{adm2: 0.886291, aim: 0.007677, adm3: 0.939307, vmaf: 72.856308,
			scale: [4]float64{0.607694, 0.778277, 0.92235, 0.975645}},
		{adm2: 0.882231, aim: 0.006672, adm3: 0.93778, vmaf: 87.199342,
			scale: [4]float64{0.615784, 0.758585, 0.922072, 0.970863}},
	}},
	{w: 24, h: 24, bpc: 10, want: [2]admSmallWant{
		{adm2: 0.905198, aim: 0.007019, adm3: 0.94909, vmaf: 77.364681,
			scale: [4]float64{0.633667, 0.782111, 0.959582, 0.965355}},
		{adm2: 0.891453, aim: 0.004696, adm3: 0.943378, vmaf: 90.834012,
			scale: [4]float64{0.644983, 0.782797, 0.948077, 0.957784}},
	}},
	{w: 30, h: 26, bpc: 12, want: [2]admSmallWant{
		{adm2: 0.885679, aim: 0.008034, adm3: 0.938822, vmaf: 73.386247,
			scale: [4]float64{0.616371, 0.772786, 0.934452, 0.950671}},
		{adm2: 0.879485, aim: 0.006589, adm3: 0.936448, vmaf: 90.675482,
			scale: [4]float64{0.629571, 0.740885, 0.949911, 0.950539}},
	}},
}

// admSmallPair makes frame n of a deterministic w x h test pair of bpc
// bits, 4:4:4 with mid-grey chroma. The reference is a diagonal ramp with
// a bright disc and pseudo-random texture, moving by 3 samples a frame;
// the distorted picture is the reference through a 3x3 binomial blur,
// plus a small checkerboard ripple.
func admSmallPair(w, h, bpc, n int) (ref, dist *Picture) {
	maxv := 1<<bpc - 1
	unit := 1 << (bpc - 8)
	x := uint32(w*7919+h*104729+n*31) | 1
	y := make([]int, w*h)
	for i := range h {
		for j := range w {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			v := (i*5 + (j+3*n)*3) % 160
			if di, dj := i-h/2, j+3*n-w/2; di*di+dj*dj < (w*w+h*h)/40 {
				v += 70
			}
			v += int(x % 40)
			y[i*w+j] = min(v*unit, maxv)
		}
	}
	clampi := func(v, n int) int { return min(max(v, 0), n-1) }
	d := make([]int, w*h)
	for i := range h {
		for j := range w {
			s := 0
			for di := -1; di <= 1; di++ {
				for dj := -1; dj <= 1; dj++ {
					k := (2 - di*di) * (2 - dj*dj)
					s += k * y[clampi(i+di, h)*w+clampi(j+dj, w)]
				}
			}
			ripple := ((i+j+n)%3 - 1) * 2 * unit
			d[i*w+j] = min(max((s+8)/16+ripple, 0), maxv)
		}
	}
	return admSmallPicture(w, h, bpc, y), admSmallPicture(w, h, bpc, d)
}

func admSmallPicture(w, h, bpc int, luma []int) *Picture {
	p, err := NewPicture(w, h, bpc, Chroma444)
	if err != nil {
		panic(err)
	}
	grey := 1 << (bpc - 1)
	for c := range 3 {
		for k := range w * h {
			v := grey
			if c == 0 {
				v = luma[k]
			}
			if bpc == 8 {
				p.Planes[c][k] = byte(v)
			} else {
				p.Planes[c][2*k], p.Planes[c][2*k+1] = byte(v), byte(v>>8)
			}
		}
	}
	return p
}

// admWriteY4M writes pictures (tightly packed 4:4:4) as a .y4m file.
func admWriteY4M(path string, pics []*Picture) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	p := pics[0]
	cs := "444"
	if p.BitDepth > 8 {
		cs = fmt.Sprintf("444p%d", p.BitDepth)
	}
	fmt.Fprintf(bw, "YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C%s\n", p.Width, p.Height, cs)
	for _, p := range pics {
		bw.WriteString("FRAME\n")
		for _, pl := range p.Planes {
			bw.Write(pl)
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return f.Close()
}

func TestADMSmallPictures(t *testing.T) {
	model, err := ParseModelSpec("version=vmaf_v0.6.1")
	if err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv("VMAF_SMALL_Y4M")
	for _, tc := range admSmallCases {
		name := fmt.Sprintf("%dx%d_%d", tc.w, tc.h, tc.bpc)
		t.Run(name, func(t *testing.T) {
			var refs, dists []*Picture
			for n := range len(tc.want) {
				r, d := admSmallPair(tc.w, tc.h, tc.bpc, n)
				refs, dists = append(refs, r), append(dists, d)
			}
			if dir != "" {
				for suffix, pics := range map[string][]*Picture{"ref": refs, "dis": dists} {
					if err := admWriteY4M(filepath.Join(dir, name+"."+suffix+".y4m"), pics); err != nil {
						t.Fatal(err)
					}
				}
			}
			results := scoreAll(t, Config{Models: []*Model{model}}, refs, dists)
			for n, want := range tc.want {
				r := results[n]
				check := func(key string, w float64) {
					got, ok := r.Get(key)
					if !ok {
						t.Fatalf("frame %d: no %s", n, key)
					}
					if !(math.Abs(got-w) < admSmallTolerance) {
						t.Errorf("frame %d %s: got %.9f, libvmaf %.6f", n, key, got, w)
					}
				}
				check("integer_adm2", want.adm2)
				check("integer_aim", want.aim)
				check("integer_adm3", want.adm3)
				for l, w := range want.scale {
					check(fmt.Sprintf("integer_adm_scale%d", l), w)
				}
				check("vmaf", want.vmaf)
			}
		})
	}
}
