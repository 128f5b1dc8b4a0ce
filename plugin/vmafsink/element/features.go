package element

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vmafsink/vmafsink/vmaf"
)

// The features property takes libvmaf's --feature requests, NAME or
// NAME=opt=val:opt=val, several separated by ';' (':' and '=' are taken
// by the options). Whitespace around a request and empty requests are
// ignored, so "psnr; ciede;" is two requests.
const featureSeparator = ";"

// featureRequests splits the features property into its requests and
// checks each with the engine, so that a bad one is refused with the
// engine's reason when the property is set and again at start.
func featureRequests(list string) ([]string, error) {
	var reqs []string
	for _, r := range strings.Split(list, featureSeparator) {
		r = strings.TrimSpace(r)
		if r == "" || slices.Contains(reqs, r) {
			continue
		}
		if err := vmaf.CheckFeature(r); err != nil {
			return nil, fmt.Errorf("request %q: %s", r, strings.TrimPrefix(err.Error(), "vmaf: "))
		}
		reqs = append(reqs, r)
	}
	return reqs, nil
}

// requestExtractor is the extractor a request names.
func requestExtractor(req string) string {
	name, _, _ := strings.Cut(req, "=")
	return strings.TrimSpace(name)
}

// features lists the extra metrics a run computes: the psnr, ssim and
// ms-ssim properties' extractors, then the features property's requests.
// A property's extractor is left out when a request names the same
// extractor, whatever its options: the request says more, and the two
// would report the same metrics twice. A features value the engine
// refuses is an error.
func (s *settings) features() ([]string, error) {
	reqs, err := featureRequests(s.featureList)
	if err != nil {
		return nil, fmt.Errorf("features: %w", err)
	}
	requested := func(name string) bool {
		return slices.ContainsFunc(reqs, func(r string) bool { return requestExtractor(r) == name })
	}
	var f []string
	for _, b := range []struct {
		on   bool
		name string
	}{{s.psnr, "psnr"}, {s.ssim, "float_ssim"}, {s.msSSIM, "float_ms_ssim"}} {
		if b.on && !requested(b.name) {
			f = append(f, b.name)
		}
	}
	return append(f, reqs...), nil
}
