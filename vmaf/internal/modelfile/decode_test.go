package modelfile

import (
	"reflect"
	"strings"
	"testing"
)

const svmText = `svm_type nu_svr\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 2\nrho -0.5\nSV\n1 1:0.5 3:0.25\n-0.5 2:1\n`

func TestDecode(t *testing.T) {
	svm := SVM{SVMType: "nu_svr", KernelType: "rbf", Gamma: 0.5, Rho: -0.5,
		Coef: []float64{1, -0.5}, SV: [][]float64{{0.5, 0, 0.25}, {0, 1}}}
	for _, tc := range []struct {
		name, json string
		want       []Dict
	}{
		{"absent fields stay nil", `{"model_dict": {"model_type": "LIBSVMNUSVR", "model": "` + svmText + `"}}`,
			[]Dict{{ModelType: TypeSVR, SVM: svm, HasSVM: true}}},
		{"empty fields stay empty", `{"model_dict": {"feature_names": [], "slopes": [], "feature_opts_dicts": [{}],
			"score_transform": {"knots": [], "p1": null}}}`,
			[]Dict{{FeatureNames: []string{}, Slopes: []float64{}, FeatureOpts: [][]FeatureOpt{nil},
				Transform: &Transform{HasKnots: true, Knots: [][2]float64{}}}}},
		{"options as libvmaf stores them", `{"model_dict": {"feature_opts_dicts": [{"b": 0.1, "a": true, "c": "x", "b": 0.10000000001}]}}`,
			[]Dict{{FeatureOpts: [][]FeatureOpt{{{Key: "b", Val: "0.1"}, {Key: "a", Val: "true"}, {Key: "c", Val: "x"}}}}}},
		{"collection in member order", `{"1": {"model_dict": {"norm_type": "b"}}, "0": {"model_dict": {"norm_type": "a"}}}`,
			[]Dict{{NormType: "a"}, {NormType: "b"}}},
		{"transform and chroma", `{"model_dict": {"chroma_correction_parameter": 2, "score_transform":
			{"enabled": true, "p2": 3, "out_lte_in": "true", "out_gte_in": "yes", "knots": [[0, 1]]}}}`,
			[]Dict{{Chroma: OptionalFloat{Set: true, V: 2}, Transform: &Transform{Enabled: true,
				P: [3]OptionalFloat{2: {Set: true, V: 3}}, OutLTEIn: true, HasKnots: true, Knots: [][2]float64{{0, 1}}}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decode([]byte(tc.json))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Decode =\n%#v\nwant\n%#v", got, tc.want)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct{ name, json, want string }{
		{"not JSON", `{"model_dict": secret}`, "not valid JSON (syntax error at byte 16)"},
		{"no dict", `{"0": {}}`, `neither "model_dict" nor collection members`},
		{"gap in members", `{"0": {}, "1": {}, "3": {}}`, `member "3" but no member "2"`},
		{"field path", `{"0": {"model_dict": {}}, "1": {"model_dict": {"slopes": [1, "x"]}}}`, `"1".model_dict.slopes[1]: want a number, got a string`},
		{"svm header", `{"model_dict": {"model": "svm_type c_svc\nSV\n"}}`, `model_dict.model: svm_type "c_svc" not supported`},
		{"too many knots", `{"model_dict": {"score_transform": {"knots": [[0,0],[1,1],[2,2],[3,3],[4,4],[5,5],[6,6],[7,7],[8,8],[9,9],[10,10]]}}}`, "more than libvmaf's 10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode([]byte(tc.json))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), "secret") {
				t.Errorf("err = %v quotes the file", err)
			}
		})
	}
}
