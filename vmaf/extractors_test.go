package vmaf

import (
	"strings"
	"testing"
)

func TestCheckFeature(t *testing.T) {
	for _, tc := range []struct{ spec, err string }{
		{"cambi", ""},
		{"cambi=full_ref=true:enc_width=1920:enc_height=1080:eotf=pq", ""},
		{"psnr=enable_chroma=false:reduced_hbd_peak=true:min_sse=0.5", ""},
		{"float_ssim=scale=1:enable_db=true:clip_db=true", ""},
		{"adm=adm_enhn_gain_limit=1.0", ""},
		{"vif=vif_enhn_gain_limit=1.0", ""},
		{"nosuch", `vmaf: unknown feature "nosuch" (have adm, cambi,`},
		{"cambi=topk=2", `vmaf: feature cambi: option topk="2": outside`},
		{"cambi=nosuch=1", `vmaf: feature cambi: unknown option "nosuch"`},
		{"cambi=full_ref", `vmaf: feature cambi: option "full_ref": want name=value`},
		{"psnr=enable_chroma=yes", `vmaf: feature psnr: option enable_chroma="yes": want true or false`},
		{"adm=adm_csf_mode=1", "vmaf: feature adm: option adm_csf_mode is not supported by the native engine"},
		{"motion=motion_force_zero=true", "vmaf: feature motion: options other than the defaults are not supported"},
	} {
		err := CheckFeature(tc.spec)
		if tc.spec == "motion=motion_force_zero=true" {
			// Checked when planned: the scheduler runs motion itself.
			m, _ := BuiltinModel("vmaf_v0.6.1")
			_, err = NewContext(Config{Models: []*Model{m}, Features: []string{tc.spec}})
		}
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.spec, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one containing %q", tc.spec, err, tc.err)
		}
	}
}

func TestFeatureOnlyContext(t *testing.T) {
	ctx, err := NewContext(Config{Features: []string{"float_psnr", "ciede"}})
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	if got := strings.Join(ctx.MetricNames(), " "); got != "float_psnr ciede2000" {
		t.Errorf("MetricNames = %q", got)
	}
	if _, err := NewContext(Config{}); err == nil {
		t.Error("a Context with neither models nor features was made")
	}
}

// FuzzCheckFeature feeds the --feature parser arbitrary requests: it must
// answer every one with nil or an error naming the problem, never panic,
// and accept what it accepts again when the request is repeated.
func FuzzCheckFeature(f *testing.F) {
	for _, s := range []string{"cambi", "cambi=full_ref=true:topk=0.6", "psnr=min_sse=0.5", "float_ssim=scale=11",
		"adm=adm_enhn_gain_limit=1e-3", "=", "==", ":", "cambi=:", "cambi=a=b=c", "speed_chroma=speed_prescale=1.5",
		"float_vif=vif_kernelscale=0.5", "cambi=eotf=pq:window_size=63", "ciede=x=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		err := CheckFeature(spec)
		if err != nil && !strings.HasPrefix(err.Error(), "vmaf: ") {
			t.Errorf("%q: error without context: %v", spec, err)
		}
		if err == nil {
			if err2 := CheckFeature(spec); err2 != nil {
				t.Errorf("%q accepted once, then refused: %v", spec, err2)
			}
		}
	})
}
