package psnr

import (
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

// TestGolden holds psnr_y, psnr_cb and psnr_cr to libvmaf's on every frame
// of every golden pair: libvmaf prints 6 decimals, so identical output
// means a difference below half a unit in the last place.
func TestGolden(t *testing.T) {
	featuretest.Golden(t, featuretest.Tolerance{Abs: 5e-7}, Kind.Defaults())
}
