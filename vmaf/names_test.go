package vmaf

import (
	"reflect"
	"testing"
)

func TestFeatureExtractor(t *testing.T) {
	for _, tc := range []struct {
		name string
		want FeatureSource
		ok   bool
	}{
		{"integer_adm2", FeatureSource{Extractor: "integer_adm"}, true},
		{"integer_aim", FeatureSource{Extractor: "integer_adm"}, true},
		{"integer_vif_scale3", FeatureSource{Extractor: "integer_vif"}, true},
		{"integer_motion2", FeatureSource{Extractor: "integer_motion"}, true},
		{"psnr_cb", FeatureSource{Extractor: "psnr"}, true},
		{"float_ssim", FeatureSource{Extractor: "float_ssim"}, true},
		{"float_ms_ssim", FeatureSource{Extractor: "float_ms_ssim"}, true},
		{"adm_scale2", FeatureSource{Extractor: "float_adm"}, true},
		{"vif_scale0", FeatureSource{Extractor: "float_vif"}, true},
		{"motion2", FeatureSource{Extractor: "float_motion"}, true},
		{"integer_adm_scale0_egl_1", FeatureSource{"integer_adm", "_egl_1", map[string]float64{"adm_enhn_gain_limit": 1}}, true},
		{"integer_vif_scale1_egl_1.25", FeatureSource{"integer_vif", "_egl_1.25", map[string]float64{"vif_enhn_gain_limit": 1.25}}, true},
		{"integer_adm2_csf_1_scfd_2", FeatureSource{"integer_adm", "_csf_1_scfd_2", map[string]float64{"adm_csf_mode": 1, "adm_csf_diag_scale": 2}}, true},
		{"integer_motion2_force_0", FeatureSource{"integer_motion", "_force_0", map[string]float64{"motion_force_zero": 1}}, true},
		// A suffix no option explains names the extractor and nothing more.
		{"integer_adm2_xyz_3", FeatureSource{Extractor: "integer_adm"}, true},
		{"psnr_y_egl_2", FeatureSource{Extractor: "psnr"}, true},
		{"vmaf", FeatureSource{}, false},
		{"vmaf_neg_ci_p95_lo", FeatureSource{}, false},
		{"integer", FeatureSource{}, false},
	} {
		got, ok := FeatureExtractor(tc.name)
		if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("FeatureExtractor(%q) = %+v, %v; want %+v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// TestFeatureExtractorKnowsModelInputs: every input of every built-in
// model, with the options a spec may set, is named back to its extractor.
func TestFeatureExtractorKnowsModelInputs(t *testing.T) {
	specs := []string{"version=vmaf_v0.6.1:adm.adm_csf_mode=2:adm.adm_noise_weight=0.5:motion.motion_five_frame_window=true"}
	specs = append(specs, BuiltinModelVersions()...)
	for _, spec := range specs {
		m, err := ParseModelSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m.FeatureNames() {
			src, ok := FeatureExtractor(f)
			base := f[:len(f)-len(src.Suffix)]
			if _, known := featureReporters[base]; !ok || !known {
				t.Errorf("%s: input %s: %+v, %v", spec, f, src, ok)
			}
		}
	}
}

func TestModelLabel(t *testing.T) {
	for _, tc := range []struct {
		m    *Model
		want string
	}{
		{nil, ""},
		{&Model{Name: "vmaf", Version: "vmaf_v0.6.1"}, "vmaf_v0.6.1"},
		{&Model{Name: "vmaf_neg", Version: "vmaf_v0.6.1neg"}, "vmaf_neg"},
		{&Model{Name: "vmaf", Version: "/m/house.json"}, "/m/house.json"},
		{&Model{Name: "vmaf"}, "vmaf"},
		{&Model{Version: "vmaf_v0.6.1"}, "vmaf_v0.6.1"},
	} {
		if got := tc.m.Label(); got != tc.want {
			t.Errorf("%+v: Label() = %q, want %q", tc.m, got, tc.want)
		}
	}
}
