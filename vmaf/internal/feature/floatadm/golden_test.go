package floatadm

import (
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

// TestGolden compares every frame of every golden pair with libvmaf's
// values, with the default options and with adm_enhn_gain_limit=1 (the
// _egl_1 values the NEG model reads).
func TestGolden(t *testing.T) {
	for _, name := range featuretest.Pairs(t) {
		t.Run(name, func(t *testing.T) {
			p := featuretest.Load(t, name)
			for _, opts := range []string{"", "adm_enhn_gain_limit=1"} {
				s, err := Kind.Parse(opts)
				if err != nil {
					t.Fatal(err)
				}
				names, values := featuretest.Run(t, p, s)
				featuretest.Compare(t, p, names, values, featuretest.Tolerance{Abs: 1e-4})
			}
		})
	}
}
