package vmaf

import (
	"os"
	"path/filepath"
	"testing"
)

func TestModelDescribe(t *testing.T) {
	for _, tc := range []struct {
		spec       string
		typ        string
		members    int
		resolution string
		display    string
		clip       bool
		transform  string // none, off or on
		firstOpt   string
	}{
		{"vmaf_v0.6.1", "LIBSVMNUSVR", 0, "1920x1080", "1080p HDTV viewed at 3 times the screen height", true, "off", ""},
		{"version=vmaf_v0.6.1:enable_transform", "LIBSVMNUSVR", 0, "1920x1080", "phone screen (score_transform enabled: libvmaf's phone model)", true, "on", ""},
		{"version=vmaf_v0.6.1:disable_clip", "LIBSVMNUSVR", 0, "1920x1080", "1080p HDTV viewed at 3 times the screen height", false, "off", ""},
		{"vmaf_4k_v0.6.1", "LIBSVMNUSVR", 0, "3840x2160", "4K TV viewed at 1.5 times the screen height", true, "none", ""},
		{"vmaf_v0.6.1neg", "LIBSVMNUSVR", 0, "1920x1080", "1080p HDTV viewed at 3 times the screen height", true, "off", "adm_enhn_gain_limit"},
		{"vmaf_b_v0.6.3", "BOOTSTRAP_LIBSVMNUSVR", 20, "1920x1080", "1080p HDTV viewed at 3 times the screen height", true, "off", ""},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			m, err := ParseModelSpec(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			d := m.Describe()
			if !d.Builtin || d.Type != tc.typ || d.Members != tc.members || d.Viewing.Resolution != tc.resolution || d.Viewing.Display != tc.display {
				t.Errorf("builtin %v type %q members %d viewing %+v", d.Builtin, d.Type, d.Members, d.Viewing)
			}
			if (d.Clip != nil) != tc.clip || d.ClipDisabled == tc.clip {
				t.Errorf("clip %v disabled %v, want clip %v", d.Clip, d.ClipDisabled, tc.clip)
			}
			if d.Clip != nil && *d.Clip != [2]float64{0, 100} {
				t.Errorf("clip %v, want [0 100]", *d.Clip)
			}
			tf := "none"
			if d.Transform != nil {
				tf = map[bool]string{false: "off", true: "on"}[d.Transform.Enabled]
			}
			if tf != tc.transform {
				t.Errorf("transform %+v, want %s", d.Transform, tc.transform)
			}
			if len(d.Features) != len(m.FeatureNames()) || d.Features[0].Extractor == "" {
				t.Fatalf("features %+v", d.Features)
			}
			var opt string
			for _, f := range d.Features {
				if len(f.Options) > 0 {
					opt = f.Options[0].Key
					break
				}
			}
			if opt != tc.firstOpt {
				t.Errorf("first option %q, want %q", opt, tc.firstOpt)
			}
		})
	}
}

// describeModelFile is a two-input model written for TestModelDescribeFile.
const describeModelFile = `{"model_dict": {
  "model_type": "LIBSVMNUSVR",
  "norm_type": "linear_rescale",
  "feature_names": ["VMAF_integer_feature_adm2_score", "VMAF_integer_feature_motion2_score"],
  "slopes": [0.02, 1.0, 0.25],
  "intercepts": [-1.0, 0.0, 0.0],
  "model": "svm_type nu_svr\nkernel_type rbf\ngamma 0.25\nnr_class 2\ntotal_sv 2\nrho -1\nSV\n2 1:0.75 2:0.5 \n-1 1:0.2 2:0.1 \n"
}}`

// TestModelDescribeFile: a model file says nothing about its resolution;
// only a name of libvmaf's family or with "4k" in it does.
func TestModelDescribeFile(t *testing.T) {
	dir := t.TempDir()
	for name, want := range map[string]string{"custom.json": "unknown", "vmaf_v0.6.1.json": "1920x1080", "mine_4K.json": "3840x2160"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(describeModelFile), 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := LoadModelFile(p)
		if err != nil {
			t.Fatal(err)
		}
		d := m.Describe()
		if d.Builtin || d.Viewing.Resolution != want || d.Version != p {
			t.Errorf("%s: builtin %v viewing %+v, want %s", name, d.Builtin, d.Viewing, want)
		}
		if want == "unknown" && d.Viewing.Known() {
			t.Errorf("%s: known viewing %+v", name, d.Viewing)
		}
		// No score_clip, no score_transform in the file.
		if d.Clip != nil || d.ClipDisabled || d.Transform != nil || d.Members != 0 || len(d.Features) != 2 {
			t.Errorf("%s: %+v", name, d)
		}
	}
}
