package cambi

import (
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

// syntheticFrame is an 8-bit 4:2:0 picture that exercises CAMBI's slow
// paths: its left half is a gentle gradient, flat and banded (every
// pixel masked and in band), its right half noisy texture.
func syntheticFrame(w, h int, seed uint64) *feature.Frame {
	f := feature.Format{Width: w, Height: h, BitDepth: 8, Chroma: feature.Chroma420}
	rng := rand.New(rand.NewPCG(seed, 1))
	var planes [3][]byte
	var strides [3]int
	for i := range 3 {
		pw, ph := f.PlaneSize(i)
		planes[i], strides[i] = make([]byte, pw*ph), pw
	}
	y := planes[0]
	for r := 0; r < h; r++ {
		for c := 0; c < w; c++ {
			if c < w/2 {
				y[r*w+c] = byte(40 + (r+c)*60/(w/2+h))
			} else {
				y[r*w+c] = byte(60 + rng.IntN(120))
			}
		}
	}
	for i := 1; i < 3; i++ {
		for j := range planes[i] {
			planes[i][j] = 128
		}
	}
	return featuretest.NewFrame(f, planes, strides)
}

func cpuTime() int64 {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		return 0
	}
	return r.Utime.Nano() + r.Stime.Nano()
}

func BenchmarkExtract(b *testing.B) {
	for _, size := range [][2]int{{1920, 1080}, {3840, 2160}} {
		b.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(b *testing.B) {
			fr := syntheticFrame(size[0], size[1], 1)
			x, err := Kind.New(fr.Format, Kind.Defaults())
			if err != nil {
				b.Fatal(err)
			}
			defer x.Close()
			out := make([]float64, 1)
			b.ReportAllocs()
			start, n := cpuTime(), 0
			for i := 0; b.Loop(); i++ {
				if err := x.Extract(i, fr, fr, out); err != nil {
					b.Fatal(err)
				}
				n++
			}
			// The process's CPU time per frame, steadier than ns/op on a
			// shared machine.
			b.ReportMetric(float64(cpuTime()-start)/float64(n), "cpu-ns/op")
		})
	}
}
