package psnr

import (
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

// TestGolden holds psnr_y, psnr_cb and psnr_cr to libvmaf's on every frame
// of every golden pair: libvmaf prints 6 decimals, so identical output
// means a difference below half a unit in the last place.
func TestGolden(t *testing.T) {
	for _, name := range featuretest.Pairs(t) {
		t.Run(name, func(t *testing.T) {
			p := featuretest.Load(t, name)
			names, values := featuretest.Run(t, p, Kind.Defaults())
			featuretest.Compare(t, p, names, values, featuretest.Tolerance{Abs: 5e-7})
		})
	}
}
