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
	featuretest.Golden(t, featuretest.Tolerance{Abs: 1e-3}, s)
}
