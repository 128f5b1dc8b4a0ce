package element

import "testing"

// TestModelSpecUpstreamOptions: the upstream element's model options
// follow the spec grammar whatever form the model was named in.
func TestModelSpecUpstreamOptions(t *testing.T) {
	for _, tc := range []struct {
		model, filename string
		clip, transform bool
		want            string
	}{
		{"vmaf_v0.6.1", "", false, false, "vmaf_v0.6.1"},
		{"vmaf_v0.6.1", "", true, false, "version=vmaf_v0.6.1:disable_clip=true"},
		{"vmaf_v0.6.1", "/m/house.json", false, true, "path=/m/house.json:enable_transform=true"},
		{"version=vmaf_v0.6.1neg:name=neg", "", true, true, "version=vmaf_v0.6.1neg:name=neg:disable_clip=true:enable_transform=true"},
		// A spec the loader refuses reaches it as given, for its error.
		{"version=a:path=b", "", true, false, "version=a:path=b"},
	} {
		s := settings{model: tc.model, up: upstreamSettings{modelFilename: tc.filename, disableClip: tc.clip, enableTransform: tc.transform}}
		if got := s.modelSpec(); got != tc.want {
			t.Errorf("model %q, model-filename %q: spec %q, want %q", tc.model, tc.filename, got, tc.want)
		}
	}
}
