package floatadm

import (
	"strconv"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

// TestGolden compares every frame of every golden pair with libvmaf's
// values, with the default options and with adm_enhn_gain_limit=1 (the
// _egl_1 values the NEG model reads). It also logs how many values print
// differently from libvmaf's log at its 6 decimals: none on the machine
// the values were checked on, while a processor with another reciprocal
// estimate may flip a last digit now and then.
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
				printed := 0
				for i, frame := range values {
					for j, n := range names {
						if strconv.FormatFloat(frame[j], 'f', 6, 64) != strconv.FormatFloat(p.Frames[i][n], 'f', 6, 64) {
							printed++
						}
					}
				}
				t.Logf("%s %q: %d of %d values print differently at 6 decimals", name, opts, printed, len(values)*len(names))
			}
		})
	}
}
