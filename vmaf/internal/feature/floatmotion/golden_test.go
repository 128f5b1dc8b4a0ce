package floatmotion

import (
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

// TestGolden checks every frame of every golden pair against libvmaf's
// float_motion with its default settings.
func TestGolden(t *testing.T) {
	featuretest.Golden(t, featuretest.Tolerance{Abs: 1e-4}, Kind.Defaults())
}
