package vmaf

import (
	"strings"
	"testing"
)

// tinyModel is a hand-written two-feature model; the second support
// vector leaves out index 2.
const tinyModel = `{"model_dict": {
  "model_type": "LIBSVMNUSVR",
  "norm_type": "linear_rescale",
  "feature_names": ["VMAF_integer_feature_adm2_score", "VMAF_integer_feature_motion2_score"],
  "slopes": [0.01, 1.0, 0.5],
  "intercepts": [-0.5, 0.0, 0.1],
  "score_clip": [0.0, 100.0],
  "model": "svm_type nu_svr\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 2\nrho -0.5\nSV\n1 1:0.5 2:0.25 \n-0.5 1:0.1 \n"
}}`

func TestParseModelErrors(t *testing.T) {
	if _, err := ParseModel([]byte(tinyModel)); err != nil {
		t.Fatalf("the base model does not parse: %v", err)
	}
	for _, tc := range []struct {
		name     string
		old, new string // replace old with new in tinyModel; old "" means new is the whole input
		want     string // substring of the error
	}{
		{"empty", "", "", "not valid JSON"},
		{"truncated", "", tinyModel[:len(tinyModel)/2], "not valid JSON"},
		{"not an object", "", "[1, 2]", "want an object, got an array"},
		{"no model_dict", "", `{"param_dict": {}}`, `neither "model_dict" nor collection members`},
		{"model_dict not an object", "", `{"model_dict": 3}`, "model_dict: want an object, got a number"},
		{"wrong model_type", `"LIBSVMNUSVR"`, `"LIBSVMEPSSVR"`, `model_dict.model_type: "LIBSVMEPSSVR" not supported`},
		{"model_type not a string", `"LIBSVMNUSVR"`, `7`, "model_dict.model_type: want a string, got a number"},
		{"no model_type", `"model_type": "LIBSVMNUSVR",`, ``, "model_dict: no model_type"},
		{"wrong norm_type", `"linear_rescale"`, `"clip_0to1"`, `model_dict.norm_type: "clip_0to1" not supported`},
		{"no feature_names", `"feature_names": ["VMAF_integer_feature_adm2_score", "VMAF_integer_feature_motion2_score"],`, ``, "model_dict: no feature_names"},
		{"feature name not a string", `"VMAF_integer_feature_motion2_score"]`, `null]`, "model_dict.feature_names[1]: want a string, got null"},
		{"empty feature name", `"VMAF_integer_feature_motion2_score"]`, `""]`, "model_dict.feature_names[1]: empty"},
		{"short slopes", `[0.01, 1.0, 0.5]`, `[0.01, 1.0]`, "model_dict.slopes: has 2 values, want 3"},
		{"long intercepts", `[-0.5, 0.0, 0.1]`, `[-0.5, 0.0, 0.1, 0.2]`, "model_dict.intercepts: has 4 values, want 3"},
		{"slope not a number", `[0.01, 1.0, 0.5]`, `[0.01, "1", 0.5]`, "model_dict.slopes[1]: want a number, got a string"},
		{"NaN slope", `[0.01, 1.0, 0.5]`, `[0.01, NaN, 0.5]`, "not valid JSON"},
		{"huge intercept", `[-0.5, 0.0, 0.1]`, `[-0.5, 1e999, 0.1]`, "model_dict.intercepts[1]: 1e999 is not a finite number"},
		{"zero model slope", `[0.01, 1.0, 0.5]`, `[0, 1.0, 0.5]`, "model_dict.slopes[0]: the model's slope is zero"},
		{"clip of three", `[0.0, 100.0]`, `[0.0, 50.0, 100.0]`, "model_dict.score_clip: has 3 values, want 2"},
		{"clip reversed", `[0.0, 100.0]`, `[100.0, 0.0]`, "model_dict.score_clip: min 100 above max 0"},
		{"too many opts dicts", `"score_clip"`, `"feature_opts_dicts": [{}, {}, {}], "score_clip"`, "model_dict.feature_opts_dicts: 3 entries for 2 features"},
		{"opt of wrong kind", `"score_clip"`, `"feature_opts_dicts": [{"adm_enhn_gain_limit": [1]}], "score_clip"`, "model_dict.feature_opts_dicts[0].adm_enhn_gain_limit: want a number, boolean or string"},
		{"opt given twice", `"score_clip"`, `"feature_opts_dicts": [{"adm_enhn_gain_limit": 1, "adm_enhn_gain_limit": 2}], "score_clip"`, "adm_enhn_gain_limit given twice, as 1 and 2"},
		{"knots falling", `"score_clip"`, `"score_transform": {"enabled": true, "knots": [[0, 0], [50, 60], [40, 100]]}, "score_clip"`, "model_dict.score_transform.knots: knot 2 (40, 100) does not rise from knot 1 (50, 60)"},
		{"knot of one value", `"score_clip"`, `"score_transform": {"knots": [[0, 0], [50]]}, "score_clip"`, "model_dict.score_transform.knots[1]: has 1 values, want 2"},
		{"enabled not a bool", `"score_clip"`, `"score_transform": {"enabled": "yes"}, "score_clip"`, "model_dict.score_transform.enabled: want true or false, got a string"},
		{"no svm", `"model": "svm_type`, `"notmodel": "svm_type`, "model_dict: no model (the libsvm text)"},
		{"svm not a string", `"model": "svm_type nu_svr`, `"model": 1, "x": "svm_type nu_svr`, "model_dict.model: want a string, got a number"},
		{"svm without SV", `\nSV\n`, `\n`, "model_dict.model: no SV line"},
		{"svm_type", `nu_svr`, `c_svc`, `model_dict.model: svm_type "c_svc" not supported (want nu_svr)`},
		{"kernel_type", `rbf`, `linear`, `model_dict.model: kernel_type "linear" not supported (want rbf)`},
		{"unknown header", `gamma 0.5`, `gamma 0.5\ncolour blue`, `model_dict.model: header: unknown keyword "colour"`},
		{"gamma NaN", `gamma 0.5`, `gamma NaN`, `model_dict.model: gamma: "NaN" is not a finite number`},
		{"no rho", `rho -0.5\n`, ``, "model_dict.model: header has no rho"},
		{"rho before nr_class", `nr_class 2\ntotal_sv 2\nrho -0.5`, `rho -0.5\nnr_class 2\ntotal_sv 2`, "model_dict.model: header: rho before nr_class"},
		{"classification", `nr_class 2`, `nr_class 3`, "model_dict.model: nr_class is 3, want 2"},
		{"too few SVs", `total_sv 2`, `total_sv 5`, "model_dict.model: total_sv is 5 but only 3 support vector lines follow"},
		{"SV index zero", `1 1:0.5 2:0.25`, `1 0:0.5 2:0.25`, `model_dict.model: support vector 0: bad index in "0:0.5"`},
		{"SV index repeated", `1 1:0.5 2:0.25`, `1 2:0.5 2:0.25`, `model_dict.model: support vector 0: bad index in "2:0.25"`},
		{"SV index beyond features", `-0.5 1:0.1`, `-0.5 1:0.1 3:0.2`, "model_dict.model: support vector 1 has index 3 but the model has 2 features"},
		{"SV index not a number", `-0.5 1:0.1`, `-0.5 x:0.1`, `model_dict.model: support vector 1: bad index in "x:0.1"`},
		{"SV without colon", `-0.5 1:0.1`, `-0.5 1=0.1`, `model_dict.model: support vector 1: "1=0.1" is not index:value`},
		{"SV value NaN", `2:0.25`, `2:nan`, `model_dict.model: support vector 0: index 2: value: "nan" is not a finite number`},
		{"SV coefficient Inf", `-0.5 1:0.1`, `-Inf 1:0.1`, `model_dict.model: support vector 1: coefficient: "-Inf" is not a finite number`},
		{"SV line empty", `-0.5 1:0.1 \n`, `\n-0.5 1:0.1 \n`, "model_dict.model: support vector 1: empty line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			input := tc.new
			if tc.old != "" {
				if !strings.Contains(tinyModel, tc.old) {
					t.Fatalf("tinyModel has no %q", tc.old)
				}
				input = strings.Replace(tinyModel, tc.old, tc.new, 1)
			}
			m, err := ParseModel([]byte(input))
			if err == nil {
				t.Fatalf("parsed %v, want an error containing %q", m, tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %q, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestParseCollectionErrors(t *testing.T) {
	member := tinyModel[:len(tinyModel)]
	boot := strings.Replace(member, `"LIBSVMNUSVR"`, `"BOOTSTRAP_LIBSVMNUSVR"`, 1)
	resid := strings.Replace(member, `"LIBSVMNUSVR"`, `"RESIDUEBOOTSTRAP_LIBSVMNUSVR"`, 1)
	for _, tc := range []struct {
		name, input, want string
	}{
		{"one member", `{"0": ` + boot + `}`, `neither "model_dict" nor collection members`},
		{"gap", `{"0": ` + boot + `, "1": ` + boot + `, "3": ` + boot + `}`, `collection has member "3" but no member "2"`},
		{"member without model_dict", `{"0": ` + boot + `, "1": {"x": 1}}`, `"1": no "model_dict"`},
		{"member not bootstrap", `{"0": ` + boot + `, "1": ` + member + `}`, `"1".model_dict.model_type: "LIBSVMNUSVR" in a collection`},
		{"mixed types", `{"0": ` + boot + `, "1": ` + boot + `, "2": ` + resid + `}`, `"2".model_dict.model_type: "RESIDUEBOOTSTRAP_LIBSVMNUSVR" differs from member "1"'s "BOOTSTRAP_LIBSVMNUSVR"`},
		{"bad member", `{"0": ` + boot + `, "1": ` + strings.Replace(boot, `[0.01, 1.0, 0.5]`, `[0.01]`, 1) + `}`, `"1".model_dict.slopes: has 1 values, want 3`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseModel([]byte(tc.input))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	m, err := ParseModel([]byte(`{"0": ` + member + `, "1": ` + boot + `, "2": ` + boot + `}`))
	if err != nil {
		t.Fatal(err)
	}
	if !m.IsCollection() || len(m.metricNames()) != 7 {
		t.Errorf("IsCollection %v, metricNames %v", m.IsCollection(), m.metricNames())
	}
}

func TestFeatureSpecErrors(t *testing.T) {
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"unknown feature", `"VMAF_integer_feature_adm2_score"`, `"Cambi_feature_cambi_score"`,
			"input cambi (Cambi_feature_cambi_score) needs an extractor, which the native engine lacks"},
		{"output not computed", `"VMAF_integer_feature_adm2_score"`, `"integer_adm_num"`,
			"input integer_adm_num (integer_adm_num): the native adm extractor does not compute it"},
		{"gain limit out of range", `"score_clip"`, `"feature_opts_dicts": [{"adm_enhn_gain_limit": 0.5}], "score_clip"`,
			`feature adm: option adm_enhn_gain_limit="0.5": outside 1..100`},
		{"unsupported option", `"score_clip"`, `"feature_opts_dicts": [{"adm_csf_mode": 1}], "score_clip"`,
			"input integer_adm2_csf_1: feature adm: option adm_csf_mode is not supported by the native engine"},
		{"chroma correction", `"score_clip"`, `"chroma_correction_parameter": 0.5, "score_clip"`,
			"chroma_correction_parameter"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ParseModel([]byte(strings.Replace(tinyModel, tc.old, tc.new, 1)))
			if err != nil {
				t.Fatalf("ParseModel: %v", err)
			}
			_, err = m.featureSpecs()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("featureSpecs err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestReportedNames(t *testing.T) {
	for _, tc := range []struct {
		feature string
		opts    []featureOpt
		want    string
	}{
		{"VMAF_integer_feature_vif_scale2_score", nil, "integer_vif_scale2"},
		{"VMAF_integer_feature_vif_scale2_score", []featureOpt{{"vif_enhn_gain_limit", "100"}}, "integer_vif_scale2"},
		{"VMAF_integer_feature_vif_scale2_score", []featureOpt{{"vif_enhn_gain_limit", "1.5"}}, "integer_vif_scale2_egl_1.5"},
		{"VMAF_integer_feature_adm2_score", []featureOpt{{"debug", "true"}, {"adm_enhn_gain_limit", "1"}}, "integer_adm2_egl_1"},
		// Parameters go in order of option name, booleans without a value.
		{"VMAF_integer_feature_adm3_score", []featureOpt{{"adm_skip_scale0", "true"}, {"adm_enhn_gain_limit", "1"}, {"adm_csf_mode", "2"}}, "integer_adm3_csf_2_egl_1_ssz"},
		{"integer_adm_scale1", []featureOpt{{"adm_enhn_gain_limit", "1"}}, "integer_adm_scale1_egl_1"},
		{"VMAF_integer_feature_motion2_score", []featureOpt{{"unknown", "3"}}, "integer_motion2"},
		{"VMAF_integer_feature_motion_sad_score", nil, "VMAF_integer_feature_motion_sad_score"},
		{"VMAF_feature_vif_scale0_score", []featureOpt{{"vif_enhn_gain_limit", "1"}}, "vif_scale0_egl_1"},
		{"Speed_chroma_feature_speed_chroma_uv_score", nil, "speed_chroma_uv"},
	} {
		if got := reportedName(tc.feature, tc.opts); got != tc.want {
			t.Errorf("reportedName(%s, %v) = %s, want %s", tc.feature, tc.opts, got, tc.want)
		}
	}
}
