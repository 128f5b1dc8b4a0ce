package vmaf

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseModelSpec(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "tiny.json")
	if err := os.WriteFile(file, []byte(tinyModel), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		spec     string
		name     string // want Name
		version  string // want Version
		features []string
		clip     bool // main model clips
		tf       bool // main model transforms
	}{
		{"vmaf_v0.6.1", "vmaf", "vmaf_v0.6.1", nil, true, false},
		{"version=vmaf_v0.6.1", "vmaf", "vmaf_v0.6.1", nil, true, false},
		{"version=vmaf_v0.6.1neg:name=vmaf_neg", "vmaf_neg", "vmaf_v0.6.1neg",
			[]string{"integer_adm2_egl_1", "integer_motion2", "integer_vif_scale0_egl_1", "integer_vif_scale1_egl_1", "integer_vif_scale2_egl_1", "integer_vif_scale3_egl_1"}, true, false},
		{"version=vmaf_v0.6.1:enable_transform", "vmaf", "vmaf_v0.6.1", nil, true, true},
		{"version=vmaf_v0.6.1:enable_transform=true:disable_clip=true", "vmaf", "vmaf_v0.6.1", nil, false, true},
		{"version=vmaf_v0.6.1:enable_transform=false:disable_clip=false", "vmaf", "vmaf_v0.6.1", nil, true, false},
		// vmaf_4k_v0.6.1 has no score_transform, so there is nothing to enable.
		{"version=vmaf_4k_v0.6.1:enable_transform:name=k", "k", "vmaf_4k_v0.6.1", nil, true, false},
		{"version=vmaf_v0.6.1:vif.vif_enhn_gain_limit=1.0", "vmaf", "vmaf_v0.6.1",
			[]string{"integer_adm2", "integer_motion2", "integer_vif_scale0_egl_1", "integer_vif_scale1_egl_1", "integer_vif_scale2_egl_1", "integer_vif_scale3_egl_1"}, true, false},
		{"version=vmaf_v0.6.1neg:adm.adm_enhn_gain_limit=1.25:vif.vif_enhn_gain_limit=100", "vmaf", "vmaf_v0.6.1neg",
			[]string{"integer_adm2_egl_1.25", "integer_motion2", "integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3"}, true, false},
		{"path=" + file + ":name=t", "t", file, []string{"integer_adm2", "integer_motion2"}, true, false},
		{file, "vmaf", file, []string{"integer_adm2", "integer_motion2"}, true, false},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			m, err := ParseModelSpec(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			if m.Name != tc.name || m.Version != tc.version {
				t.Errorf("Name %q Version %q, want %q %q", m.Name, m.Version, tc.name, tc.version)
			}
			if tc.features != nil && !reflect.DeepEqual(m.FeatureNames(), tc.features) {
				t.Errorf("FeatureNames = %v, want %v", m.FeatureNames(), tc.features)
			}
			if m.main.clip != tc.clip || m.main.transform != tc.tf {
				t.Errorf("clip %v transform %v, want %v %v", m.main.clip, m.main.transform, tc.clip, tc.tf)
			}
			if _, err := m.featureSpecs(); err != nil {
				t.Errorf("featureSpecs: %v", err)
			}
		})
	}
}

func TestParseModelSpecCollectionFlags(t *testing.T) {
	m, err := ParseModelSpec("version=vmaf_b_v0.6.3:disable_clip:vif.vif_enhn_gain_limit=1")
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range m.subModels() {
		if s.clip {
			t.Errorf("submodel %d still clips", i)
		}
	}
	if got := m.FeatureNames()[2]; got != "integer_vif_scale0_egl_1" {
		t.Errorf("FeatureNames()[2] = %s, want the overloaded integer_vif_scale0_egl_1", got)
	}
}

func TestParseModelSpecErrors(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"", "empty model spec"},
		{"vmaf_v9", `"vmaf_v9" is neither a built-in model (vmaf_v0.6.1, `},
		{"version=vmaf_v9", `no built-in model "vmaf_v9" (available: vmaf_v0.6.1, vmaf_v0.6.1neg`},
		{"name=x", "no version= or path="},
		{"version=vmaf_v0.6.1:path=m.json", "give version= or path=, not both"},
		{"version=vmaf_v0.6.1:name=", "empty name"},
		{"version=vmaf_v0.6.1:disable_clip=yes", `disable_clip="yes": want true or false`},
		{"version=vmaf_v0.6.1:colour=blue", `unknown key "colour"`},
		{"version=vmaf_v0.6.1::name=x", `unknown key ""`},
		{"version=vmaf_v0.6.1:vif.vif_enhn_gain_limit", "vif.vif_enhn_gain_limit: no value"},
		{"version=vmaf_v0.6.1:vif.gain=2", `extractor vif has no option "gain"`},
		{"version=vmaf_v0.6.1:float_vif.vif_enhn_gain_limit=2", `the model uses no "float_vif" extractor`},
		{"path=/nonexistent/model.json", "/nonexistent/model.json"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			_, err := ParseModelSpec(tc.spec)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestSpecOptionRange(t *testing.T) {
	// libvmaf refuses a gain limit below 1 when it builds the extractor;
	// the native engine says so when asked for the features.
	m, err := ParseModelSpec("version=vmaf_v0.6.1:adm.adm_enhn_gain_limit=0.5")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.featureSpecs(); err == nil || !strings.Contains(err.Error(), "outside 1..100") {
		t.Fatalf("featureSpecs err = %v, want a range error", err)
	}
}

func TestKnotsCheckedOnlyWhenUsed(t *testing.T) {
	// libvmaf meets bad knots only when it applies the transform.
	data := strings.Replace(tinyModel, `"score_clip"`, `"score_transform": {"knots": [[0, 50], [10, 20]]}, "score_clip"`, 1)
	file := filepath.Join(t.TempDir(), "knots.json")
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseModelSpec("path=" + file); err != nil {
		t.Fatalf("disabled transform: %v", err)
	}
	_, err := ParseModelSpec("path=" + file + ":enable_transform")
	if err == nil || !strings.Contains(err.Error(), "score_transform.knots: knot 1 (10, 20) does not rise") {
		t.Fatalf("enabled transform: err = %v, want a knots error", err)
	}
}

func TestParseModelSpecString(t *testing.T) {
	for _, tc := range []struct {
		spec   string
		want   ModelSpec
		string string // String(); the spec itself when empty
	}{
		{"vmaf_v0.6.1", ModelSpec{Version: "vmaf_v0.6.1", Bare: true}, ""},
		{"/m/house.json", ModelSpec{Path: "/m/house.json", Bare: true}, ""},
		{"house", ModelSpec{Path: "house", Bare: true}, ""},
		{"version=vmaf_v0.6.1neg:name=neg", ModelSpec{Version: "vmaf_v0.6.1neg", Name: "neg"}, ""},
		{"name=k:path=/m/a.json:disable_clip:vif.vif_enhn_gain_limit=1.0",
			ModelSpec{Path: "/m/a.json", Name: "k", Options: []string{"disable_clip", "vif.vif_enhn_gain_limit=1.0"}},
			"path=/m/a.json:name=k:disable_clip:vif.vif_enhn_gain_limit=1.0"},
		// Options the engine refuses are split all the same: Load refuses them.
		{"version=vmaf_v9:colour=blue", ModelSpec{Version: "vmaf_v9", Options: []string{"colour=blue"}}, ""},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			got, err := ParseModelSpecString(tc.spec)
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("= %+v, %v; want %+v", got, err, tc.want)
			}
			want := tc.string
			if want == "" {
				want = tc.spec
			}
			if got.String() != want {
				t.Errorf("String() = %q, want %q", got.String(), want)
			}
		})
	}
	for _, spec := range []string{"", "name=x", "version=a:path=b", "version=a:name="} {
		if s, err := ParseModelSpecString(spec); err == nil {
			t.Errorf("ParseModelSpecString(%q) = %+v, want an error", spec, s)
		}
	}
	// A bare name given options is spelt out before them.
	s, _ := ParseModelSpecString("vmaf_v0.6.1")
	s.Options = append(s.Options, "disable_clip=true")
	if got := s.String(); got != "version=vmaf_v0.6.1:disable_clip=true" {
		t.Errorf("bare spec with an option: %q", got)
	}
	if m, err := s.Load(); err != nil || m.main.clip {
		t.Errorf("Load() = %v, %v; want an unclipped vmaf_v0.6.1", m, err)
	}
}
