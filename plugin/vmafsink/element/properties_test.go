package element

import (
	"testing"

	"github.com/go-gst/go-glib/glib"
	"github.com/go-gst/go-gst/gst"
)

// TestFaultPropertySpecsOnce: a GParamSpec made outside class init is
// never freed, so looking a property up by name, as the element does at
// load and when it warns about a bad value, must not make one.
func TestFaultPropertySpecsOnce(t *testing.T) {
	saved := properties
	defer func() { properties = saved }()
	properties = append([]property(nil), saved...)
	made := 0
	for i := range properties {
		orig := properties[i].spec
		properties[i].spec = func() *glib.ParamSpec { made++; return orig() }
	}
	for _, tc := range []struct {
		name string
		want uint
	}{
		{"pause-mode", propPauseMode},
		{"frame-message", propFrameMessage},
		{"last-score", uint(len(ownProperties) - 1)},
		{"log-level", uint(len(properties) - 1)},
	} {
		if got := propertyIndex(tc.name); got != tc.want || properties[got].name != tc.name {
			t.Errorf("propertyIndex(%q) = %d (%s), want %d", tc.name, got, properties[got].name, tc.want)
		}
	}
	if made != 0 {
		t.Errorf("looking up properties made %d GParamSpecs, want 0", made)
	}
	gst.Init(nil) // the fps property's GstFraction type is GStreamer's
	specs := paramSpecs()
	if made != len(properties) {
		t.Errorf("class init made %d GParamSpecs for %d properties", made, len(properties))
	}
	for i, s := range specs {
		if s.Name() != properties[i].name {
			t.Errorf("property %d is named %q, its spec %q", i, properties[i].name, s.Name())
		}
	}
}
