package floatmotion

import (
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

// TestGolden checks every frame of every golden pair against libvmaf's
// float_motion with its default settings.
func TestGolden(t *testing.T) {
	for _, name := range featuretest.Pairs(t) {
		t.Run(name, func(t *testing.T) {
			p := featuretest.Load(t, name)
			names, values := featuretest.Run(t, p, Kind.Defaults())
			featuretest.Compare(t, p, names, values, featuretest.Tolerance{Abs: 1e-4})
		})
	}
}
