package floatvif

import (
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

// TestGolden checks every frame of every golden pair against libvmaf's
// float_vif, with the default settings (the float models' vif_scale*) and
// with the enhancement gain disabled (the NEG model's vif_scale*_egl_1).
func TestGolden(t *testing.T) {
	for _, name := range featuretest.Pairs(t) {
		t.Run(name, func(t *testing.T) {
			p := featuretest.Load(t, name)
			for _, opts := range []string{"", "vif_enhn_gain_limit=1"} {
				settings, err := Kind.Parse(opts)
				if err != nil {
					t.Fatal(err)
				}
				names, values := featuretest.Run(t, p, settings)
				featuretest.Compare(t, p, names, values, featuretest.Tolerance{Abs: 1e-4})
			}
		})
	}
}
