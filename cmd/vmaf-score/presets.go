package main

import (
	"slices"
	"strings"

	"github.com/vmafsink/vmafsink/vmaf"
)

// preset is what a common-test-conditions version adds to the command
// line, as libvmaf 3.2's tool defines it.
type preset struct {
	models   []string
	features []string
	// replace swaps the request for an extractor already added by an
	// earlier version of the preset.
	replace []string
	// commonBitDepth scores inputs of different depths at the deeper one.
	commonBitDepth bool
}

// aomCTC holds the AOM CTC versions; each includes the one before.
var aomCTC = presetVersions{
	{"v1.0", preset{
		models: []string{"version=vmaf_v0.6.1:name=vmaf", "version=vmaf_v0.6.1neg:name=vmaf_neg"},
		features: []string{"psnr=reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5", "ciede",
			"float_ssim=enable_db=true:clip_db=true", "float_ms_ssim=enable_db=true:clip_db=true", "psnr_hvs"},
	}},
	{"v2.0", preset{}},
	{"v3.0", preset{features: []string{"cambi"}}},
	{"v4.0", preset{}},
	{"v5.0", preset{}},
	{"v6.0", preset{commonBitDepth: true}},
	{"v7.0", preset{replace: []string{"float_ssim=scale=1:enable_db=true:clip_db=true"}}},
}

var nflxCTC = presetVersions{
	{"v1.0", preset{
		models:   []string{"version=vmaf_4k_v0.6.1:name=vmaf", "version=vmaf_4k_v0.6.1neg:name=vmaf_neg"},
		features: []string{"psnr=enable_chroma=true:enable_apsnr=true", "float_ssim=enable_db=true:clip_db=true", "cambi"},
	}},
}

type presetVersions []presetVersion

type presetVersion struct {
	version string
	preset
}

// applyPreset adds a preset's models and features, up to and including
// version, after those already given.
func (s *settings) applyPreset(opt, version string, versions presetVersions) error {
	if opt == "--aom_ctc" && version == "proposed" {
		return usagef("`--aom_ctc proposed` is deprecated")
	}
	n := slices.IndexFunc(versions, func(v presetVersion) bool { return v.version == version })
	if n < 0 {
		var have []string
		for _, v := range versions {
			have = append(have, v.version)
		}
		return usagef("bad %s version %q (have %s)", strings.TrimPrefix(opt, "--"), version, strings.Join(have, ", "))
	}
	for _, v := range versions[:n+1] {
		s.models = append(s.models, v.models...)
		for _, f := range v.features {
			if err := s.addFeature(opt, f); err != nil {
				return err
			}
		}
		for _, f := range v.replace {
			name, _, _ := strings.Cut(f, "=")
			i := slices.IndexFunc(s.features, func(g string) bool { return strings.HasPrefix(g+"=", name+"=") })
			if i < 0 {
				return usagef("%s %s: no %s request to replace", opt, version, name)
			}
			s.features[i] = f
		}
		s.commonBitDepth = s.commonBitDepth || v.commonBitDepth
	}
	return nil
}

func (s *settings) addFeature(opt, f string) error {
	if err := vmaf.CheckFeature(f); err != nil {
		return usagef("%s: %s", opt, strings.TrimPrefix(err.Error(), "vmaf: "))
	}
	s.features = append(s.features, f)
	return nil
}
