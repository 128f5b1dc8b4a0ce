package vmaf

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature/motion"
)

// sharedModelsDir is where libvmaf's model files sit next to the
// checkout; the repository does not carry them. Tests needing them skip
// when they are absent, unless VMAF_MODELS names them (as meson test does
// whenever they are beside the checkout, CI included): then a missing or
// unreadable directory is a failure, not a quiet skip.
func sharedModelsDir(t testing.TB) string {
	t.Helper()
	dir := modelsDirPath()
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("VMAF_MODELS") != "" {
			t.Fatalf("VMAF_MODELS: %v", err)
		}
		t.Skipf("libvmaf's model files not found (%v); set VMAF_MODELS", err)
	}
	return dir
}

func modelsDirPath() string {
	if dir := os.Getenv("VMAF_MODELS"); dir != "" {
		return dir
	}
	return filepath.Join("..", "..", "shared", "models")
}

func TestParseSharedModels(t *testing.T) {
	dir := sharedModelsDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) == 0 {
		t.Fatalf("no model files in %s", dir)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			m, err := LoadModelFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if m.Version != f || m.Name != "vmaf" {
				t.Errorf("Version %q, Name %q; want %q, vmaf", m.Version, m.Name, f)
			}
			float := strings.Contains(f, "float")
			wantFirst := "integer_adm2"
			if float {
				wantFirst = "adm2"
			}
			if strings.Contains(f, "neg") {
				wantFirst += "_egl_1"
			}
			if names := m.FeatureNames(); len(names) != 6 || names[0] != wantFirst {
				t.Errorf("FeatureNames = %v, want 6 starting %s", names, wantFirst)
			}
			if got, want := m.IsCollection(), strings.Contains(f, "_b_"); got != want {
				t.Errorf("IsCollection = %v, want %v", got, want)
			}
			if _, err = m.featureSpecs(); err != nil {
				t.Errorf("featureSpecs: %v", err)
			}
		})
	}
}

func TestBuiltinsEqualTheirJSON(t *testing.T) {
	dir := sharedModelsDir(t)
	versions := BuiltinModelVersions()
	want := []string{"vmaf_v0.6.1", "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1", "vmaf_4k_v0.6.1neg", "vmaf_b_v0.6.3",
		"vmaf_float_v0.6.1", "vmaf_float_v0.6.1neg", "vmaf_float_b_v0.6.3", "vmaf_float_4k_v0.6.1"}
	if !slices.Equal(versions, want) {
		t.Fatalf("BuiltinModelVersions = %v, want %v", versions, want)
	}
	for _, v := range versions {
		data, err := os.ReadFile(filepath.Join(dir, v+".json"))
		if err != nil {
			t.Fatal(err)
		}
		dicts, err := decodeModelFile(data)
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		builtin, _ := builtinDicts(v)
		if !reflect.DeepEqual(dicts, builtin) {
			t.Errorf("%s: built-in model_dicts differ from the JSON's", v)
		}
		parsed, err := ParseModel(data)
		if err != nil {
			t.Fatal(err)
		}
		bm, err := BuiltinModel(v)
		if err != nil {
			t.Fatal(err)
		}
		if bm.Version != v {
			t.Errorf("Version = %q, want %q", bm.Version, v)
		}
		parsed.Version = v
		if !reflect.DeepEqual(parsed, bm) {
			t.Errorf("%s: BuiltinModel differs from ParseModel of the JSON", v)
		}
	}
}

func TestBuiltinModelsUpToDate(t *testing.T) {
	dir := sharedModelsDir(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	out := filepath.Join(t.TempDir(), "builtin_models.go")
	cmd := exec.Command("go", "run", "./internal/genmodels", "-models", dir, "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("genmodels: %v\n%s", err, msg)
	}
	fresh, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile("builtin_models.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fresh, committed) {
		t.Error("builtin_models.go is stale: run go generate ./vmaf")
	}
}

func TestBuiltinModelUnknown(t *testing.T) {
	_, err := BuiltinModel("vmaf_v9")
	if err == nil || !strings.Contains(err.Error(), `"vmaf_v9"`) || !strings.Contains(err.Error(), "vmaf_4k_v0.6.1neg") {
		t.Fatalf("err = %v, want one naming vmaf_v9 and listing the built-ins", err)
	}
}

func TestFeatureSpecs(t *testing.T) {
	type spec struct {
		extractor string
		gainLimit float64
		name      string
	}
	for _, tc := range []struct {
		version string
		want    []spec
	}{
		{"vmaf_v0.6.1", []spec{
			{"adm", 100, "integer_adm2"},
			{"motion", 0, "integer_motion2"},
			{"vif", 100, "integer_vif_scale0"},
			{"vif", 100, "integer_vif_scale1"},
			{"vif", 100, "integer_vif_scale2"},
			{"vif", 100, "integer_vif_scale3"},
		}},
		{"vmaf_4k_v0.6.1neg", []spec{
			{"adm", 1, "integer_adm2_egl_1"},
			{"motion", 0, "integer_motion2"},
			{"vif", 1, "integer_vif_scale0_egl_1"},
			{"vif", 1, "integer_vif_scale1_egl_1"},
			{"vif", 1, "integer_vif_scale2_egl_1"},
			{"vif", 1, "integer_vif_scale3_egl_1"},
		}},
	} {
		m, err := BuiltinModel(tc.version)
		if err != nil {
			t.Fatal(err)
		}
		specs, err := m.featureSpecs()
		if err != nil {
			t.Fatal(err)
		}
		var got []spec
		for _, s := range specs {
			k := s.settings.Kind()
			g := spec{extractor: k.Name, name: s.name}
			if k != motion.Kind {
				g.gainLimit = s.settings.Float(k.Name + "_enhn_gain_limit")
			}
			got = append(got, g)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: featureSpecs =\n%v\nwant\n%v", tc.version, got, tc.want)
		}
	}
}

func TestMetricNames(t *testing.T) {
	m, err := ParseModelSpec("version=vmaf_b_v0.6.3:name=vb")
	if err != nil {
		t.Fatal(err)
	}
	names := m.metricNames()
	if len(names) != 25 || names[0] != "vb" || names[1] != "vb_0001" || names[20] != "vb_0020" ||
		!slices.Equal(names[21:], []string{"vb_bagging", "vb_stddev", "vb_ci_p95_lo", "vb_ci_p95_hi"}) {
		t.Errorf("metricNames = %v", names)
	}
	if !m.IsCollection() || len(m.FeatureNames()) != 6 {
		t.Errorf("IsCollection %v, FeatureNames %v", m.IsCollection(), m.FeatureNames())
	}
	plain, _ := BuiltinModel("vmaf_v0.6.1")
	if !slices.Equal(plain.metricNames(), []string{"vmaf"}) {
		t.Errorf("plain model metricNames = %v", plain.metricNames())
	}
}
