package element

import (
	"slices"
	"strings"
	"testing"
)

// TestFeatures: the features property's requests join the psnr, ssim and
// ms-ssim properties' without duplicates; a request the engine refuses is
// an error naming the request and the engine's reason.
func TestFeatures(t *testing.T) {
	for _, tc := range []struct {
		list             string
		psnr, ssim, msss bool
		want             []string
		err              string
	}{
		{"", false, false, false, nil, ""},
		{"", true, true, true, []string{"psnr", "float_ssim", "float_ms_ssim"}, ""},
		{" cambi=full_ref=true ;ciede;; ciede ", false, false, false, []string{"cambi=full_ref=true", "ciede"}, ""},
		{"psnr", true, false, false, []string{"psnr"}, ""},
		{"psnr=enable_chroma=false", true, true, false, []string{"float_ssim", "psnr=enable_chroma=false"}, ""},
		{"float_ms_ssim;float_ssim", false, true, true, []string{"float_ms_ssim", "float_ssim"}, ""},
		{"ciede;nonsense", false, false, false, nil, `features: request "nonsense": unknown feature "nonsense"`},
		{"cambi=full_ref=maybe", false, false, false, nil, `features: request "cambi=full_ref=maybe": feature cambi: option full_ref="maybe"`},
		{"psnr=enable_chroma", false, false, false, nil, `request "psnr=enable_chroma": feature psnr: option "enable_chroma": want name=value`},
	} {
		s := settings{featureList: tc.list, psnr: tc.psnr, ssim: tc.ssim, msSSIM: tc.msss}
		got, err := s.features()
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("features %q: error %v, want one with %q", tc.list, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("features %q: %v", tc.list, err)
		case !slices.Equal(got, tc.want):
			t.Errorf("features %q, psnr %v ssim %v ms-ssim %v: %q, want %q", tc.list, tc.psnr, tc.ssim, tc.msss, got, tc.want)
		}
	}
}
