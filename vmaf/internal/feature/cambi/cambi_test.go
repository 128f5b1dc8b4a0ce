package cambi

import (
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

// TestGolden compares every frame of every golden pair with libvmaf
// 3.2.0's cambi, cambi_source and cambi_full_reference (run with
// full_ref=true).
func TestGolden(t *testing.T) {
	s, err := Kind.Parse("full_ref=true")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range featuretest.Pairs(t) {
		t.Run(name, func(t *testing.T) {
			p := featuretest.Load(t, name)
			names, values := featuretest.Run(t, p, s)
			featuretest.Compare(t, p, names, values, featuretest.Tolerance{Abs: 1e-3})
		})
	}
}
