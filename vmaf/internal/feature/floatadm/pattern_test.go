package floatadm

import (
	"math"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

// pattern is a deterministic test picture of format f: oriented waves
// and a little hashed noise, the noise's seed being variant; variant 0
// has no noise, so variant n is variant 0 distorted.
func pattern(f feature.Format, variant int) *feature.Frame {
	bytes := 1
	if f.BitDepth > 8 {
		bytes = 2
	}
	top := float64(int(1)<<f.BitDepth - 1)
	var planes [3][]byte
	var strides [3]int
	for i := 0; i < f.Planes(); i++ {
		w, h := f.PlaneSize(i)
		strides[i] = w*bytes + 5 // a stride wider than the row
		planes[i] = make([]byte, strides[i]*h)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				v := 0.5 + 0.25*math.Sin(float64(x)*0.21+float64(y)*0.05) + 0.15*math.Cos(float64(x*y)*0.002)
				if variant != 0 {
					n := uint32(x*7919+y*104729+variant*15485863) * 2654435761
					v += (float64(n>>24)/255 - 0.5) * 0.06
				}
				s := int(math.Round(math.Min(math.Max(v, 0), 1) * top))
				o := y*strides[i] + x*bytes
				planes[i][o] = byte(s)
				if bytes == 2 {
					planes[i][o+1] = byte(s >> 8)
				}
			}
		}
	}
	return featuretest.NewFrame(f, planes, strides)
}
