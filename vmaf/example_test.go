package vmaf_test

import (
	"fmt"
	"log"

	"github.com/vmafsink/vmafsink/vmaf"
)

// Score a short synthetic stream with the default model and read the
// pooled mean, as a pipeline would at end of stream.
func Example() {
	model, err := vmaf.BuiltinModel("vmaf_v0.6.1")
	if err != nil {
		log.Fatal(err)
	}
	var pool vmaf.Pool
	ctx, err := vmaf.NewContext(vmaf.Config{
		Models:   []*vmaf.Model{model},
		Features: []string{"psnr"},
		Threads:  2,
		OnResult: func(r *vmaf.Result) {
			score, _ := r.Get("vmaf")
			fmt.Printf("frame %d: vmaf %.2f\n", r.Index, score)
			pool.Add(r)
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		ref, dist := testFrame(i, 0), testFrame(i, 6)
		if err := ctx.Submit(ref, dist, nil); err != nil {
			log.Fatal(err)
		}
	}
	if err := ctx.Flush(); err != nil {
		log.Fatal(err)
	}
	mean, _ := pool.Get("vmaf")
	fmt.Printf("mean %.2f over %d frames\n", mean.Mean, mean.Count)
	// libvmaf 3.2.0's vmaf tool gives the same on these frames.

	// Output:
	// frame 0: vmaf 95.02
	// frame 1: vmaf 100.00
	// frame 2: vmaf 100.00
	// mean 98.34 over 3 frames
}

// testFrame draws a moving diagonal pattern; noise > 0 adds a fixed
// pseudo-random error of up to ±noise.
func testFrame(shift, noise int) *vmaf.Picture {
	p, err := vmaf.NewPicture(320, 240, 8, vmaf.Chroma420)
	if err != nil {
		log.Fatal(err)
	}
	seed := uint32(1)
	for y := 0; y < 240; y++ {
		for x := 0; x < 320; x++ {
			v := (x*3+y*2+shift*4)%200 + 28
			if noise > 0 {
				seed = seed*1664525 + 1013904223
				v += int(seed>>24)%(2*noise+1) - noise
			}
			p.Planes[0][y*p.Strides[0]+x] = byte(v)
		}
	}
	for i := 1; i < 3; i++ {
		for k := range p.Planes[i] {
			p.Planes[i][k] = 128
		}
	}
	return p
}
