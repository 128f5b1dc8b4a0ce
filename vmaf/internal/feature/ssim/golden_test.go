package ssim

import (
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

// TestGolden holds float_ssim and float_ms_ssim to libvmaf's on every
// frame of every golden pair: libvmaf prints 6 decimals, so identical
// output means a difference below half a unit in the last place.
func TestGolden(t *testing.T) {
	for _, name := range featuretest.Pairs(t) {
		t.Run(name, func(t *testing.T) {
			p := featuretest.Load(t, name)
			for _, k := range []*feature.Kind{Kind, MSKind} {
				if k == MSKind && min(p.Format.Width, p.Format.Height) < 176 {
					continue // libvmaf refuses the pair
				}
				names, values := featuretest.Run(t, p, k.Defaults())
				featuretest.Compare(t, p, names, values, featuretest.Tolerance{Abs: 5e-7})
			}
		})
	}
}
